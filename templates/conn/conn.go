//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
)

// The connection runtime: one JSON-RPC 2.0 message per line in each
// direction (the ACP stdio transport). Inbound requests are served each on a
// goroutine of its own; inbound notifications are handled one at a time, in
// arrival order, before the next line is read, so a handler of a
// notification must not wait for the answer to an outbound call. Every
// message goes out in one Write, and writes never interleave.

// ErrConnectionClosed is the error, wrapped with the reason, that calls
// return once the connection has ended; errors.Is finds it.
var ErrConnectionClosed = errors.New("acp: connection closed")

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

// route serves one inbound method: it calls impl's handler with the params,
// decoded into the method's params type, or returns errNoHandler when impl
// does not implement the method's optional interface.
type route func(ctx context.Context, impl any, params inParams) (any, error)

// inParams are the params of an inbound call, decoded as the line was read.
type inParams struct {
	value any   // a new value of the params type, or a json.RawMessage
	err   error // the params do not fit their type
}

var errNoHandler = errors.New("no handler for the method")

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

	ctx    context.Context // ends with the connection: the context of inbound calls
	cancel context.CancelFunc
	done   chan struct{} // closed when the connection ends

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

// Err returns why the connection ended, wrapping ErrConnectionClosed, or nil
// while it is open.
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

// ExtMethod sends the request method with params, written as JSON (nil for
// none), and returns the raw result: for extension methods ("_" prefix) and
// any other method without a typed call. An error response is an *Error.
func (c *connection) ExtMethod(ctx context.Context, method string, params any) (json.RawMessage, error) {
	v, err := c.request(ctx, method, "", params)
	if err != nil {
		return nil, err
	}
	raw, _ := v.(json.RawMessage)
	return raw, nil
}

// ExtNotification sends the notification method with params, written as
// JSON (nil for none).
func (c *connection) ExtNotification(ctx context.Context, method string, params any) error {
	return c.notify(ctx, method, params)
}

// read handles the lines of r until it ends, or the connection does, then
// ends the connection; when r parks the reader (see parker), it returns
// at once, and the goroutine that r's resume starts reads on.
func (c *connection) read() {
	if c.readLines() {
		return
	}
	c.lr.release()
	close(c.readerDone)
}

// readLines handles the lines of r until the connection ends, or r parks
// the reader, which it reports.
func (c *connection) readLines() (parked bool) {
	lr := &c.lr
	for {
		line, tooLong, err := lr.next(&c.reading, &c.over)
		switch {
		case err == errParked:
			return true
		case err == errOutboxClosed:
			return false
		case err == io.EOF:
			// What is queued still goes out: the peer may read on.
			c.flushing.Store(true)
			c.end(errors.New("the peer closed the connection"))
			return false
		case err != nil:
			c.end(fmt.Errorf("reading: %w", err))
			return false
		case tooLong:
			if c.wire != nil {
				c.wire.log(true, line)
			}
			c.tooLong(line)
			lr.skipping = true // next reads past the rest of it first
		default:
			if c.wire != nil {
				c.wire.log(true, line)
			}
			if !c.line(line) {
				return false
			}
		}
	}
}

// end ends the connection for the reason err, once: pending outbound calls
// fail, inbound calls see their context cancelled, and the writer stops.
func (c *connection) end(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = fmt.Errorf("%w: %v", ErrConnectionClosed, err)
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

// tooLong answers a line longer than the limit, of which prefix is the
// start: a response fails its call, a request whose id can be read is
// answered -32600, and anything else -32700 with id null.
func (c *connection) tooLong(prefix []byte) {
	details := map[string]string{"details": "the message is longer than the limit of " + strconv.Itoa(c.cfg.limits.MaxMessageBytes) + " bytes"}
	id, response := peekID(prefix)
	if id != nil && idLength(id) > c.cfg.limits.MaxIDLength {
		id = nil
	}
	switch {
	case id != nil && response:
		if r, ok := c.calls.takeKey(id); ok {
			r.reply <- reply{err: fmt.Errorf("acp: the response to %s is longer than the limit of %d bytes", r.method, c.cfg.limits.MaxMessageBytes)}
		}
	case id != nil:
		c.sendError(string(id), NewInvalidRequestError(details), sendQueue)
	default:
		c.sendError("", withData(NewParseError(), details), sendQueue)
	}
}

// line handles one line: a request, a notification or a response. It
// returns false once the connection has ended.
func (c *connection) line(line []byte) bool {
	m, err := parseLine(line, c.cfg.limits.MaxIDLength, &c.calls)
	switch {
	case err != nil:
		if !m.response {
			c.sendError(string(m.id), err, sendQueue)
		}
	case m.empty, m.response && (m.id == nil || isNull(m.id)):
		// Blank lines, and responses to no request (an error the peer could
		// not tie to a request of ours), need nothing.
	case m.method != "" && c.init != nil && !c.admit(&m):
		// Held back until initialize has been answered.
	case m.method != "" && m.id != nil:
		return c.serve(&m)
	case m.method != "":
		c.notification(&m)
	default:
		c.response(&m)
	}
	return true
}

// admit asks the initialization gate whether the inbound request or
// notification m may be handled, and answers a request that may not.
func (c *connection) admit(m *lineMessage) bool {
	ok, rpcErr := c.init.admit(m)
	if rpcErr != nil {
		c.sendError(string(m.id), rpcErr, sendQueue)
	}
	return ok
}

// notification handles an inbound notification before the next line.
func (c *connection) notification(m *lineMessage) {
	if m.method == MethodCancelRequest {
		c.cancelServing(m.params.raw)
		return
	}
	// A notification has no answer: its handler's errors have nowhere to go.
	_, _ = c.handle(c.ctx, c.notifications, "", m.method, inParams{value: m.params.value, err: m.params.err})
}

// handle calls the route of method, or the extension handler, through the
// middleware; key is a request's id as received, "" for a notification. A
// panic in the handler, or a middleware, is logged and becomes an internal
// error without data: its text and stack stay in the process.
func (c *connection) handle(ctx context.Context, routes map[string]route, key, method string, params inParams) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.cfg.logger.Error("acp: a handler panicked", "method", method, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = NewInternalError(nil)
		}
	}()
	if c.mw != nil {
		return c.mw(ctx, &callInfo{method: method, key: key, inbound: true, request: key != "",
			routes: routes, params: params.value, paramErr: params.err})
	}
	return c.route(ctx, routes, method, key != "", params)
}

// route calls the route of method, or the extension handler.
func (c *connection) route(ctx context.Context, routes map[string]route, method string, request bool, params inParams) (any, error) {
	if r := routes[method]; r != nil {
		return r(ctx, c.impl, params)
	}
	if len(method) > 1 && method[0] == '_' {
		raw, _ := params.value.(json.RawMessage)
		if request {
			if h, ok := c.impl.(ExtMethodHandler); ok {
				return h.ExtMethod(ctx, method, raw)
			}
		} else if h, ok := c.impl.(ExtNotificationHandler); ok {
			return nil, h.ExtNotification(ctx, method, raw)
		}
	}
	return nil, errNoHandler
}

// cancelServing cancels the context of the inbound request that the params
// of a $/cancel_request name, by its id as received.
func (c *connection) cancelServing(params []byte) {
	var id []byte
	_ = forMembers(params, func(name, value []byte) {
		if string(name) == "requestId" {
			id = value
		}
	})
	if id == nil {
		return
	}
	c.mu.Lock()
	ctx := c.serving[string(id)]
	c.mu.Unlock()
	if ctx != nil && (answerCancelled == nil || !answerCancelled(c, string(id), ctx)) {
		ctx.cancel()
	}
}

// response hands a response to the outbound call that waits for it. The
// peer echoes the id as it was sent.
func (c *connection) response(m *lineMessage) {
	r, ok := c.calls.takeKey(m.id)
	switch {
	case !ok:
		// Cancelled, or never asked.
	case m.err != nil:
		r.reply <- reply{err: m.err}
	case m.result.err != nil:
		r.reply <- reply{err: fmt.Errorf("acp: result of %s: %w", r.method, m.result.err)}
	default:
		r.reply <- reply{result: m.result.value}
	}
}

// request sends an outbound request and waits for its result: decoded into
// the result type of typed, its method, or a json.RawMessage when typed is
// "". Cancelling ctx sends $/cancel_request for it and returns ctx.Err().
func (c *connection) request(ctx context.Context, method, typed string, params any) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	id := c.nextID.Add(1)
	if c.mw != nil {
		return c.mw(ctx, &callInfo{method: method, num: id, request: true, typed: typed, params: params})
	}
	return c.roundTrip(ctx, id, method, typed, params)
}

// roundTrip sends the request id and waits for its result, as request.
func (c *connection) roundTrip(ctx context.Context, id int64, method, typed string, params any) (any, error) {
	call := newPendingCall(typed)
	c.calls.track(id, call)
	// send fails once the connection has ended: end sets c.err before it
	// fails the tracked calls, so a call tracked too late for that fails here.
	// A caller whose context cannot end waits for the response anyway: it
	// may write its request itself.
	how := sendQueue
	if ctx.Done() == nil {
		how = sendDirect
	}
	err := c.send(ctx, how, func(b []byte) ([]byte, error) { return appendRequest(b, id, method, params) })
	if err != nil {
		if _, ok := c.calls.take(id); ok {
			call.release()
		}
		return nil, err
	}
	if ctx.Done() == nil { // a context that is never cancelled
		r := <-call.reply
		call.release()
		return r.result, r.err
	}
	select {
	case r := <-call.reply:
		call.release()
		return r.result, r.err
	case <-ctx.Done():
		if _, ok := c.calls.take(id); ok {
			call.release()
			// Not waiting for room: the caller returns now.
			_ = c.send(ctx, sendNoWait, func(b []byte) ([]byte, error) {
				b = append(b, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":`...)
				return append(strconv.AppendInt(b, id, 10), "}}"...), nil
			})
		}
		// Otherwise its reply is on its way: the entry is left to the
		// garbage collector.
		return nil, ctx.Err()
	}
}

// notify sends an outbound notification: it returns once the notification
// is queued, waiting for room in the queue until ctx ends.
func (c *connection) notify(ctx context.Context, method string, params any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if c.mw != nil {
		_, err := c.mw(ctx, &callInfo{method: method, params: params})
		return err
	}
	return c.notifyNow(ctx, method, params)
}

// notifyNow queues an outbound notification, as notify.
func (c *connection) notifyNow(ctx context.Context, method string, params any) error {
	return c.send(ctx, sendQueue, func(b []byte) ([]byte, error) { return appendNotification(b, method, params) })
}

// sendHow is how send hands a message to the writer.
type sendHow int8

const (
	// sendQueue queues the message, waiting for room until the context
	// ends; when nobody is writing, a goroutine is started that writes it.
	sendQueue sendHow = iota
	// sendNoWait queues the message only if there is room now.
	sendNoWait
	// sendDirect queues the message like sendQueue but, when nobody is
	// writing, the sender writes it itself, with whatever was queued
	// before it: for a sender that has nothing else to do until the
	// message is out and may wait in the Write, as long as the stall limit
	// allows (a request's caller whose context cannot end, a request's
	// handler answering it). It saves the hand-off to another goroutine.
	sendDirect
)

// send queues the message that build appends to a pooled buffer, and its
// newline, for the writer, as how says.
func (c *connection) send(ctx context.Context, how sendHow, build func([]byte) ([]byte, error)) error {
	if c.ended() {
		return c.Err()
	}
	buf := encodeBuffer()
	b, err := build((*buf)[:0])
	if err != nil {
		putBuffer(buf)
		return err
	}
	if c.wire != nil {
		c.wire.log(false, b)
	}
	*buf = append(b, '\n')
	if how == sendDirect {
		switch claimed, err := c.out.claim(len(*buf)); {
		case err != nil:
			putBuffer(buf)
			return c.Err()
		case claimed:
			c.writeOwn(buf)
			return nil
		}
	}
	claimed, err := c.out.put(ctx, c.done, buf, how != sendNoWait)
	switch {
	case err == errOutboxClosed:
		putBuffer(buf)
		return c.Err()
	case err != nil:
		putBuffer(buf)
		return err
	case !claimed:
	case how == sendDirect:
		c.drain(true)
	default:
		c.startWriter()
	}
	return nil
}

// sendError answers the request whose id, as received, is id (null when
// empty) with e.
func (c *connection) sendError(id string, e *Error, how sendHow) {
	_ = c.send(c.ctx, how, func(b []byte) ([]byte, error) { return appendErrorResponse(b, id, e), nil })
}

// call sends the request method and returns its result. R is a pointer to
// the method's result type, so that every method shares one instantiation.
func call[R any](ctx context.Context, c *connection, method string, params any) (R, error) {
	var none R
	v, err := c.request(ctx, method, method, params)
	if err != nil {
		return none, err
	}
	// A null result decodes to a nil R; a result kept raw is decoded here.
	if r, ok := v.(R); ok && any(r) != any(none) {
		return r, nil
	}
	v, err = newValue(none, v)
	if err != nil {
		return none, fmt.Errorf("acp: result of %s: %w", method, err)
	}
	return v.(R), nil
}

// serveRequest calls the handler of a request with its params; a nil
// result with a nil error is answered with the zero result. P and R are
// pointer types, so that every method shares one instantiation.
func serveRequest[P, R any](ctx context.Context, params inParams, h func(context.Context, P) (R, error)) (any, error) {
	var none R
	p, err := paramsOf[P](params)
	if err != nil {
		return nil, err
	}
	r, err := h(ctx, p)
	if err != nil {
		return nil, err
	}
	if any(r) == any(none) {
		return newValue(none, nil)
	}
	return r, nil
}

// serveNotification calls the handler of a notification with its params.
func serveNotification[P any](ctx context.Context, params inParams, h func(context.Context, P) error) (any, error) {
	p, err := paramsOf[P](params)
	if err != nil {
		return nil, err
	}
	return nil, h(ctx, p)
}

// paramsOf returns the params of an inbound call as a P, a pointer to the
// params type, or the invalid params error that names where they do not
// fit.
func paramsOf[P any](params inParams) (P, error) {
	var none P
	if params.err != nil {
		return none, invalidParams(params.err)
	}
	if p, ok := params.value.(P); ok && any(p) != any(none) {
		return p, nil
	}
	v, err := rawParams(none, params.value)
	if err != nil {
		return none, err
	}
	return v.(P), nil
}

// rawParams returns a new value of the params type that none, a nil
// pointer, points to, decoded from value, the raw JSON of params without a
// decoder of their own; any other value means the params are missing.
func rawParams(none, value any) (any, error) {
	if _, ok := value.(json.RawMessage); !ok {
		return nil, NewInvalidParamsError(map[string]string{"details": "params are missing"})
	}
	v, err := newValue(none, value)
	if err != nil {
		return nil, invalidParams(err)
	}
	return v, nil
}

// newValue returns a new value of the type that ptr, a pointer (nil or
// not), points to: decoded from v when v is raw JSON, else the zero value.
// It is the part of call, serveRequest and paramsOf that needs the type
// itself, off their usual path, and the copy that deepCopy decodes.
func newValue(ptr, v any) (any, error) {
	p := reflect.New(reflect.TypeOf(ptr).Elem()).Interface()
	if raw, ok := v.(json.RawMessage); ok {
		if err := decodeValid(raw, p); err != nil {
			return nil, err
		}
	}
	return p, nil
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
