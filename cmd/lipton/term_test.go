//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal and returns its two ends: the
// controller, which the test reads, and the terminal, which the child's
// stdout and stderr are.
func openPTY(t *testing.T) (controller, terminal *os.File) {
	t.Helper()
	controller, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	fd := int(controller.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		controller.Close()
		t.Skipf("cannot unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err == nil {
		terminal, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	}
	if err != nil {
		controller.Close()
		t.Skipf("cannot open the terminal end: %v", err)
	}
	return controller, terminal
}

// runChild runs this test binary as lipton with the given arguments
// (TestMain), its stdout and stderr a terminal or a pipe, and returns
// what it wrote.
func runChild(t *testing.T, onTerminal bool, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "TERM=xterm", childArgsEnv+"="+strings.Join(args, "\x1f"))
	cmd.Env = append(withoutVar(cmd.Env, "NO_COLOR"), env...)
	if !onTerminal {
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.Run()
		return out.String()
	}
	controller, terminal := openPTY(t)
	defer controller.Close()
	cmd.Stdout, cmd.Stderr = terminal, terminal
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	terminal.Close() // the child holds it; its exit ends the reads
	out, err := io.ReadAll(controller)
	if err != nil && !errors.Is(err, syscall.EIO) { // EIO: the terminal end is closed
		t.Fatal(err)
	}
	cmd.Wait()
	return string(out)
}

func withoutVar(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// TestColourOnTerminal: reports are coloured on a terminal, plain when
// piped or when NO_COLOR is set (DESIGN §8).
func TestColourOnTerminal(t *testing.T) {
	const red = "\x1b[31;1m"
	bad := writeFile(t, "bad.lip", badSrc)
	for _, tc := range []struct {
		name       string
		onTerminal bool
		env        []string
		args       []string
		colour     bool
	}{
		{"failed check on a terminal", true, nil, []string{"check", brokenProof}, true},
		{"front-end error on a terminal", true, nil, []string{"check", bad}, true},
		{"failed check piped", false, nil, []string{"check", brokenProof}, false},
		{"NO_COLOR", true, []string{"NO_COLOR=1"}, []string{"check", brokenProof}, false},
		{"TERM=dumb", true, []string{"TERM=dumb"}, []string{"check", bad}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runChild(t, tc.onTerminal, tc.env, tc.args...)
			if !strings.Contains(out, "error:") {
				t.Fatalf("no error in the output:\n%s", out)
			}
			if got := strings.Contains(out, red+"error:"); got != tc.colour {
				t.Errorf("red error label: %v, want %v; output:\n%q", got, tc.colour, out)
			}
			if !tc.colour && strings.Contains(out, "\x1b[") {
				t.Errorf("escape sequences in plain output:\n%q", out)
			}
		})
	}
}
