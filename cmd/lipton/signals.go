package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// Exit codes of a run stopped by a signal: 128 plus the signal's number,
// as shells report a process killed by it.
const (
	exitInterrupted = 130 // SIGINT (Ctrl-C)
	exitTerminated  = 143 // SIGTERM
)

// exitNow ends the process at a second signal (a variable so that tests
// can observe it instead).
var exitNow = os.Exit

// signalError is the cause of a context cancelled by a signal.
type signalError struct{ sig os.Signal }

func (e *signalError) Error() string {
	if e.sig == syscall.SIGTERM {
		return "terminated (SIGTERM)"
	}
	return "interrupted (SIGINT)"
}

// signalExitCode is the exit code of a run stopped by sig.
func signalExitCode(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return exitTerminated
	}
	return exitInterrupted
}

// signalContext is the one way every command handles Ctrl-C (SIGINT) and
// SIGTERM. The first such signal cancels ctx, with a signalError as its
// cause ("interrupted (SIGINT)"): the command stops its work, reports
// what it has done and exits with signalExitCode(signaled()). A second
// signal exits at once with its own code, for when stopping takes too
// long. stop restores the default handling; signaled returns the first
// signal received, or nil.
func signalContext(parent context.Context) (ctx context.Context, stop func(), signaled func() os.Signal) {
	ctx, cancel := context.WithCancelCause(parent)
	incoming := make(chan os.Signal, 2)
	signal.Notify(incoming, os.Interrupt, syscall.SIGTERM)
	var mu sync.Mutex
	var first os.Signal
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-incoming:
				mu.Lock()
				again := first != nil
				if !again {
					first = sig
				}
				mu.Unlock()
				if again {
					exitNow(signalExitCode(sig))
					return
				}
				cancel(&signalError{sig})
			case <-quit:
				return
			}
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(incoming)
			close(quit)
			cancel(nil)
		})
	}
	signaled = func() os.Signal {
		mu.Lock()
		defer mu.Unlock()
		return first
	}
	return ctx, stop, signaled
}
