package acpexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// The defaults of Options.
const (
	DefaultGrace     = 1 * time.Second
	DefaultTermGrace = 2 * time.Second
	DefaultTailLines = 20
)

// killWait bounds the wait for the agent to be reaped after SIGKILL, so that
// a process stuck in the kernel cannot make Close hang.
const killWait = 2 * time.Second

// Options tunes Start. The zero value is ready to use.
type Options struct {
	// Stderr receives the agent's standard error, line by line, each line
	// ending in a newline. When Stderr and Logger are both nil, the lines go
	// to os.Stderr.
	Stderr io.Writer
	// Logger, when set, logs each line of the agent's standard error at
	// level Info with the message "agent stderr" and the attributes
	// "pid" and "line". Stderr and Logger can both be set.
	Logger *slog.Logger
	// Grace is how long Close waits for the agent to exit after closing its
	// input, before it sends SIGTERM; DefaultGrace when zero.
	Grace time.Duration
	// TermGrace is how long Close waits after SIGTERM before it sends
	// SIGKILL; DefaultTermGrace when zero.
	TermGrace time.Duration
	// TailLines is how many of the last lines of standard error are kept
	// for ExitError; DefaultTailLines when zero.
	TailLines int
	// MergeStderr sends the command's standard error to its standard
	// output, as a shell's 2>&1 does: Read returns both, in the order
	// they were written, and Stderr, Logger and TailLines are not used.
	// A terminal's output is read this way.
	MergeStderr bool
}

// Ending says how Close ended the agent.
type Ending int

const (
	// Running: the agent has not been closed and has not exited.
	Running Ending = iota
	// Exited: the agent exited by itself (after the end of its input, or
	// before Close).
	Exited
	// Terminated: the agent or a process of its group was sent SIGTERM and
	// the group ended before the second grace period was over.
	Terminated
	// Killed: the group was sent SIGKILL.
	Killed
)

// String returns the ending's name in lower case.
func (e Ending) String() string {
	switch e {
	case Exited:
		return "exited"
	case Terminated:
		return "terminated"
	case Killed:
		return "killed"
	}
	return "running"
}

// Process is a started agent. Read reads the agent's standard output and
// Write writes to its standard input, so that a Process is both ends of a
// connection; Close ends it. Its methods are safe for concurrent use.
type Process struct {
	cmd       *exec.Cmd
	pid       int
	stdin     *os.File // the write end of the agent's input
	stdout    *os.File // the read end of the agent's output
	stderr    *os.File // the read end of the agent's standard error
	grace     time.Duration
	termGrace time.Duration

	exited     chan struct{} // closed when the agent is reaped
	state      *os.ProcessState
	waitErr    error
	stderrDone chan struct{} // closed when the standard error reader ends
	tail       *tail

	outEnded atomic.Bool // a Read of the agent's output has failed (its end)

	closeOnce sync.Once
	closeErr  error
	mu        sync.Mutex
	ending    Ending
}

// Start starts cmd, which must not have been started and must leave Stdin,
// Stdout and Stderr nil, in a process group of its own, and returns the
// supervised process. ctx bounds the start alone: once Start has returned,
// the agent runs until it exits or Close ends it (to end it with a context,
// call Close when the context ends).
func Start(ctx context.Context, cmd *exec.Cmd, opts *Options) (*Process, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if cmd.Process != nil {
		return nil, errors.New("acpexec: the command was already started")
	}
	if cmd.Stdin != nil || cmd.Stdout != nil || cmd.Stderr != nil {
		return nil, errors.New("acpexec: the command's Stdin, Stdout and Stderr must be nil: they are the connection and the log")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	p := &Process{
		cmd:        cmd,
		grace:      orDefault(o.Grace, DefaultGrace),
		termGrace:  orDefault(o.TermGrace, DefaultTermGrace),
		exited:     make(chan struct{}),
		stderrDone: make(chan struct{}),
		tail:       newTail(o.TailLines),
	}
	if err := p.start(o); err != nil {
		return nil, err
	}
	return p, nil
}

// start makes the three pipes, starts the command with the agent's ends and
// closes them here, and starts the goroutines that reap the agent and read
// its standard error.
func (p *Process) start(o Options) (err error) {
	var files []*os.File // every end, closed on failure
	defer func() {
		if err != nil {
			for _, f := range files {
				f.Close()
			}
		}
	}()
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return fmt.Errorf("acpexec: %w", err)
	}
	outR, outW, err := pipe()
	if err != nil {
		return fmt.Errorf("acpexec: %w", err)
	}
	errR, errW := (*os.File)(nil), outW
	if !o.MergeStderr {
		if errR, errW, err = pipe(); err != nil {
			return fmt.Errorf("acpexec: %w", err)
		}
	}
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, errW
	setGroup(p.cmd)
	if err := p.cmd.Start(); err != nil {
		p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = nil, nil, nil
		return fmt.Errorf("acpexec: starting %s: %w", p.cmd.Path, err)
	}
	// The agent holds its ends now; the reads here end when every process
	// holding the write ends has closed them.
	inR.Close()
	outW.Close()
	if errR != nil {
		errW.Close()
	}
	p.pid = p.cmd.Process.Pid
	p.stdin, p.stdout, p.stderr = inW, outR, errR
	go p.reap()
	if errR != nil {
		go p.copyStderr(o.Stderr, o.Logger)
	} else {
		close(p.stderrDone)
	}
	return nil
}

// reap waits for the agent to exit and records how.
func (p *Process) reap() {
	p.waitErr = p.cmd.Wait()
	p.state = p.cmd.ProcessState
	close(p.exited)
}

// Pid returns the agent's process id, which is also its process group's id
// where there are process groups.
func (p *Process) Pid() int { return p.pid }

// Read reads the agent's standard output. It returns io.EOF when the agent
// and every process that inherited its output have closed it, and an error
// once Close has ended the agent.
func (p *Process) Read(b []byte) (int, error) {
	n, err := p.stdout.Read(b)
	if err != nil {
		p.outEnded.Store(true)
	}
	return n, err
}

// Write writes to the agent's standard input.
func (p *Process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// CloseWrite closes the agent's standard input, the end-of-input an agent
// is asked to exit on, without waiting.
func (p *Process) CloseWrite() error {
	err := p.stdin.Close()
	if errors.Is(err, os.ErrClosed) {
		return nil
	}
	return err
}

// Exited is closed when the agent process has exited and been reaped.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// State returns the agent's exit state once Exited is closed, and nil
// before.
func (p *Process) State() *os.ProcessState {
	select {
	case <-p.exited:
		return p.state
	default:
		return nil
	}
}

// Ending reports how the agent ended: Running until it exits or Close has
// ended it.
func (p *Process) Ending() Ending {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ending == Running && p.State() != nil {
		return Exited
	}
	return p.ending
}

// StderrTail returns the last lines the agent wrote to its standard error,
// without their newlines, oldest first.
func (p *Process) StderrTail() []string { return p.tail.lines() }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
