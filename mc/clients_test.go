package mc

import (
	"strings"
	"testing"
)

// runClients runs RunClients on a file's instance small.
func runClients(t *testing.T, path string, mm Memory, maxN, maxStates int) *ClientsResult {
	t.Helper()
	res, levels, err := runClientsShared(load(t, path), Options{Instance: "small", Mode: ModeLinearizability, Memory: mm, MaxStates: maxStates}, maxN)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range levels {
		if n != i+1 {
			t.Errorf("finished sizes reported: %v", levels)
		}
	}
	if len(levels) != res.Done {
		t.Errorf("%d sizes reported finished, Done = %d", len(levels), res.Done)
	}
	return res
}

// TestClientsChaseLev checks the clients of Chase-Lev: without a fence,
// TSO breaks linearizability with the owner's take racing a stealer's
// steal; with the fence, and under SC, every client up to 4 calls passes.
func TestClientsChaseLev(t *testing.T) {
	res := runClients(t, "testdata/weak/chaselev-nofence.lip", MemoryTSO, 6, 0)
	if res.Status != Violation || res.Last == nil || res.Last.Failure.Kind != "linearizability" {
		t.Fatalf("chaselev-nofence under TSO: status %v, %+v", res.Status, res)
	}
	if res.Done != 4 || res.Client != "small{owner(0) 3 calls, thief(1..2) 1 call each}" {
		t.Errorf("chaselev-nofence under TSO: violation by %q after size %d", res.Client, res.Done)
	}
	if !strings.Contains(res.Last.Title, res.Client) || len(res.Last.Trace) == 0 {
		t.Errorf("the failing client's search has no title naming it or no trace: %q", res.Last.Title)
	}
	for _, tc := range []struct {
		file string
		mm   Memory
	}{{"chaselev-nofence.lip", MemorySC}, {"chaselev-fence.lip", MemorySC}, {"chaselev-fence.lip", MemoryTSO}} {
		res := runClients(t, "testdata/weak/"+tc.file, tc.mm, 4, 0)
		if res.Status != OK || res.Done != 4 || len(res.Levels) != 4 {
			t.Errorf("%s under %v: status %v, done %d, limit %q", tc.file, tc.mm, res.Status, res.Done, res.Limit)
		}
		// n calls: the owner makes k of them, n-k thieves one each.
		for _, lv := range res.Levels {
			if lv.Clients != lv.N+1 || !lv.Finished || lv.States == 0 {
				t.Errorf("%s under %v, size %d: %+v", tc.file, tc.mm, lv.N, lv)
			}
		}
	}
}

// TestClientsRoles checks how the roles are used: Treiber's two roles
// call the same methods, so its clients are one parallel role's.
func TestClientsRoles(t *testing.T) {
	res := runClients(t, "testdata/treiber.lip", MemorySC, 3, 0)
	if res.Status != OK || res.Done != 3 {
		t.Fatalf("treiber: %+v", res)
	}
	if res.Roles != "a is parallel (each call in a thread of its own)" {
		t.Errorf("roles: %q", res.Roles)
	}
	if len(res.Notes) == 0 || res.Notes[0] != "role b calls what role a calls: its clients are a's" {
		t.Errorf("notes: %q", res.Notes)
	}
	for _, lv := range res.Levels {
		if lv.Clients != 1 {
			t.Errorf("size %d: %d clients, want 1", lv.N, lv.Clients)
		}
	}
}

// TestClientsInstance checks the clients built: thread ids, max bounds,
// and ids shifted past those in use.
func TestClientsInstance(t *testing.T) {
	prog := load(t, "testdata/treiber.lip")
	inst := prog.Info.Instances["pushers"]
	roles, _ := clientRoles(inst)
	if len(roles) != 2 || roles[0].owner || !roles[1].owner {
		t.Fatalf("roles of pushers: %+v", roles)
	}
	var names []string
	compositions(3, 2, func(counts []int) bool {
		c := clientInstance(inst, roles, counts)
		names = append(names, c.Name.Name)
		for _, td := range c.Threads {
			want := 1
			if td.Role.Name == "popper" {
				want = counts[1]
			}
			if td.Max != want {
				t.Errorf("%s: role %s has max %d, want %d", c.Name.Name, td.Role.Name, td.Max, want)
			}
		}
		return true
	})
	want := []string{
		"pushers{pusher(1..3) 1 call each}",
		"pushers{pusher(1..2) 1 call each, popper(3) 1 call}",
		"pushers{pusher(1) 1 call, popper(3) 2 calls}",
		"pushers{popper(3) 3 calls}",
	}
	if strings.Join(names, "; ") != strings.Join(want, "; ") {
		t.Errorf("clients:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	roles[1].owner = false // a popper thread per call now: pushers shift past 3
	c := clientInstance(inst, roles, []int{3, 1})
	if c.Name.Name != "pushers{pusher(1..3) 1 call each, popper(4) 1 call}" {
		t.Errorf("shifted ids: %s", c.Name.Name)
	}
}

// TestClientsIncomplete checks that a client stopped by the state limit
// makes the result incomplete, with the largest size finished.
func TestClientsIncomplete(t *testing.T) {
	res := runClients(t, "testdata/weak/chaselev-fence.lip", MemorySC, 5, 2000)
	if res.Status != Incomplete || res.Done != 3 || !strings.Contains(res.Limit, "state limit (2000)") {
		t.Fatalf("status %v, done %d, limit %q", res.Status, res.Done, res.Limit)
	}
	last := res.Levels[len(res.Levels)-1]
	if last.N != 4 || last.Finished {
		t.Errorf("last size: %+v", last)
	}
	if res.Client == "" || res.Last == nil || res.Last.Status != Incomplete {
		t.Errorf("the stopped client: %q %+v", res.Client, res.Last)
	}
}

// TestClientsBad checks the inputs RunClients refuses.
func TestClientsBad(t *testing.T) {
	prog := load(t, "testdata/treiber.lip")
	for _, tc := range []struct {
		opts Options
		n    int
		want string
	}{
		{Options{Instance: "small", Mode: ModeLinearizability}, 0, "at least 1 call"},
		{Options{Instance: "small"}, 2, "linearizability only"},
		{Options{Instance: "nope", Mode: ModeLinearizability}, 2, "no instance named"},
	} {
		if _, err := RunClients(prog, tc.opts, tc.n, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v, %d: got %v, want %q", tc.opts, tc.n, err, tc.want)
		}
	}
}

// TestClientsParallelSameResult checks that searching a size's clients
// with several workers gives the result of one: the same failing or
// stopped client (the first in order, though later ones fail too and
// may finish first), the same sizes and counts.
func TestClientsParallelSameResult(t *testing.T) {
	for _, tc := range []struct {
		file      string
		mm        Memory
		maxN      int
		maxStates int
	}{
		{"testdata/weak/chaselev-nofence.lip", MemoryTSO, 6, 0},
		{"testdata/weak/chaselev-fence.lip", MemorySC, 5, 2000},
		{"testdata/weak/chaselev-fence.lip", MemorySC, 3, 0},
	} {
		var got [2]*ClientsResult
		for i, jobs := range []int{1, 3} {
			// The one-worker searches are those of TestClientsChaseLev
			// and TestClientsIncomplete, made once (runClientsShared).
			res, _, err := runClientsShared(load(t, tc.file), Options{Instance: "small", Mode: ModeLinearizability, Memory: tc.mm,
				MaxStates: tc.maxStates, Jobs: jobs}, tc.maxN)
			if err != nil {
				t.Fatal(err)
			}
			got[i] = res
		}
		one, par := got[0], got[1]
		if par.Status != one.Status || par.Done != one.Done || par.Client != one.Client || par.Limit != one.Limit ||
			len(par.Levels) != len(one.Levels) {
			t.Fatalf("%s: 3 workers %v done %d client %q limit %q; 1 worker %v done %d client %q limit %q", tc.file,
				par.Status, par.Done, par.Client, par.Limit, one.Status, one.Done, one.Client, one.Limit)
		}
		for i, lv := range one.Levels {
			p := par.Levels[i]
			if p.N != lv.N || p.Clients != lv.Clients || p.Vacuous != lv.Vacuous || p.States != lv.States ||
				p.Trans != lv.Trans || p.Finished != lv.Finished {
				t.Errorf("%s, size %d: 3 workers %+v, 1 worker %+v", tc.file, lv.N, p, lv)
			}
		}
		if (one.Last == nil) != (par.Last == nil) || one.Last != nil && (one.Last.Stats.States != par.Last.Stats.States ||
			len(one.Last.Trace) != len(par.Last.Trace)) {
			t.Errorf("%s: the last client's searches differ", tc.file)
		}
	}
}
