package z3

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const crashChildEnv = "LIPTON_Z3_CRASH_CHILD"

// TestCrashGuard runs this test binary as a child that faults inside
// libz3: it must end with lipton's one line and exit code 3, without the
// Go runtime's dump. Outside a check the line names the task set last;
// inside a check, the task of the context being checked, even when
// another context set its task later (check --jobs).
func TestCrashGuard(t *testing.T) {
	if mode := os.Getenv(crashChildEnv); mode != "" {
		crashChild(mode == "in-check")
	}
	for _, c := range []struct{ mode, task string }{
		{"outside", "solving obligation later"},
		{"in-check", "solving obligation first"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestCrashGuard$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+c.mode)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 3 {
			t.Fatalf("%s: the child ended with %v, want exit code 3:\n%s", c.mode, err, out)
		}
		want := "lipton: internal error: Z3 crashed (segmentation fault) while " + c.task + "; this is a bug in Z3 or in lipton's use of it: please report it with the input file\n"
		if string(out) != want {
			t.Errorf("%s: the child printed:\n%s\nwant:\n%s", c.mode, out, want)
		}
	}
}

// crashChild sets the tasks of two contexts, then faults inside libz3 on
// the first, inside a check or not.
func crashChild(inCheck bool) {
	first, err := NewContext()
	if err != nil {
		os.Exit(9)
	}
	later, err := NewContext()
	if err != nil {
		os.Exit(9)
	}
	first.SetTask("solving obligation first")
	later.SetTask("solving obligation later")
	first.crashForTest(inCheck)
	os.Exit(8) // not reached
}

// TestGoFaultsStillPanic: with the guard installed, a nil dereference in
// Go code is still a panic that recover catches.
func TestGoFaultsStillPanic(t *testing.T) {
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	var p *Context
	recovered := func() (r any) {
		defer func() { r = recover() }()
		_ = p.c // nil dereference
		return nil
	}()
	if recovered == nil || !strings.Contains(recovered.(error).Error(), "nil pointer dereference") {
		t.Errorf("recovered %v, want a nil pointer dereference panic", recovered)
	}
}
