package mc

import (
	"fmt"

	"github.com/lipton-dev/lipton/lang"
)

// poolClash checks the environment's side of linear types at a call of
// cc by thread ti, whose frame is in ru.x.r: the thread's linear values
// (its identity and its linear sets, as the instance gives them) are
// held by no linear global of the same domain. The static checks assume
// it at every call (docs/checks.md, "Linear values"); an instance that
// breaks it describes clients outside the contract, which is reported
// as an error rather than explored.
func (ru *run) poolClash(ti *threadInfo, cc *callChoice) *Failure {
	m := ru.m
	for gi, g := range m.globals {
		if !g.Linear {
			continue
		}
		dom, _, _ := lang.LinearDomain(g.Type)
		pool := ru.x.r[gi]
		for i, p := range cc.m.proc.sig.Params {
			if !p.Linear {
				continue
			}
			pd, _, _ := lang.LinearDomain(p.Name.Obj.Type)
			if pd == nil || dom == nil || !lang.Identical(pd, dom) {
				continue
			}
			for _, v := range ru.linearValues(ti, cc, i) {
				if m.maps.get(pool, v) != 0 {
					return &Failure{Kind: "error", Thread: ru.t, Pos: []lang.Pos{ti.role.decl.Role.P, g.Decl.Pos()}, Msg: fmt.Sprintf(
						"%s calls %s with %s holding %d, which the linear global %s holds: the instance must give its threads identities that no linear global holds",
						ti, cc.m.name, p.Name.Name, v, g.Name)}
				}
			}
		}
	}
	return nil
}

// linearValues returns the identities that parameter i of cc's method
// receives from thread ti: its identity, or the members of its set.
func (ru *run) linearValues(ti *threadInfo, cc *callChoice, i int) []int64 {
	if i == cc.tid {
		return []int64{ti.tid}
	}
	for _, s := range cc.sets {
		if s.param == i {
			td := ti.role.decl
			return td.Sets[s.set].Sets[ti.tid-td.Tids.Lo].Values()
		}
	}
	return nil
}
