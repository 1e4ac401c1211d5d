package acphttp

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
)

// ClientOptions configures a client transport.
type ClientOptions struct {
	// Header is sent with every request of the transport, such as an
	// Authorization header.
	Header http.Header
	// HTTPClient sends the requests; nil means a client of
	// http.DefaultTransport's settings that keeps up to 64 idle connections
	// per host. When its
	// Jar is nil, the transport keeps the cookies the server sets (for
	// load-balancer affinity) in a cookie jar of its own, for its life.
	HTTPClient *http.Client
	// MaxMessageBytes bounds one message from the agent; zero means
	// DefaultMaxMessageBytes.
	MaxMessageBytes int
	// Reconnect, when set, makes the transport reconnect after a drop
	// and resume its streams where the server's are resumable: see
	// Reconnect. Nil fails the transport on a drop.
	Reconnect *Reconnect
}

// defaultClient is the HTTP client of transports without one: that of
// http.DefaultTransport, but keeping more idle connections per host, as a
// Streamable HTTP client POSTs to one host while its streams hold other
// connections.
var defaultClient = sync.OnceValue(func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: t}
})

// client returns the HTTP client of o, with a cookie jar.
func (o *ClientOptions) client() *http.Client {
	hc := o.HTTPClient
	if hc == nil {
		hc = defaultClient()
	}
	if hc.Jar != nil {
		return hc
	}
	c := *hc
	c.Jar, _ = cookiejar.New(nil)
	return &c
}

// maxMessage returns the MaxMessageBytes of o or its default.
func (o *ClientOptions) maxMessage() int {
	if o.MaxMessageBytes > 0 {
		return o.MaxMessageBytes
	}
	return DefaultMaxMessageBytes
}

// Transport is the client side of one ACP connection over the network:
// the agent's messages are read from it and the client's written to it,
// one per line, as NewClientSideConnection(client, t, t) of a generated
// package takes them. When the transport fails or closes, Read returns
// why, which fails the connection's pending calls with that reason.
type Transport struct {
	impl interface {
		send(msg []byte) error
		close() error
		connectionID() string
	}
	in queue

	wmu   sync.Mutex
	lines lineBuffer // the client's unfinished line, under wmu
}

// Dial connects to the ACP endpoint at url with the profile its scheme
// names: Streamable HTTP for http and https, WebSocket for ws and wss.
func Dial(ctx context.Context, url string, opts *ClientOptions) (*Transport, error) {
	switch {
	case strings.HasPrefix(url, "http://"), strings.HasPrefix(url, "https://"):
		return DialHTTP(ctx, url, opts)
	case strings.HasPrefix(url, "ws://"), strings.HasPrefix(url, "wss://"):
		return DialWebSocket(ctx, url, opts)
	}
	return nil, fmt.Errorf("acphttp: %q is not an http, https, ws or wss URL", url)
}

// ConnectionID returns the Acp-Connection-Id the server gave the
// connection, or "" before it has.
func (t *Transport) ConnectionID() string { return t.impl.connectionID() }

// Read reads the agent's messages, one per line: as many of those queued
// as p holds. Once the transport has failed it returns why; once it is
// closed, ErrClosed.
func (t *Transport) Read(p []byte) (int, error) { return t.in.read(p) }

// Write sends the client's messages, one per line, each when its line is
// complete; it returns once the server has taken them.
func (t *Transport) Write(p []byte) (int, error) {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	_, err := t.lines.split(p, math.MaxInt, t.impl.send)
	if err != nil {
		// A write cut short because the transport failed fails for the
		// transport's reason.
		if reason := t.in.reason(); reason != nil {
			err = reason
		}
		return 0, err
	}
	return len(p), nil
}

// Close ends the connection (with DELETE over Streamable HTTP, a close
// frame over WebSocket) and returns once the transport's goroutines have
// ended.
func (t *Transport) Close() error { return t.impl.close() }

// queue holds the agent's messages, each followed by a newline, until Read
// takes them: one buffer, which Read copies from in bulk, rather than a
// message at a time. The streams that fill it wait while it holds
// queueBound messages; messages the transport makes itself never wait.
type queue struct {
	mu      sync.Mutex
	buf     []byte // the messages queued, from off
	off     int
	n       int // the newlines in buf[off:]: the messages, the one Read has begun included
	err     error
	changed chan struct{} // closed and replaced on a change, while waiting > 0
	waiting int           // the callers waiting on changed
}

const queueBound = 64

// idleQueueBytes is the capacity past which an emptied queue lets its
// buffer go, so that an idle connection does not keep a burst's.
const idleQueueBytes = 4 << 10

func (q *queue) init() { q.changed = make(chan struct{}) }

// broadcastLocked wakes the callers waiting for a change, if any: a
// message that nobody waits for costs no channel.
func (q *queue) broadcastLocked() {
	if q.waiting == 0 {
		return
	}
	close(q.changed)
	q.changed = make(chan struct{})
}

// put queues a copy of msg, a JSON value on one line, waiting while the
// queue is full unless now is set; it reports whether it queued it (not
// once ctx has ended or the queue has failed).
func (q *queue) put(ctx context.Context, msg []byte, now bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for !now && q.err == nil && q.n >= queueBound {
		changed := q.changed
		q.waiting++
		q.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
		}
		q.mu.Lock()
		q.waiting--
		if ctx.Err() != nil {
			return false
		}
	}
	if q.err != nil {
		return false
	}
	q.buf = append(q.buf, msg...)
	q.buf = append(q.buf, '\n')
	q.n += 1 + bytes.Count(msg, []byte{'\n'}) // none, but for text that is not JSON
	q.broadcastLocked()
	return true
}

// read copies the queued messages into p, as many as it holds, waiting
// until there is one; or returns the error the queue failed with.
func (q *queue) read(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.n == 0 && q.err == nil {
		changed := q.changed
		q.waiting++
		q.mu.Unlock()
		<-changed
		q.mu.Lock()
		q.waiting--
	}
	if q.err != nil {
		return 0, q.err
	}
	n := copy(p, q.buf[q.off:])
	q.n -= bytes.Count(p[:n], []byte{'\n'})
	q.off += n
	if q.off == len(q.buf) {
		q.off = 0
		q.buf = q.buf[:0]
		if cap(q.buf) > idleQueueBytes {
			q.buf = nil
		}
	}
	q.broadcastLocked()
	return n, nil
}

// reason returns the error the queue failed with, or nil.
func (q *queue) reason() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.err
}

// fail ends the queue with err, once; it reports whether this call did.
func (q *queue) fail(err error) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil {
		return false
	}
	q.err, q.buf, q.off, q.n = err, nil, 0, 0
	q.broadcastLocked()
	return true
}
