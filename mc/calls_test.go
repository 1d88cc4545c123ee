package mc

import "testing"

// TestRecursiveCallArguments checks that a procedure that calls itself
// receives the arguments its caller computed: caller and callee share
// one register file, so the arguments must be evaluated before the
// callee's frame is loaded (a recursive call in an else branch used to
// run the callee with n = -1 and report its requires as violated).
func TestRecursiveCallArguments(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"call in the else branch", `if (n == 0) { r := 0; } else { call r := p(n - 1); r := r + 1; }`},
		{"call in the then branch", `if (n > 0) { call r := p(n - 1); r := r + 1; } else { r := 0; }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog := loadSrc(t, "recursive.lip", `
layer 0 {
  proc p(n: int) returns (r: int) requires n >= 0 ensures r == n {
    `+tc.body+`
  }
}
instance i { thread w(tid = 0) calls p(n in 0..3) max 1; }`)
			for _, reduce := range []bool{true, false} {
				res, err := Run(prog, Options{Instance: "i", NoPOR: !reduce, NoSymmetry: !reduce, NoDeadVars: !reduce})
				if err != nil {
					t.Fatal(err)
				}
				checkVerdict(t, res, "", "")
			}
		})
	}
}
