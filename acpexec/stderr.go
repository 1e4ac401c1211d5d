package acpexec

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"
)

// maxLine is the longest line of standard error handed on in one piece;
// a longer one is handed on in pieces of this size.
const maxLine = 64 << 10

// maxTailLine is the longest line kept in the tail; longer ones are cut.
const maxTailLine = 1000

// copyStderr hands each line of the agent's standard error to w and logger
// (to os.Stderr when both are nil) and keeps the last ones, until every
// process holding the agent's standard error has closed it or Close closes
// the read end.
func (p *Process) copyStderr(w io.Writer, logger *slog.Logger) {
	defer close(p.stderrDone)
	if w == nil && logger == nil {
		w = os.Stderr
	}
	br := bufio.NewReaderSize(p.stderr, maxLine)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			text := strings.TrimRight(string(line), "\r\n")
			p.tail.add(text)
			if w != nil {
				w.Write([]byte(text + "\n"))
			}
			if logger != nil {
				logger.Info("agent stderr", "pid", p.pid, "line", text)
			}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
	}
}

// tail keeps the last lines of standard error.
type tail struct {
	mu  sync.Mutex
	max int
	buf []string
}

func newTail(n int) *tail {
	if n <= 0 {
		n = DefaultTailLines
	}
	return &tail{max: n}
}

func (t *tail) add(line string) {
	if len(line) > maxTailLine {
		line = line[:maxTailLine] + "…"
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.buf) == t.max {
		copy(t.buf, t.buf[1:])
		t.buf = t.buf[:t.max-1]
	}
	t.buf = append(t.buf, line)
}

func (t *tail) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.buf...)
}

// ExitError is an agent that exited by itself: with a status other than 0
// when Close returns it, or before it answered when Explain returns it.
type ExitError struct {
	Pid    int
	State  *os.ProcessState // how it exited: its status or signal
	Stderr []string         // the last lines of its standard error
	Err    error            // what failed because it exited, or nil
}

// Error says how the agent exited, what failed, and its last lines of
// standard error, each on a line of its own.
func (e *ExitError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the agent (pid %d) exited", e.Pid)
	if e.State != nil {
		fmt.Fprintf(&b, " (%s)", e.State)
	}
	if e.Err != nil && e.Err != io.EOF { // the end of its output says nothing more
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	if len(e.Stderr) == 0 {
		b.WriteString("; it wrote nothing to its standard error")
	} else {
		b.WriteString("; the last lines of its standard error:")
		for _, l := range e.Stderr {
			b.WriteString("\n\t" + l)
		}
	}
	return b.String()
}

// Unwrap returns Err.
func (e *ExitError) Unwrap() error { return e.Err }

// ExitCode returns the agent's exit status, or -1 when it was ended by a
// signal or has not exited.
func (e *ExitError) ExitCode() int {
	if e.State == nil {
		return -1
	}
	return e.State.ExitCode()
}

// explainWait bounds how long Explain waits, once the agent's output has
// ended, for the agent to exit.
const explainWait = 2 * time.Second

// Explain returns err as the cause of an *ExitError when the agent has
// exited, or when its output has ended (a Read failed) and it exits within
// 2 s, as an agent does whose exit ended the connection: the error then
// says the agent's exit status and the last lines of its standard error.
// While the agent's output has not ended the agent is running, and Explain
// returns err unchanged at once, without a wait; a nil err stays nil.
func (p *Process) Explain(err error) error {
	if err == nil {
		return nil
	}
	var exit *ExitError
	if errors.As(err, &exit) {
		return err
	}
	select {
	case <-p.exited:
	default:
		if !p.outEnded.Load() {
			return err
		}
		t := time.NewTimer(explainWait)
		defer t.Stop()
		select {
		case <-p.exited:
		case <-t.C:
			return err
		}
	}
	// The agent has exited; its last lines may still be in the pipe.
	t := time.NewTimer(100 * time.Millisecond)
	defer t.Stop()
	select {
	case <-p.stderrDone:
	case <-t.C:
	}
	return &ExitError{Pid: p.pid, State: p.state, Stderr: p.tail.lines(), Err: err}
}
