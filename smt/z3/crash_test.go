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
// Go runtime's dump.
func TestCrashGuard(t *testing.T) {
	if os.Getenv(crashChildEnv) != "" {
		ctx, err := NewContext()
		if err != nil {
			os.Exit(9)
		}
		SetTask("solving obligation test-crash")
		ctx.crashForTest()
		os.Exit(8) // not reached
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestCrashGuard$")
	cmd.Env = append(os.Environ(), crashChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("the child ended with %v, want exit code 3:\n%s", err, out)
	}
	want := "lipton: internal error: Z3 crashed (segmentation fault) while solving obligation test-crash; this is a bug in Z3 or in lipton's use of it: please report it with the input file\n"
	if string(out) != want {
		t.Errorf("the child printed:\n%s\nwant:\n%s", out, want)
	}
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
