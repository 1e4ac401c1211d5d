package acpinspect

import (
	"context"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/acpgen/acpgen/acpexec"
)

// TapOptions tune Tap. The zero value passes the process's own standard
// streams through.
type TapOptions struct {
	// Stdin is what the client writes to the agent (os.Stdin when nil).
	Stdin io.Reader
	// Stdout is where the agent's output goes (os.Stdout when nil).
	Stdout io.Writer
	// Stderr is where the agent's standard error goes, line by line
	// (os.Stderr when nil).
	Stderr io.Writer
	// Recorder receives every line of the three streams, in the order
	// they passed, in a goroutine of its own: the traffic never waits for
	// it. Nil records nothing.
	Recorder Recorder
	// MaxPending bounds the bytes passed on but not yet recorded
	// (DefaultMaxPending when zero). While they are at the bound, what
	// passes is not recorded, and a GapRecorder is told how much was
	// left out.
	MaxPending int
	// Conn is the connection number of the frames; 1 when zero.
	Conn int64
	// Exec tunes the supervision of the agent (its grace periods).
	Exec acpexec.Options
	// Started, when set, is called with the agent's process once it runs.
	Started func(p *acpexec.Process)
}

// copyBuffer is the largest read the tap passes on (the size of the
// blocks it reads into).
const copyBuffer = 64 << 10

// Tap runs cmd as the agent of a client that talks to this process: what
// arrives on Stdin is written to the agent's standard input, and the
// agent's standard output to Stdout, byte for byte and in order; the
// agent's standard error goes to Stderr. The agent is supervised by acpexec: it runs in a process group
// of its own, and when the client closes Stdin its input is closed, and
// Close's grace periods, SIGTERM and SIGKILL follow as acpexec says. When
// ctx ends the agent is closed the same way.
//
// Tap returns once the agent's output has ended and the agent has been
// reaped, with the agent's *acpexec.ExitError when it did not exit with 0,
// and once every frame has been handed to the recorder. The goroutine that
// reads Stdin ends when Stdin does (at the latest when the process exits).
func Tap(ctx context.Context, cmd *exec.Cmd, opts TapOptions) error {
	stdin, stdout, stderr := opts.Stdin, opts.Stdout, opts.Stderr
	if stdin == nil {
		stdin = os.Stdin
	}
	if stdout == nil {
		stdout = os.Stdout
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	conn := opts.Conn
	if conn == 0 {
		conn = 1
	}
	q := newQueue(opts.MaxPending)
	pumped := make(chan struct{})
	var rec Recorder = discard{}
	if opts.Recorder != nil {
		rec = opts.Recorder
	}
	go pump(q, rec, pumped)
	defer func() { q.close(); <-pumped }()

	eo := opts.Exec
	eo.Stderr = &stderrTee{w: stderr, q: q, key: streamKey{conn, FromStderr}}
	eo.Logger = nil
	p, err := acpexec.Start(ctx, cmd, &eo)
	if err != nil {
		return err
	}
	if opts.Started != nil {
		opts.Started(p)
	}
	stop := context.AfterFunc(ctx, func() { p.Close() })
	defer stop()

	go func() {
		pass(p, stdin, q, streamKey{conn, FromClient})
		p.CloseWrite()
	}()
	pass(stdout, p, q, streamKey{conn, FromAgent})
	select {
	case <-p.Exited():
	case <-ctx.Done():
	case <-time.After(acpexec.DefaultGrace):
		// The agent closed its output but lives on: Close ends it.
	}
	return p.Close()
}

// stderrTee writes the agent's standard error on and records its lines.
type stderrTee struct {
	w   io.Writer
	q   *queue
	key streamKey
}

// Write never fails: standard error that cannot be written on must not
// stop the agent.
func (t *stderrTee) Write(p []byte) (int, error) {
	t.q.record(t.key, p)
	t.w.Write(p)
	return len(p), nil
}

// discard is the recorder that keeps nothing.
type discard struct{}

func (discard) Record(Frame) {}
