package acpconductor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/acpgen/acpgen/acpexec"
)

// Options tune Run. The zero value is ready to use.
type Options struct {
	// Proxy runs the chain as a proxy: its peer is a conductor that sends
	// proxy/initialize, every component is a proxy, and what the last one
	// sends its successor goes to the peer in proxy/successor.
	Proxy bool
	// Stderr receives the components' standard error, line by line;
	// os.Stderr when nil.
	Stderr io.Writer
	// WireLog, when set, receives every message of every hop as a JSON
	// line (see the package documentation).
	WireLog io.Writer
	// Grace and TermGrace are acpexec.Options' for every component.
	Grace, TermGrace time.Duration
	// MCPStdioCommand is the command, and its first arguments, that runs
	// "acpconductor mcp-stdio" (Main with those arguments): with the
	// bridge of MCP over ACP, an agent that takes stdio MCP servers but
	// not http ones gets each bridged server as a "stdio" entry that runs
	// it, with the server's URL added. Main sets it to its own program;
	// when it is empty, such an agent gets the "acp" entries unchanged.
	MCPStdioCommand []string
}

// ComponentError is a component that ended while the chain ran.
type ComponentError struct {
	Name   string           // as in "proxy 1 (./proxy -inject x)" or "agent (./agent)"
	Pid    int              // its process id
	State  *os.ProcessState // how it ended, nil when it closed its output but still ran
	Stderr []string         // the last lines of its standard error
}

func (e *ComponentError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, pid %d, ", e.Name, e.Pid)
	if e.State != nil {
		fmt.Fprintf(&b, "exited (%s)", e.State)
	} else {
		b.WriteString("closed its output")
	}
	if n := len(e.Stderr); n > 0 {
		fmt.Fprintf(&b, "; its last line of standard error: %s", e.Stderr[n-1])
	}
	return b.String()
}

// peer is one end the conductor talks to: its peer upstream (index 0)
// or a component (1…n).
type peer struct {
	name    string
	index   int              // 0 upstream, i for the i-th component
	proc    *acpexec.Process // nil for the peer upstream
	out     *outbox
	logIn   func([]byte)
	logOut  func([]byte)
	nextID  int64
	pending map[int64]origin  // the requests the conductor sent it, by id
	sent    map[string]target // the requests it sent, by their id, for $/cancel_request
	// batching and touched belong to the peer's reader: it routes lines
	// it has buffered, and the outboxes it queued to without waking
	// their writers.
	batching bool
	touched  []*outbox
}

// origin is the request a request the conductor sent stands for.
type origin struct {
	from  *peer
	id    []byte
	reply chan<- *message // set for a request of the conductor's own, which gets the answer
}

// target is where the conductor sent a request.
type target struct {
	to *peer
	id int64
}

// chain is one run of the components for one peer upstream.
type chain struct {
	opts    Options
	mu      sync.Mutex // guards the peers' ids and maps, and orders routing
	peers   []*peer    // [0] upstream, [1…n] the components
	ended   chan error // a reader's end, the first one decides
	closing atomic.Bool
	mcp     *mcpBridge // bridges "acp" MCP servers for the agent; nil in proxy mode or without the feature
}

// Run starts the components (each a command and its arguments; the last
// is the agent, or, with Options.Proxy, a proxy too), presents them as
// one agent to the peer that writes to in and reads from out, and routes
// the chain's messages until in ends (Run returns nil), a component ends
// (a *ComponentError), or ctx ends. Every component is ended before Run
// returns: its input closed, then SIGTERM, then SIGKILL to its process
// group (package acpexec).
func Run(ctx context.Context, components [][]string, in io.Reader, out io.Writer, opts *Options) error {
	if len(components) == 0 {
		return errors.New("acpconductor: no component: give at least the agent's command")
	}
	c := &chain{ended: make(chan error, len(components)+1)}
	if opts != nil {
		c.opts = *opts
	}
	if c.opts.Stderr == nil {
		c.opts.Stderr = os.Stderr
	}
	var wl *wireLog
	if c.opts.WireLog != nil {
		wl = &wireLog{w: c.opts.WireLog}
	}
	upName := "client"
	if c.opts.Proxy {
		upName = "conductor"
	}
	up := c.newPeer(upName, 0, wl)
	c.peers = append(c.peers, up)
	if !c.opts.Proxy {
		c.mcp = newMCPBridge(c)
	}
	defer c.stop()
	for i, args := range components {
		if len(args) == 0 {
			return errEmpty
		}
		p := c.newPeer(c.componentName(i, len(components), args), i+1, wl)
		cmd := exec.Command(args[0], args[1:]...)
		dieWithConductor(cmd)
		proc, err := acpexec.Start(ctx, cmd, &acpexec.Options{
			Stderr: c.opts.Stderr, Grace: c.opts.Grace, TermGrace: c.opts.TermGrace,
		})
		if err != nil {
			return fmt.Errorf("starting %s: %w", p.name, err)
		}
		p.proc = proc
		c.peers = append(c.peers, p)
	}
	go up.out.run(out, up.logOut)
	go c.read(up, in)
	for _, p := range c.peers[1:] {
		go p.out.run(p.proc, p.logOut)
		go c.read(p, p.proc)
	}
	select {
	case err := <-c.ended:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *chain) componentName(i, n int, args []string) string {
	cmd := strings.Join(args, " ")
	if i == n-1 && !c.opts.Proxy {
		return "agent (" + cmd + ")"
	}
	return "proxy " + strconv.Itoa(i+1) + " (" + cmd + ")"
}

func (c *chain) newPeer(name string, index int, wl *wireLog) *peer {
	p := &peer{name: name, index: index, out: newOutbox(), pending: map[int64]origin{}, sent: map[string]target{}}
	p.logIn, p.logOut = wl.hop(name)
	return p
}
