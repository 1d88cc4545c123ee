package lang

import (
	"strings"
	"testing"
)

// linearPrelude declares a pool and the actions that the cases of
// TestLinearMovesAndAvailability call.
const linearPrelude = `linear var pool: [int]bool;
layer 0 {
  action alloc() returns (linear a: [int]bool) { a := pool; pool := [int]bool(false); }
  action free(linear_in a: [int]bool) { pool := a; }
  action use(linear a: [int]bool) {}
  action plain(a: [int]bool) {}
  public proc main() {}
`

// linearCases are procedures (appended to linearPrelude, whose layer
// they close) with the errors they must give, as line:col: message
// fragments; the leading line:col counts lines from the first line of
// the procedure, positions inside messages are the file's.
var linearCases = []struct {
	name string
	proc string
	want []string
}{
	{"move and give away", `  proc p(linear_in x: [int]bool) {
    linear var a: [int]bool;
    linear var b: [int]bool;
    call a := alloc();
    b := a;
    call use(b);
    call free(b);
    call free(x);
  }`, nil},
	{"read after give", `  proc p() {
    linear var a: [int]bool;
    call a := alloc();
    call free(a);
    call use(a);
  }`, []string{"5:14: linear variable a is read where it may have given its identities away (at 11:15)"}},
	{"read in an expression after a move", `  proc p() {
    linear var a: [int]bool;
    linear var b: [int]bool;
    call a := alloc();
    b := a;
    call plain(a);
    call free(b);
  }`, []string{"6:16: linear variable a is read where it may have given its identities away (at 12:10)"}},
	{"read before receiving", `  proc p() {
    linear var a: [int]bool;
    call use(a);
  }`, []string{"3:14: linear variable a is read where it may not have received identities yet"}},
	{"receive while holding", `  proc p() {
    linear var a: [int]bool;
    call a := alloc();
    call a := alloc();
  }`, []string{"4:10: linear variable a may still hold identities here (received at 10:10)"}},
	{"give on one branch", `  proc p(c: bool) {
    linear var a: [int]bool;
    call a := alloc();
    if (c) {
      call free(a);
    }
    call use(a);
  }`, []string{"7:14: linear variable a is read where it may have given its identities away (at 12:17)"}},
	{"give on both branches, receive after", `  proc p(c: bool) {
    linear var a: [int]bool;
    call a := alloc();
    if (c) {
      call free(a);
    } else {
      call free(a);
    }
    call a := alloc();
    call free(a);
  }`, nil},
	{"loop that allocates and frees", `  proc p() {
    linear var a: [int]bool;
    while (*) {
      call a := alloc();
      call free(a);
      yield;
    }
  }`, nil},
	{"loop that allocates without freeing", `  proc p() {
    linear var a: [int]bool;
    while (*) {
      call a := alloc();
      yield;
    }
  }`, []string{"4:12: linear variable a may still hold identities here"}},
	{"give, then break", `  proc p(c: bool) {
    linear var a: [int]bool;
    call a := alloc();
    while (*) {
      if (c) {
        call free(a);
        break;
      }
      yield;
    }
    call use(a);
  }`, []string{"11:14: linear variable a is read where it may have given its identities away (at 13:19)"}},
	{"linear_in parameter given away, then lent", `  proc p(linear_in x: [int]bool) {
    call free(x);
    yield x[0];
  }`, []string{"3:11: linear variable x is read where it may have given its identities away (at 9:15)"}},
	{"move sources", `  proc p(linear t: [int]bool, m: [int]bool) {
    linear var a: [int]bool;
    linear var b: [int]bool;
    a := t;
    b := m;
    b := b;
  }`, []string{
		"4:10: cannot move linear parameter t: the caller lends it",
		"5:10: b is linear and receives only identities a thread owns",
		"6:10: b is moved into itself",
	}},
	{"move from a pool", `  proc p() {
    linear var a: [int]bool;
    a := pool;
  }`, []string{"3:10: a is linear and receives only identities a thread owns"}},
	{"ensures reads a linear_in parameter", `  proc p(linear_in x: [int]bool) returns (linear y: [int]bool)
    ensures y == x
  {
    y := x;
  }`, []string{"2:18: the ensures of p reads linear_in parameter x"}},
	{"linear_in on a mover procedure", `  both proc p(linear_in x: [int]bool) {
  }`, []string{"1:25: linear_in parameter x is not allowed in mover procedure p"}},
}

func TestLinearMovesAndAvailability(t *testing.T) {
	offset := strings.Count(linearPrelude, "\n")
	for _, tc := range linearCases {
		t.Run(tc.name, func(t *testing.T) {
			got := errorsOf(linearPrelude + tc.proc + "\n}\n")
			ok := len(got) == len(tc.want)
			for i := 0; ok && i < len(got); i++ {
				ok = matchShifted(got[i], tc.want[i], offset)
			}
			if !ok {
				var b strings.Builder
				for _, e := range got {
					b.WriteString(e.Detail() + "\n")
				}
				t.Errorf("got %d error(s):\n%swant %d (lines from the procedure's first line):\n  %s", len(got), b.String(), len(tc.want), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// matchShifted is matchError for a want whose line counts from line
// offset+1 of the file.
func matchShifted(e *Error, want string, offset int) bool {
	shifted := *e
	shifted.Pos.Line -= offset
	return matchError(&shifted, want)
}
