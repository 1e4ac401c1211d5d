package acpexec

import (
	"errors"
	"fmt"
	"time"
)

// pollEvery is how often Close looks whether the agent's process group has
// ended.
const pollEvery = 10 * time.Millisecond

// Close ends the agent and every process of its group and reaps the agent:
// it closes the agent's input, waits Options.Grace for the agent and its
// group to exit, sends SIGTERM to the group, waits Options.TermGrace, sends
// SIGKILL to the group, and waits for the agent to be reaped and the group
// to be gone (at most 2 s more, for a process stuck in the kernel). It then closes the read ends of
// the agent's output and standard error, so that a Read blocked on a
// grandchild that held them open returns. Close never waits longer than
// Grace + TermGrace + 2 s.
//
// Close returns nil when the agent exited with status 0 or was ended by a
// signal Close sent (Ending tells which), an *ExitError when it exited by
// itself with another status, and the same value on every call.
func (p *Process) Close() error {
	p.closeOnce.Do(func() { p.closeErr = p.shutdown() })
	return p.closeErr
}

func (p *Process) shutdown() error {
	p.CloseWrite()
	ending := Exited
	if !p.awaitGroup(p.grace) {
		ending = Terminated
		terminate(p)
		if !p.awaitGroup(p.termGrace) {
			ending = Killed
			kill(p)
		}
	}
	var err error
	if ending == Killed && !p.awaitGroup(killWait) && p.State() == nil {
		err = fmt.Errorf("acpexec: the agent (pid %d) was not reaped %v after SIGKILL", p.pid, killWait)
	}
	p.stdout.Close()
	if p.stderr != nil {
		p.stderr.Close()
	}
	<-p.stderrDone
	p.mu.Lock()
	p.ending = ending
	p.mu.Unlock()
	if err != nil || ending != Exited {
		return err
	}
	var exit interface{ ExitCode() int }
	if errors.As(p.waitErr, &exit) && exit.ExitCode() != 0 {
		return &ExitError{Pid: p.pid, State: p.state, Stderr: p.tail.lines()}
	}
	return nil
}

// awaitGroup waits at most d for the agent to be reaped and for its process
// group to have no live process left, and reports whether both happened.
func (p *Process) awaitGroup(d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	select {
	case <-p.exited:
	case <-deadline.C:
		return false
	}
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for groupAlive(p.pid) {
		select {
		case <-tick.C:
		case <-deadline.C:
			return false
		}
	}
	return true
}
