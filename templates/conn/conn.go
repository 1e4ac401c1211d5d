//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// The connection runtime: one JSON-RPC 2.0 message per line in each
// direction (the ACP stdio transport). Inbound requests are served each on a
// goroutine of its own; inbound notifications are handled one at a time, in
// arrival order, before the next line is read, so a handler of a
// notification must not wait for the answer to an outbound call. Every
// message goes out in one Write, and writes never interleave.
//
// A line read takes one path through the files of the runtime, each call
// going on to the next stage and none back to an earlier one:
//
//   - conn_read.go reads the line (readLines, lineReader);
//   - conn_parse.go parses it into a lineMessage, decoding its payload into
//     its type as it goes (line, parseLine);
//   - conn_hold.go holds the requests and notifications that come while
//     an initialize is served, in order, until it is answered (hold);
//   - conn_dispatch.go hands the message on: an error is answered, a
//     response goes to its call, a notification to its handler, a request
//     to serve (dispatch);
//   - conn_serve.go serves a request on a worker goroutine (serve, worker,
//     handle), through the middleware (conn_middleware.go) to the method's
//     route (conn_route.go) and its handler, and answers it;
//   - conn_send.go queues the answer (send) in the outbox (conn_outbox.go),
//     and conn_write.go writes it (drain, writeOut).
//
// An outbound call starts in conn_call.go and takes the same way out,
// through the middleware to conn_send.go. This file holds what every stage
// shares: the connection, its making, and its end (end), which any stage
// may call when reading or writing fails.

// ErrConnectionClosed is the error, wrapped with the reason, that calls
// return once the connection has ended; errors.Is finds it.
var ErrConnectionClosed = errors.New("acp: connection closed")

// ErrPeerClosed is the cause, wrapped in Err's error beside
// ErrConnectionClosed, of a connection whose peer closed its end: the
// normal end of a connection that its peer ends. A program tells it from a
// failure with errors.Is; an input that knows why it ended (a process's
// exit) wraps that reason too.
var ErrPeerClosed = errors.New("the peer closed the connection")

// ExtMethodHandler is implemented by an Agent or Client that handles
// extension requests, whose method names start with "_". The result is
// written as Message.MarshalJSON writes a result (a json.RawMessage as is).
// Without it, an extension request is answered "method not found".
type ExtMethodHandler interface {
	ExtMethod(ctx context.Context, method string, params json.RawMessage) (any, error)
}

// ExtNotificationHandler is implemented by an Agent or Client that handles
// extension notifications. Without it, they are dropped.
type ExtNotificationHandler interface {
	ExtNotification(ctx context.Context, method string, params json.RawMessage) error
}

// connection is the runtime behind each side's connection type. One
// goroutine reads and dispatches the lines for as long as the connection
// lives; each inbound request is served on a goroutine of its own, which
// ends once it has answered; and the outbound messages are written by the
// goroutine that holds the writer role (see outbox), which exists only
// while there is something to write. The connection owns them all: they
// end with it.
type connection struct {
	impl          any
	requests      map[string]route
	notifications map[string]route
	init          *initGate // on the side that answers initialize: the agent's
	cfg           connConfig
	mw            Handler // the middleware around callThrough; nil without any
	wire          *wireLog

	r     io.Reader
	lr    lineReader // r's, used by the goroutine that reads
	w     io.Writer
	out   *outbox
	stall stallWatch
	slots slots      // for the inbound requests being served
	work  chan job   // hands a request to a worker that waits for one
	idle  workerPool // the workers that wait

	ctx       context.Context // ends with the connection: the context of inbound calls
	notifyCtx context.Context // ctx, marked as a notification handler's (see request)
	notifying atomic.Uint64   // odd while a notification's handler runs (see request)
	initWait  chan struct{}   // the reader's, or handHeld's: closed once the initialize being served is answered
	held      heldQueue       // the requests and notifications that wait for it
	cancel    context.CancelFunc
	done      chan struct{} // closed when the connection ends

	finished         chan struct{} // Done's: closed once the output is written, or given up, too
	finishOnce       sync.Once
	readerDone       chan struct{}
	reading, writing atomic.Bool // in a Read of r, in a Write to w
	flushing         atomic.Bool // Close was called, or r ended: what is queued is written
	over             atomic.Bool // the connection has ended: set before done is closed
	handlers         sync.WaitGroup
	closeR, closeW   sync.Once

	calls  callTracker  // outbound requests awaiting their responses
	nextID atomic.Int64 // the id of the last outbound request

	requestsRead atomic.Uint64 // inbound requests read so far (see arrived)

	mu      sync.Mutex
	err     error                      // why the connection ended, once it has
	serving map[string]*requestContext // inbound requests by id as received
	served  any                        // the params of the last initialize answered with a result
	picks   map[*answerPick]struct{}   // answerWhile's
	npicks  atomic.Int32               // len(picks), read without c.mu
	rules   []*answerRule              // inbound requests answered at once (see addAnswerRule)
}

// newConnection returns a connection that serves nothing yet: start starts
// it, once its implementation is set.
func newConnection(requests, notifications map[string]route, w io.Writer, r io.Reader, opts []ConnOption) *connection {
	ctx, cancel := context.WithCancel(context.Background())
	c := &connection{
		requests: requests, notifications: notifications, cfg: newConfig(opts),
		r: r, w: w, ctx: ctx, cancel: cancel, done: make(chan struct{}),
		finished: make(chan struct{}), readerDone: make(chan struct{}), work: make(chan job),
		serving: map[string]*requestContext{},
	}
	c.stall.c = c
	c.notifyCtx = context.WithValue(ctx, notifyingKey{}, c)
	c.mw = c.chain()
	c.wire = c.cfg.wire.start(c.cfg.logger)
	c.out = newOutbox(c.cfg.limits.MaxBufferedBytes)
	c.slots.max = int64(c.cfg.limits.MaxConcurrentRequests)
	if requests[MethodInitialize] != nil {
		c.init = new(initGate)
	}
	c.lr = lineReader{r: r, max: c.cfg.limits.MaxMessageBytes}
	if p, ok := r.(parker); ok {
		c.lr.parker, c.lr.resume = p, func() {
			if c.lr.woken() {
				go c.read()
			}
		}
	}
	return c
}

// start starts serving impl: the connection reads from here on.
func (c *connection) start(impl any) {
	c.impl = impl
	go c.read()
}

// Done returns a channel that is closed when the connection has ended: the
// peer closed its end, reading or writing failed or stalled, or Close was
// called. When the peer closed its end, or Close was called, the messages
// queued by then are written first (for at most the OutputStall limit).
func (c *connection) Done() <-chan struct{} { return c.finished }

// Err returns why the connection ended, wrapping ErrConnectionClosed and
// the cause (an input's error, which for a process may be its exit), or
// nil while it is open.
func (c *connection) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends the connection: pending outbound calls fail with
// ErrConnectionClosed and the contexts of the handlers being served are
// cancelled. The messages already queued are written first: a write that
// stays blocked for the OutputStall limit ends that, as it ends any
// connection (see Limits). Then r is closed if it is an io.Closer, which
// ends a Read in progress; w is left open (it may be the process's standard
// output), unless a write to it is stuck: a stalled connection closes w, as
// well as r, when they are io.Closers. Close returns once the connection's
// goroutines have ended: the reader, the one writing and the handlers, which
// must return once their context is cancelled. A Read of an r that is not
// an io.Closer, or a stuck Write to such a w, cannot be ended: Close does
// not wait for the goroutine blocked in it, which ends, without reading or
// writing more, as soon as that call returns. Close must not be called
// from a handler of the connection (it would wait for itself). It returns
// the error of closing r, and nil when called again.
func (c *connection) Close() error {
	c.flushing.Store(true)
	c.end(errors.New("the connection was closed"))
	_, wCloser := c.w.(io.Closer)
	if wCloser || !c.writing.Load() {
		<-c.finished
	}
	err := c.closeIO(true, false)
	_, rCloser := c.r.(io.Closer)
	if rCloser || !c.reading.Load() {
		<-c.readerDone
	}
	c.handlers.Wait()
	return err
}

// closeIO closes r and w, each once, when they are io.Closers: w only if it
// is not r.
func (c *connection) closeIO(r, w bool) error {
	var errs []error
	if rc, ok := c.r.(io.Closer); ok && r {
		c.closeR.Do(func() { errs = append(errs, rc.Close()) })
	}
	if wc, ok := c.w.(io.Closer); ok && w && any(c.w) != any(c.r) {
		c.closeW.Do(func() { errs = append(errs, wc.Close()) })
	}
	return errors.Join(errs...)
}

// end ends the connection for the reason err, once: pending outbound calls
// fail, inbound calls see their context cancelled, and the writer stops.
func (c *connection) end(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = fmt.Errorf("%w: %w", ErrConnectionClosed, err)
	for _, ctx := range c.serving {
		ctx.cancel()
	}
	c.mu.Unlock()
	idle, claimed := c.out.close(c.flushing.Load())
	// A call tracked after this sees c.err (see request).
	for _, r := range c.calls.takeAll() {
		r.reply <- reply{err: c.err}
	}
	c.cancel()
	c.over.Store(true)
	close(c.done)
	// No request is handed to a worker once c.err is set (see serve).
	close(c.work)
	c.idle.stop()
	switch {
	case claimed:
		c.startWriter() // it writes what is queued, then closes Done
	case idle:
		c.finish()
	}
}

// isInitialize reports whether method starts the connection: initialize,
// or the proxy/initialize a conductor sends a component of a proxy chain.
func isInitialize(method string) bool {
	return method == MethodInitialize || method == methodProxyInitialize
}

// methodProxyInitialize is "proxy/initialize", by name: its types are
// unstable, and the gate admits it under every build tag.
const methodProxyInitialize = "proxy/initialize"

// NewParseError returns the error that answers a line that is not JSON.
func NewParseError() *Error { return NewError(codeParseError, "Parse error") }

// NewInvalidRequestError returns the error that answers a message that is
// not a JSON-RPC request; data, if not nil, is its data.
func NewInvalidRequestError(data any) *Error {
	return withData(NewError(codeInvalidRequest, "Invalid request"), data)
}

// NewMethodNotFoundError returns the error that answers a request for a
// method that is not handled, with {"method": method} as data.
func NewMethodNotFoundError(method string) *Error {
	return withData(NewError(codeMethodNotFound, "Method not found"), map[string]string{"method": method})
}

// NewInvalidParamsError returns the error that answers a request whose params
// do not fit the method; data, if not nil, says where.
func NewInvalidParamsError(data any) *Error {
	return withData(NewError(codeInvalidParams, "Invalid params"), data)
}

// NewInternalError returns the error that answers a request whose handler
// failed; data, if not nil, is its data.
func NewInternalError(data any) *Error {
	return withData(NewError(codeInternalError, "Internal error"), data)
}

// NewRequestCancelledError returns the error that answers a request the
// caller cancelled.
func NewRequestCancelledError() *Error {
	return NewError(codeRequestCancelled, "Request cancelled")
}

// NewAuthRequiredError returns the error that answers a request made before
// the client authenticated.
func NewAuthRequiredError() *Error {
	return NewError(codeAuthenticationRequired, "Authentication required")
}

// NewResourceNotFoundError returns the error that answers a request for a
// resource, such as a file, that does not exist, with {"uri": uri} as data.
func NewResourceNotFoundError(uri string) *Error {
	return withData(NewError(codeResourceNotFound, "Resource not found"), map[string]string{"uri": uri})
}

// withData sets the data of e to data written as JSON, when there is data.
func withData(e *Error, data any) *Error {
	if data != nil {
		// Data is free-form JSON in some versions, a union in others.
		if raw, err := json.Marshal(data); err == nil {
			_ = json.Unmarshal(raw, &e.Data)
		}
	}
	return e
}

// invalidParams is the invalid params error of err, with the JSON path of
// a type error.
func invalidParams(err error) *Error {
	data := map[string]string{"details": err.Error()}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		data["path"] = te.Field
	}
	return NewInvalidParamsError(data)
}
