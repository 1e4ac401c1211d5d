package acpcheck

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/acpgen/acpgen/acpexec"
	"github.com/acpgen/acpgen/acphttp"
)

// A Target is the agent under test. The kit opens several connections to
// it in a run (one per protocol version and a few for negotiation and
// shutdown); for a command, each connection is a process of its own.
type Target interface {
	String() string
	Open(ctx context.Context) (Conn, error)
}

// A Conn is one connection to the agent under test: its messages are read
// from it and the client's written to it, one per line.
type Conn interface {
	io.Reader
	io.Writer
	// CloseInput ends the client's side: EOF on the agent's stdin, or the
	// end of the network connection.
	CloseInput() error
	// Exited reports whether the agent's process ended within d (after
	// CloseInput); ok is false for a connection without a process.
	Exited(d time.Duration) (exited, ok bool)
	// Stop ends the agent's process, if any, and reaps it; it never blocks
	// for more than a few seconds.
	Stop()
	// Stderr returns the last of what the agent wrote to stderr.
	Stderr() string
}

// A CommandTarget starts the agent as a command speaking over its stdin
// and stdout, supervised by acpexec: in a process group of its own, its
// stderr kept for the report, ended by its id.
type CommandTarget struct {
	Path string
	Args []string
	Env  []string // nil: the kit's own environment
	Dir  string
	// Make, when set, makes the command instead of exec.Command: a
	// sandbox's Command, say, which runs it with no network.
	Make func(name string, args ...string) *exec.Cmd
}

// Command returns the target that runs name with args.
func Command(name string, args ...string) *CommandTarget {
	return &CommandTarget{Path: name, Args: args}
}

func (c *CommandTarget) String() string {
	return strings.Join(append([]string{c.Path}, c.Args...), " ")
}

// Open starts the command.
func (c *CommandTarget) Open(ctx context.Context) (Conn, error) {
	var cmd *exec.Cmd
	if c.Make != nil {
		cmd = c.Make(c.Path, c.Args...)
	} else {
		cmd = exec.Command(c.Path, c.Args...)
		cmd.Env = c.Env
		cmd.Dir = c.Dir
	}
	p := &process{}
	// The kit measures the exit after EOF itself; Close then only has to
	// end what is left, quickly.
	proc, err := acpexec.Start(ctx, cmd, &acpexec.Options{Stderr: &p.stderr, Grace: 100 * time.Millisecond, TermGrace: time.Second})
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", c, err)
	}
	p.proc = proc
	return p, nil
}

// process is a Conn over a started command.
type process struct {
	proc   *acpexec.Process
	stderr tail
	stop   sync.Once
}

func (p *process) Read(b []byte) (int, error)  { return p.proc.Read(b) }
func (p *process) Write(b []byte) (int, error) { return p.proc.Write(b) }
func (p *process) CloseInput() error           { return p.proc.CloseWrite() }
func (p *process) Stderr() string              { return p.stderr.String() }

func (p *process) Exited(d time.Duration) (bool, bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.proc.Exited():
		return true, true
	case <-t.C:
		return false, true
	}
}

// Stop ends the process group (acpexec's Close: input closed, SIGTERM,
// SIGKILL) and reaps the agent.
func (p *process) Stop() {
	p.stop.Do(func() { _ = p.proc.Close() })
}

// tail keeps the last 16 KiB written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > 16<<10 {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-16<<10:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// A URLTarget reaches an agent served over Streamable HTTP (http, https)
// or WebSocket (ws, wss) with acphttp's client.
type URLTarget struct {
	URL     string
	Options *acphttp.ClientOptions
}

func (u *URLTarget) String() string { return u.URL }

// Open dials the endpoint. The connection opens on the first message, the
// initialize request, as the transport has it.
func (u *URLTarget) Open(ctx context.Context) (Conn, error) {
	t, err := acphttp.Dial(ctx, u.URL, u.Options)
	if err != nil {
		return nil, err
	}
	return &remoteConn{t: t}, nil
}

type remoteConn struct {
	t    *acphttp.Transport
	once sync.Once
}

func (r *remoteConn) Read(b []byte) (int, error)  { return r.t.Read(b) }
func (r *remoteConn) Write(b []byte) (int, error) { return r.t.Write(b) }
func (r *remoteConn) CloseInput() error {
	var err error
	r.once.Do(func() { err = r.t.Close() })
	return err
}
func (r *remoteConn) Exited(time.Duration) (bool, bool) { return false, false }
func (r *remoteConn) Stop()                             { _ = r.CloseInput() }
func (r *remoteConn) Stderr() string                    { return "" }
