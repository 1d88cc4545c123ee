package htmlreport

import (
	"strconv"
	"strings"

	"github.com/lipton-dev/lipton/cextable"
	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/mc"
)

// lanes is a counterexample as a swim-lane diagram: a column per thread
// (a lane), a row per step in order.
type lanes struct {
	Threads []string
	Rows    []laneRow
}

// laneRow is one step: the cell of the thread that moves is active, the
// others show the lane going on.
type laneRow struct {
	Label string // "1", "2", ... or "before", "after"
	Cells []laneCell
}

// laneCell is what a thread does in a step.
type laneCell struct {
	Active  bool
	Event   string   // "calls put(tid = 0, task = 1)", "returns task = 0", "runs put"
	Lines   []string // the statements executed
	Values  []string // the state of the lane: "x = 0"
	Changes []string // "T: 0 -> 1"
	Waits   string   // the yield point where the thread waits afterwards
	Buffer  string   // its store buffer, under weak memory
}

// traceLanes lays out a trace of the model checker: a lane per thread,
// in the order the threads first move.
func traceLanes(trace []mc.TraceStep) lanes {
	var l lanes
	lane := map[string]int{}
	for _, st := range trace {
		if _, ok := lane[st.Thread]; !ok {
			lane[st.Thread] = len(l.Threads)
			l.Threads = append(l.Threads, st.Thread)
		}
	}
	for i, st := range trace {
		row := laneRow{Label: strconv.Itoa(i + 1), Cells: make([]laneCell, len(l.Threads))}
		event := st.Event
		if event == "" {
			event = "runs " + st.Method
		}
		row.Cells[lane[st.Thread]] = laneCell{Active: true, Event: event, Lines: st.Lines, Changes: st.Changes,
			Waits: strings.TrimPrefix(st.Where, "then "), Buffer: st.Buffer}
		l.Rows = append(l.Rows, row)
	}
	return l
}

// findingLanes lays out the counterexample of a failed obligation: a
// lane per part of the state (the globals, each thread, as the
// obligation names them), the values before in the first row and those
// that changed in the second.
func findingLanes(f *check.Finding) *lanes {
	if f.Cex == nil {
		return nil
	}
	groups := cextable.Groups(f.Obligation, f.Cex)
	if len(groups) == 0 {
		return nil
	}
	l := &lanes{}
	before := laneRow{Label: "before"}
	after := laneRow{Label: "after"}
	for _, g := range groups {
		l.Threads = append(l.Threads, g.Name)
		var all, changed []string
		for _, v := range g.Values {
			value := v.Before
			if g.Trace {
				value = v.After // the value recorded at the program point
			}
			all = append(all, v.Name+" = "+value)
			if v.Changed {
				changed = append(changed, v.Name+": "+v.Before+" -> "+v.After)
			}
		}
		before.Cells = append(before.Cells, laneCell{Active: true, Values: all, Waits: waitsIn(g.Name)})
		after.Cells = append(after.Cells, laneCell{Active: len(changed) > 0, Changes: changed})
	}
	l.Rows = []laneRow{before, after}
	return l
}

// waitsIn extracts the yield point from a thread group's name, "thread 1
// (incA, at line 10)": "at line 10"; "" if it names none.
func waitsIn(group string) string {
	i := strings.Index(group, "at line ")
	if i < 0 {
		return ""
	}
	return "waits " + strings.TrimSuffix(group[i:], ")")
}
