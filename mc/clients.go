package mc

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
)

// The most parallel clients of an instance (seed 004): RunClients checks
// linearizability for every client with at most N calls in total, where
// each call of a method that several threads may call runs in a thread
// of its own, and the calls of an owner's methods run in the owner's
// one thread, in any order.
//
// The roles of the instance the user names say which methods each kind
// of thread calls, with which arguments. A role with one thread id whose
// methods no other role calls is an owner role; every other role is a
// parallel role. A client of size n gives each owner role k calls (one
// thread, max k) and each parallel role j threads of one call each
// (max 1), with the k and j adding up to n. Since max bounds the calls
// from above, a thread may stop early, and the clients of size exactly n
// cover every client of size at most n.

// clientRole is a role of the instance as the clients use it.
type clientRole struct {
	decl  *lang.ThreadDecl
	owner bool // its calls run in one thread; else each in a thread of its own
}

// clientRoles classifies the roles of inst. A parallel role whose calls
// are those of an earlier parallel role (the same methods, arguments and
// thread-id parameter) adds no client and is dropped, with a note.
func clientRoles(inst *lang.Instance) (roles []clientRole, notes []string) {
	callers := map[string]int{}
	for _, td := range inst.Threads {
		for _, cs := range td.Calls {
			callers[cs.Method.Name]++
		}
	}
	seen := map[string]string{}
	for _, td := range inst.Threads {
		owner := td.Tids.Lo == td.Tids.Hi
		for _, cs := range td.Calls {
			if callers[cs.Method.Name] > 1 {
				owner = false
			}
		}
		if !owner {
			sig := callSignature(td)
			if first, ok := seen[sig]; ok {
				notes = append(notes, fmt.Sprintf("role %s calls what role %s calls: its clients are %s's", td.Role.Name, first, first))
				continue
			}
			seen[sig] = td.Role.Name
		}
		roles = append(roles, clientRole{decl: td, owner: owner})
	}
	return roles, notes
}

// callSignature is the text of a role's calls and thread-id parameter.
func callSignature(td *lang.ThreadDecl) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:", td.TidParam.Name)
	for _, cs := range td.Calls {
		fmt.Fprintf(&b, " %s(", cs.Method.Name)
		for _, a := range cs.Args {
			fmt.Fprintf(&b, "%s %d..%d,", a.Param.Name, a.Range.Lo, a.Range.Hi)
		}
		b.WriteString(")")
	}
	return b.String()
}

// compositions calls f with every way of writing n as the sum of parts
// numbers, 0 or more, in a fixed order.
func compositions(n, parts int, f func([]int) bool) {
	counts := make([]int, parts)
	var rec func(i, left int) bool
	rec = func(i, left int) bool {
		if i == parts-1 {
			counts[i] = left
			return f(counts)
		}
		for k := left; k >= 0; k-- {
			counts[i] = k
			if !rec(i+1, left-k) {
				return false
			}
		}
		return true
	}
	if parts > 0 {
		rec(0, n)
	}
}

// clientInstance builds the client that makes counts[i] calls of roles[i].
// The threads of a parallel role take the ids from the start of its
// range on; if they would meet another thread's id, they start after
// the largest id in use instead.
func clientInstance(inst *lang.Instance, roles []clientRole, counts []int) *lang.Instance {
	used := map[int64]bool{}
	top := int64(-1 << 62)
	for i, r := range roles {
		if r.owner && counts[i] > 0 {
			used[r.decl.Tids.Lo] = true
			top = max(top, r.decl.Tids.Lo)
		}
	}
	out := &lang.Instance{P: inst.P, End: inst.End, Ints: inst.Ints}
	var parts []string
	for i, r := range roles {
		k := counts[i]
		if k == 0 {
			continue
		}
		td := *r.decl
		lo, hi := td.Tids.Lo, td.Tids.Lo
		if r.owner {
			td.Max = k
			parts = append(parts, fmt.Sprintf("%s(%d) %s", td.Role.Name, lo, plural(k, "call")))
		} else {
			hi = lo + int64(k) - 1
			for id := lo; id <= hi; id++ {
				if used[id] {
					lo, hi = top+1, top+int64(k)
					break
				}
			}
			td.Max = 1
			each := " each"
			if k == 1 {
				each = ""
			}
			parts = append(parts, fmt.Sprintf("%s(%s) 1 call%s", td.Role.Name, idRange(lo, hi), each))
		}
		for id := lo; id <= hi; id++ {
			used[id] = true
		}
		top = max(top, hi)
		td.Tids = &lang.IntRange{P: r.decl.Tids.P, Lo: lo, Hi: hi, Single: lo == hi}
		out.Threads = append(out.Threads, &td)
	}
	out.Name = &lang.Ident{P: inst.Name.P, Name: inst.Name.Name + "{" + strings.Join(parts, ", ") + "}"}
	return out
}

func idRange(lo, hi int64) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d..%d", lo, hi)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// ClientLevel sums up the clients of one size.
type ClientLevel struct {
	N        int // calls in total
	Clients  int // clients searched
	Vacuous  int // of those, clients in which no call can be made
	States   int64
	Trans    int64
	Elapsed  time.Duration // the searches' time
	Finished bool          // every client of this size was searched to the end
}

// ClientsResult is the outcome of RunClients.
type ClientsResult struct {
	// Status: OK if every client up to the size asked passes; Violation
	// if a client fails; Incomplete if a limit stopped a client's search
	// (or no client could make a call).
	Status Status
	Levels []ClientLevel // one per size searched, the last maybe unfinished
	Done   int           // the largest size all of whose clients passed
	Title  string        // what was checked
	Roles  string        // how the instance's roles are used
	Client string        // the client that failed or stopped, if any
	Last   *Result       // that client's search
	Limit  string        // why the result is incomplete
	Notes  []string
}

// RunClients checks every most parallel client of the instance opts
// names with at most maxN calls, in order of size, with linearizability
// (opts.Mode must be ModeLinearizability). It stops at the first client
// that fails or that a limit stops. MaxStates and MaxMemory bound each
// client's search; Timeout bounds all of them together. onLevel, if set,
// receives each size when it is finished.
func RunClients(prog *layers.Program, opts Options, maxN int, onLevel func(ClientLevel)) (*ClientsResult, error) {
	inst := prog.Info.Instances[opts.Instance]
	switch {
	case inst == nil:
		return nil, fmt.Errorf("there is no instance named %q%s", opts.Instance, prog.Info.DescribeInstances())
	case opts.Mode != ModeLinearizability:
		return nil, fmt.Errorf("clients are checked for linearizability only")
	case maxN < 1:
		return nil, fmt.Errorf("want at least 1 call, not %d", maxN)
	}
	for _, td := range inst.Threads {
		if len(td.Sets) > 0 {
			// A client renumbers a role's threads; their linear sets
			// are given per thread, so they would not follow.
			return nil, fmt.Errorf("%s: role %s gives its threads linear sets, which --clients does not support: explore the instance itself", td.Role.P, td.Role.Name)
		}
	}
	roles, notes := clientRoles(inst)
	c := &clientRun{prog: prog, opts: opts, inst: inst, maxN: maxN, roles: roles, onLevel: onLevel, start: time.Now(),
		res: &ClientsResult{Status: OK, Roles: describeRoles(roles), Notes: notes}}
	for n := 1; n <= maxN; n++ {
		if err := c.level(n); err != nil {
			return nil, err
		}
		if c.res.Status != OK {
			return c.res, nil
		}
		c.res.Done = n
	}
	if c.calls == 0 {
		c.res.Status = Incomplete
		c.res.Limit = "no client ever makes a call: every requires is false for every argument the instance offers, so nothing was checked"
	}
	return c.res, nil
}

// describeRoles says how the clients use the roles.
func describeRoles(roles []clientRole) string {
	var parts []string
	for _, r := range roles {
		if r.owner {
			parts = append(parts, fmt.Sprintf("%s is an owner (its calls in thread %d)", r.decl.Role.Name, r.decl.Tids.Lo))
		} else {
			parts = append(parts, fmt.Sprintf("%s is parallel (each call in a thread of its own)", r.decl.Role.Name))
		}
	}
	return strings.Join(parts, "; ")
}

// clientRun is the state of RunClients.
type clientRun struct {
	prog    *layers.Program
	opts    Options
	inst    *lang.Instance
	maxN    int
	roles   []clientRole
	onLevel func(ClientLevel)
	start   time.Time
	calls   int // clients in which some call was made
	res     *ClientsResult
	noted   map[string]bool
}

// level searches the clients of size n: in parallel (searchAll), but
// their results are read in the order of the clients, up to the first
// that fails or stops, so the outcome is the same for every --jobs.
func (c *clientRun) level(n int) error {
	var clients []*lang.Instance
	compositions(n, len(c.roles), func(counts []int) bool {
		clients = append(clients, clientInstance(c.inst, c.roles, counts))
		return true
	})
	results, err := c.searchAll(clients)
	if err != nil {
		return err
	}
	lv := ClientLevel{N: n}
	for i, client := range clients {
		r := results[i]
		if c.res.Title == "" && r.Title != "" {
			c.res.Title = strings.Replace(r.Title, "instance "+client.Name.Name,
				fmt.Sprintf("every client of instance %s with at most %s", c.inst.Name.Name, plural(c.maxN, "call")), 1)
		}
		lv.Clients++
		lv.States += r.Stats.States
		lv.Trans += r.Stats.Transitions
		lv.Elapsed += r.Stats.Elapsed
		if r.Vacuous {
			lv.Vacuous++
			continue
		}
		if r.Status == OK {
			c.calls++
			c.note(r.Notes)
			continue
		}
		c.res.Status, c.res.Client, c.res.Last, c.res.Limit = r.Status, client.Name.Name, r, r.Limit
		if r.Status == Incomplete && c.opts.Timeout > 0 && time.Since(c.start) >= c.opts.Timeout {
			c.res.Limit = fmt.Sprintf("the time limit (%s) for all clients was reached", c.opts.Timeout)
		}
		break
	}
	lv.Finished = c.res.Status == OK
	c.res.Levels = append(c.res.Levels, lv)
	if lv.Finished && c.onLevel != nil {
		c.onLevel(lv)
	}
	return nil
}

// searchAll searches the clients with opts.Jobs workers, each client on
// one worker, with
// MaxMemory shared among them. Workers take the clients in order and
// take no client after one that failed or stopped, and the searches of
// clients after it are cancelled: every client before the first such
// one has its result, those after it may have none or a cancelled one.
func (c *clientRun) searchAll(clients []*lang.Instance) ([]*Result, error) {
	workers := min(max(c.opts.Jobs, 1), len(clients))
	results := make([]*Result, len(clients))
	errs := make([]error, len(clients))
	cancels := make([]context.CancelFunc, len(clients))
	var mu sync.Mutex
	next, stop := 0, len(clients) // the next client to take and the end; guarded by mu
	parent := c.opts.Context
	if parent == nil {
		parent = context.Background()
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				ctx, cancel := context.WithCancel(parent)
				mu.Lock()
				i := next
				if i >= stop {
					mu.Unlock()
					cancel()
					return
				}
				next++
				cancels[i] = cancel
				mu.Unlock()
				results[i], errs[i] = c.one(ctx, clients[i], workers)
				if r := results[i]; errs[i] != nil || !r.Vacuous && r.Status != OK {
					mu.Lock()
					stop = min(stop, i+1)
					for _, cancelLater := range cancels[i+1:] {
						if cancelLater != nil {
							cancelLater()
						}
					}
					mu.Unlock()
				}
				cancel()
			}
		}()
	}
	wg.Wait()
	for i := range clients {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if results[i] == nil || !results[i].Vacuous && results[i].Status != OK {
			break
		}
	}
	return results, nil
}

// one searches one client, within what is left of the time limit.
func (c *clientRun) one(ctx context.Context, client *lang.Instance, workers int) (*Result, error) {
	o := c.opts
	o.InstanceDecl = client
	if workers > 1 {
		o.Context = ctx
		o.Jobs = 1
		o.MaxMemory /= int64(workers)
	}
	if o.Timeout > 0 {
		left := o.Timeout - time.Since(c.start)
		if left <= 0 {
			return &Result{Status: Incomplete,
				Limit: fmt.Sprintf("the time limit (%s) was reached", c.opts.Timeout)}, nil
		}
		o.Timeout = left
	}
	return Run(c.prog, o)
}

// note keeps the notes of a passing client that are not about it alone.
func (c *clientRun) note(notes []string) {
	if c.noted == nil {
		c.noted = map[string]bool{}
	}
	for _, n := range notes {
		key := n
		if i := strings.Index(n, " (threads "); i >= 0 && strings.HasPrefix(n, "symmetry reduction") {
			key = n[:i] // the same note for every number of threads
		}
		if strings.HasPrefix(n, "never called") || c.noted[key] {
			continue
		}
		c.noted[key] = true
		if key != n {
			n = key + " (its parallel threads)"
		}
		c.res.Notes = append(c.res.Notes, n)
	}
}
