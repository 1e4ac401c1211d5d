//go:build ignore

package acp

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// The fourth stage of a line's path: serving an inbound request, each on a
// goroutine of its own, as many at once as the limit allows, with a context
// that the peer can cancel (conn_context.go). handle calls the handler
// through the middleware and the method's route; answer hands the result,
// or the error, to send.

// serve answers an inbound request from a goroutine of its own, once one
// of the slots for requests served at once is free. An initialize is
// answered before the next request or notification is handled, so that a
// request sent right after it, without waiting for its result, finds the
// connection initialized; responses are read on meanwhile, so that its
// handler may wait for a call of its own (see conn_hold.go). It returns false
// once the connection has ended.
func (c *connection) serve(m *lineMessage) bool {
	if !c.slots.acquire(c.done) {
		return false
	}
	key := string(m.id)
	// Not a child of c.ctx: end cancels the requests being served itself.
	ctx := &requestContext{method: m.method, params: m.params.value, seq: c.requestsRead.Add(1)}
	initialize := c.init != nil && isInitialize(m.method)
	params := inParams{value: m.params.value, err: m.params.err}
	if c.mw != nil {
		params.raw = append([]byte(nil), m.params.raw...) // the line's buffer is read into again
	}
	if params.err != nil {
		c.dropAnswered(m.method, m.id, invalidParams(params.err))
	}
	var served chan struct{}
	if initialize {
		served = make(chan struct{})
	}
	c.mu.Lock()
	_, busy := c.serving[key]
	if ended := c.err != nil; ended || busy {
		c.mu.Unlock()
		c.slots.release()
		if busy {
			c.sendError(key, NewInvalidRequestError(map[string]string{"details": "a request with this id is already being served"}), sendQueue)
		}
		return !ended
	}
	if len(c.rules) > 0 && !initialize {
		if result := c.ruled(m.method, m.params.value); result != nil {
			c.mu.Unlock()
			c.slots.release()
			ctx.markAnswered()
			c.answer(ctx, key, m.method, false, result, nil, sendQueue)
			return true
		}
	}
	c.serving[key] = ctx
	c.handlers.Add(1)
	// Handed while c.mu is held: end closes c.work once c.err is set.
	j := job{ctx: ctx, key: key, method: m.method, params: params, served: served}
	handed := false
	select {
	case c.work <- j:
		handed = true
	default:
	}
	c.mu.Unlock()
	if handed {
		c.idle.handed.Add(1)
	} else {
		go c.worker(j)
	}
	c.initWait = served
	return true
}

// job is an inbound request to serve.
type job struct {
	ctx    *requestContext
	key    string // the id as received
	method string
	params inParams
	served chan struct{} // for an initialize, closed once it is answered
}

// worker serves j, then the requests handed to it while it waits.
func (c *connection) worker(j job) {
	for {
		c.serveRequest(j)
		if !c.waitIdle() {
			return
		}
		var ok bool
		j, ok = <-c.work
		c.idle.woken()
		if !ok || j.ctx == nil {
			return
		}
	}
}

// serveRequest runs the handler of one inbound request and answers it.
// served, if not nil, is closed once the answer is queued: an initialize,
// awaited by the reader, which must not wait for a write.
func (c *connection) serveRequest(j job) {
	ctx, key, method, params, served := j.ctx, j.key, j.method, j.params, j.served
	defer func() {
		ctx.cancel()
		c.slots.release()
		if served != nil {
			close(served)
		}
	}()
	var result any
	var err error
	if r := c.picked(method, params.value); r != nil {
		result = r // answered without its handler (answerWhile)
	} else {
		result, err = c.handle(ctx, c.requests, key, method, params)
	}
	initialize := served != nil
	if initialize && err == nil && initializeContract != nil && method == MethodInitialize {
		err = initializeContract(c.impl, result)
	}
	// The id is free again before the answer can reach the peer.
	c.mu.Lock()
	if c.serving[key] == ctx { // not answered early (answerEarly)
		delete(c.serving, key)
	}
	if initialize && err == nil {
		c.served = params.value
	}
	c.mu.Unlock()
	// The handler is done: Close does not wait for a write of its answer
	// that w blocks, beyond what it waits for any write.
	c.handlers.Done()
	hooks, first := ctx.markAnswered()
	if !first {
		return // answered early, with its cancelled result
	}
	how := sendDirect
	if initialize {
		how = sendQueue
	}
	c.answer(ctx, key, method, initialize, result, err, how)
	for _, f := range hooks {
		f()
	}
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
			routes: routes, params: params.value, paramErr: params.err, raw: params.raw})
	}
	return c.route(ctx, routes, method, key != "", params)
}

// answer sends the result of the request with this id, or its error. The
// gate learns how an initialize ends before its answer goes out.
func (c *connection) answer(ctx context.Context, id, method string, initialize bool, result any, err error, how sendHow) {
	if err == nil {
		encErr := c.send(c.ctx, how, func(b []byte) ([]byte, error) {
			b, err := appendResult(b, id, result)
			if err == nil && initialize {
				c.init.answered(true)
			}
			return b, err
		})
		if encErr == nil || c.Err() != nil {
			return
		}
		err = fmt.Errorf("encoding the result: %w", encErr)
	}
	if initialize {
		c.init.answered(false)
	}
	var rpcErr *Error
	switch {
	case errors.As(err, &rpcErr):
	case errors.Is(err, errNoHandler):
		rpcErr = NewMethodNotFoundError(method)
	case ctx.Err() != nil && c.ctx.Err() == nil:
		rpcErr = NewRequestCancelledError()
	default:
		rpcErr = NewInternalError(map[string]string{"details": err.Error()})
	}
	c.sendError(id, rpcErr, how)
}

// maxIdleWorkers is how many goroutines that served a request wait for the
// next one, instead of ending: a request then starts on a goroutine whose
// stack has already grown. They end once no request has come for a whole
// workerLinger: a connection that serves nothing has no worker left.
const (
	maxIdleWorkers = 4
	workerLinger   = 100 * time.Millisecond
)

// workerPool counts the idle workers, and ends them, with one timer for
// them all rather than one for each wait. A worker's coming and going is
// an atomic addition; the lock is for the timer.
type workerPool struct {
	n       atomic.Int32  // the idle workers
	armed   atomic.Bool   // the timer runs
	stopped atomic.Bool   // the connection has ended
	handed  atomic.Uint64 // the requests handed to idle workers

	mu    sync.Mutex
	timer *time.Timer
	seen  uint64 // handed when the timer was last armed
}

// waitIdle registers a worker that goes idle; it returns false when enough
// workers wait already, or the connection has ended.
func (c *connection) waitIdle() bool {
	p := &c.idle
	if p.n.Add(1) > maxIdleWorkers || p.stopped.Load() {
		p.n.Add(-1)
		return false
	}
	if !p.armed.Load() {
		p.mu.Lock()
		if !p.stopped.Load() && p.armed.CompareAndSwap(false, true) {
			p.seen = p.handed.Load()
			if p.timer == nil {
				p.timer = time.AfterFunc(workerLinger, c.endIdle)
			} else {
				p.timer.Reset(workerLinger)
			}
		}
		p.mu.Unlock()
	}
	return true
}

// woken records that an idle worker stopped waiting.
func (p *workerPool) woken() { p.n.Add(-1) }

// endIdle ends the idle workers if no request was handed to one for a
// whole workerLinger, and otherwise looks again after another.
func (c *connection) endIdle() {
	p := &c.idle
	p.mu.Lock()
	defer p.mu.Unlock()
	if h := p.handed.Load(); h != p.seen && !p.stopped.Load() {
		p.seen = h
		p.timer.Reset(workerLinger)
		return
	}
	// A job without a context tells a worker to end; sent, like the
	// requests, while c.mu is held and only before the connection ends.
	c.mu.Lock()
	for i := p.n.Load(); i > 0 && c.err == nil; i-- {
		select {
		case c.work <- job{}:
		default:
			i = 0 // none waits in the receive now
		}
	}
	c.mu.Unlock()
	p.armed.Store(false)
	if p.n.Load() > 0 && !p.stopped.Load() && p.armed.CompareAndSwap(false, true) {
		// A worker went idle meanwhile, and saw the timer armed.
		p.seen = p.handed.Load()
		p.timer.Reset(workerLinger)
		return
	}
	if !p.armed.Load() {
		p.timer = nil // a connection that serves nothing keeps no timer
	}
}

// stop stops the timer, once the connection has ended (and closed c.work,
// which ends the idle workers).
func (p *workerPool) stop() {
	p.mu.Lock()
	p.stopped.Store(true)
	if p.timer != nil {
		p.timer.Stop()
	}
	p.mu.Unlock()
}

// slots counts the inbound requests being served, up to max.
type slots struct {
	n       atomic.Int64
	max     int64
	waiting atomic.Bool   // the reader waits for a slot
	freed   chan struct{} // a slot was released while the reader waited
}

// acquire takes a slot, waiting until one is free or done is closed; it
// reports whether it took one. Only the reader calls it.
func (s *slots) acquire(done <-chan struct{}) bool {
	if s.n.Add(1) <= s.max {
		return true
	}
	s.n.Add(-1)
	if s.freed == nil {
		s.freed = make(chan struct{}, 1)
	}
	for {
		s.waiting.Store(true)
		if s.n.Add(1) <= s.max { // released before waiting was seen
			s.waiting.Store(false)
			return true
		}
		s.n.Add(-1)
		select {
		case <-s.freed:
		case <-done:
			s.waiting.Store(false)
			return false
		}
	}
}

// release gives a slot back, and wakes the reader if it waits for one.
func (s *slots) release() {
	s.n.Add(-1)
	if s.waiting.Load() {
		s.waiting.Store(false)
		select {
		case s.freed <- struct{}{}:
		default:
		}
	}
}
