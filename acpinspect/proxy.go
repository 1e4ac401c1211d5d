package acpinspect

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/acpgen/acpgen/acphttp"
)

// ProxyOptions tune a Proxy.
type ProxyOptions struct {
	// Target is the remote agent's endpoint: http:// or https:// for
	// Streamable HTTP, ws:// or wss:// for WebSocket.
	Target string
	// Recorder receives every message of every connection, in order, in
	// a goroutine of its own.
	Recorder Recorder
	// MaxPending bounds the bytes passed on but not yet recorded, as
	// TapOptions.MaxPending does.
	MaxPending int
	// Dial tunes the connections to the target (headers, such as a
	// credential the agent asks for).
	Dial *acphttp.ClientOptions
	// Server tunes the endpoint clients connect to (limits, the hosts and
	// pages it accepts).
	Server *acphttp.Options
}

// A Proxy is an ACP endpoint that stands in front of a remote agent: each
// connection a client opens to it, over Streamable HTTP or WebSocket (an
// acphttp.Server), is a connection to the target, opened with the profile
// the target's scheme names; each message is passed on whole, in order,
// and recorded.
type Proxy struct {
	*acphttp.Server
	target string
	dial   *acphttp.ClientOptions
	q      *queue
	pumped chan struct{}
	conns  atomic.Int64
	wg     sync.WaitGroup
	once   sync.Once
}

// NewProxy returns the proxy to opts.Target. Close it after shutting the
// server down, to hand the last messages to the recorder.
func NewProxy(opts ProxyOptions) (*Proxy, error) {
	t := opts.Target
	if !strings.HasPrefix(t, "http://") && !strings.HasPrefix(t, "https://") &&
		!strings.HasPrefix(t, "ws://") && !strings.HasPrefix(t, "wss://") {
		return nil, fmt.Errorf("acpinspect: the target %q is not an http, https, ws or wss URL", t)
	}
	p := &Proxy{target: t, dial: opts.Dial, q: newQueue(opts.MaxPending), pumped: make(chan struct{})}
	var rec Recorder = discard{}
	if opts.Recorder != nil {
		rec = opts.Recorder
	}
	go pump(p.q, rec, p.pumped)
	p.Server = acphttp.NewServer(p.connect, opts.Server)
	return p, nil
}

// proxyConn is a client's connection through the proxy.
type proxyConn struct{ done chan struct{} }

func (c *proxyConn) Done() <-chan struct{} { return c.done }

// connect opens the target connection of a client's connection and
// passes messages both ways until either side ends.
func (p *Proxy) connect(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
	t, err := acphttp.Dial(r.Context(), p.target, p.dial)
	if err != nil {
		return nil, &acphttp.StatusError{Code: http.StatusBadGateway, Text: "the inspected agent cannot be reached"}
	}
	id := p.conns.Add(1)
	c := &proxyConn{done: make(chan struct{})}
	p.wg.Add(2)
	go func() {
		defer p.wg.Done()
		pass(t, in, p.q, streamKey{id, FromClient})
		t.Close()
	}()
	go func() {
		defer p.wg.Done()
		defer close(c.done)
		pass(out, t, p.q, streamKey{id, FromAgent})
		t.Close()
	}()
	return c, nil
}

// Close waits for the connections' goroutines, which end when the server
// has shut down, and hands the last messages to the recorder.
func (p *Proxy) Close() {
	p.once.Do(func() {
		p.wg.Wait()
		p.q.close()
		<-p.pumped
	})
}
