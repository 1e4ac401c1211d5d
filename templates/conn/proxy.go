//go:build ignore

package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
)

// A Proxy is a component of a proxy chain: it sits between a client and
// an agent, talking to both through a conductor, which starts it and
// drives it over one stream. Everything it does not handle it forwards:
// requests, notifications, responses and errors from the client to its
// successor (the next proxy or the agent) and back, in order, with their
// ids mapped, their params, results and error data as the bytes received.
// Its hooks see the messages on their way and may edit, answer or drop
// them, and call either side themselves.
//
// A Proxy speaks both dialects of conductor without being told which:
// the schema's, which starts a component with "proxy/initialize" and
// wraps what goes to and comes from the successor in "proxy/successor",
// and the older one of @thinkwell/conductor, which sends "initialize"
// with "_meta": {"proxy": true}, expects that mark back in the result, and
// wraps in "_proxy/successor/request" and "_proxy/successor/notification".
//
// The proxy side does not need the unstable proxy types: it reads and
// writes the envelopes itself, so it builds without build tags.
type Proxy struct {
	// ToAgent, if set, sees each request and notification from the client
	// before it goes to the successor. It may edit the message, answer a
	// request (ProxyMessage.Answer), or drop a notification; an error
	// answers a request (an *Error as it is, any other -32603) and drops a
	// notification. The messages of a direction are seen one at a time, in
	// order; a hook may wait for a call of its own (CallAgent, CallClient)
	// without stalling the proxy.
	ToAgent func(ctx context.Context, m *ProxyMessage) error
	// ToClient, if set, does the same for each request and notification
	// from the successor before it goes to the client.
	ToClient func(ctx context.Context, m *ProxyMessage) error
	// Initialized, if set, sees the successor's initialize result and
	// returns the proxy's own, which must keep its protocolVersion.
	// Without it, the successor's result is the proxy's, as received (with
	// the proxy mark that @thinkwell/conductor expects added).
	Initialized func(ctx context.Context, result json.RawMessage) (json.RawMessage, error)
	// MaxMessageBytes is the length of the longest line read; 0 is the
	// connections' default.
	MaxMessageBytes int
	// Logger, if set, logs what cannot be answered, such as a hook's error
	// on a notification.
	Logger *slog.Logger

	mu        sync.Mutex // for w, pending and the ids
	w         io.Writer
	wbuf      []byte
	wpend     []byte // the messages gathered while batching
	batching  bool   // the reader routes lines it has read: writes gather (see write)
	pending   map[int64]*proxyPending
	byIn      map[string]int64 // an inbound request's id -> the id it was forwarded under
	nextID    int64
	err       error
	thinkwell atomic.Bool // the conductor speaks the _proxy/successor dialect
	ctx       context.Context
	pumps     [2]*proxyPump  // toAgent, toClient
	hooks     sync.WaitGroup // the Initialized hook
}

// proxyPending is a request the proxy sent and waits the answer of: one it
// forwards (answered to from, under inID) or one of its own (reply).
type proxyPending struct {
	inID       string // the forwarded request's id as received
	toAgent    bool   // the request went to the successor
	initialize bool   // the request is the forwarded initialize
	reply      chan proxyReply
}

type proxyReply struct {
	result json.RawMessage
	err    error
}

// Serve runs the proxy on the stream of its conductor, reading from r and
// writing to w, until r ends (it returns nil) or ctx ends (it returns
// ctx.Err(), closing r if it is an io.Closer). A Proxy serves one stream.
func (p *Proxy) Serve(ctx context.Context, w io.Writer, r io.Reader) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p.mu.Lock()
	if p.w != nil {
		p.mu.Unlock()
		return errors.New("acp: a Proxy serves one stream")
	}
	p.w, p.ctx = w, ctx
	p.pending, p.byIn = map[int64]*proxyPending{}, map[string]int64{}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for i, hook := range [2]func(context.Context, *ProxyMessage) error{p.ToAgent, p.ToClient} {
		if hook != nil {
			p.pumps[i] = newProxyPump()
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.pumps[i].run(ctx, p)
			}()
		}
	}
	stop := context.AfterFunc(ctx, func() {
		if c, ok := r.(io.Closer); ok {
			_ = c.Close()
		}
	})
	err := p.read(r)
	stop()
	cancel()
	for _, q := range p.pumps {
		if q != nil {
			q.close()
		}
	}
	p.fail(fmt.Errorf("%w: the conductor's stream ended", ErrConnectionClosed))
	wg.Wait()
	p.hooks.Wait()
	if ctxErr := context.Cause(ctx); err != nil && ctxErr != nil && ctxErr != context.Canceled {
		return ctxErr
	}
	return err
}

// read reads and routes the lines of r until it ends.
func (p *Proxy) read(r io.Reader) error {
	max := p.MaxMessageBytes
	if max == 0 {
		max = defaultMaxMessageBytes
	} else if max < 0 {
		max = 1 << 62
	}
	lr := lineReader{r: r, max: max}
	defer lr.release()
	defer p.endBatch()
	var reading, over atomic.Bool
	batching := false
	for {
		if batching && (lr.skipping || bytes.IndexByte(lr.buf[lr.start:lr.end], '\n') < 0) {
			// Next reads from r, and may wait: what gathered goes out first.
			p.endBatch()
			batching = false
		}
		line, tooLong, err := lr.next(&reading, &over)
		if err == nil && !batching {
			p.mu.Lock()
			p.batching, batching = true, true
			p.mu.Unlock()
		}
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			if p.ctx.Err() != nil {
				return p.ctx.Err()
			}
			return fmt.Errorf("acp: proxy: reading: %w", err)
		case tooLong:
			lr.skipping = true
			id, _, response := peekID(line)
			if id != nil && !response {
				p.writeError(string(id), NewInvalidRequestError(map[string]string{"details": "the message is longer than the limit"}))
			}
		default:
			p.line(line)
		}
	}
}

// endBatch writes the messages gathered while the reader routed the lines
// it had read.
func (p *Proxy) endBatch() {
	p.mu.Lock()
	p.flush()
	p.mu.Unlock()
}

// fail ends the proxy's own calls that wait, with err.
func (p *Proxy) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.err = err
	for id, pc := range p.pending {
		if pc.reply != nil {
			pc.reply <- proxyReply{err: err}
		}
		delete(p.pending, id)
	}
}

// The methods of the two dialects.
const (
	proxyInitialize          = "proxy/initialize"
	proxySuccessor           = "proxy/successor"
	proxySuccessorRequest    = "_proxy/successor/request"
	proxySuccessorNotify     = "_proxy/successor/notification"
	proxyCancelRequestMethod = "$/cancel_request"
)
