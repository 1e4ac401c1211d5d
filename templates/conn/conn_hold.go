//go:build ignore

package acp

import (
	"strconv"
	"sync"
	"sync/atomic"
)

// Between the second and third stages of a line's path, while an
// initialize is served: the requests and notifications that come meanwhile
// wait in a queue, in order, until it is answered, and the reader reads on,
// so that the handler of initialize may wait for the answer to a call of its
// own even when the peer sends requests or notifications before answering
// (as a proxy's successor may). Responses are never held. A goroutine of the
// connection hands the held messages on to dispatch once initialize is
// answered; it ends when the queue is empty, or with the connection.

// maxHeld is how many requests and notifications wait at most for an
// initialize to be answered; those that come beyond it, or beyond the
// limit of buffered bytes, are refused (see refuseHeld).
const maxHeld = 1024

// heldQueue holds the messages that wait for an initialize to be answered.
type heldQueue struct {
	mu     sync.Mutex
	held   []heldMessage // in the order read
	bytes  int           // the length of their params in all
	active atomic.Bool
	// active is set while messages wait or the goroutine that hands them on
	// runs: the reader holds every request and notification then, and c's
	// initWait is that goroutine's.
}

// holds reports whether the reader holds the requests and notifications it
// reads: while an initialize is served, or held ones still wait.
func (c *connection) holds() bool {
	if c.held.active.Load() {
		return true
	}
	if c.initWait == nil {
		return false
	}
	select {
	case <-c.initWait:
		c.initWait = nil
		return false
	default:
		return true
	}
}

// heldMessage is a message parsed with the error err, whose slices of the
// line are copies.
type heldMessage struct {
	m   lineMessage
	err *Error
}

// hold queues m, parsed with the error err, for handHeld, starting it if it
// is not running, or refuses m when the queue is full. What m holds of the
// line is copied: the line's buffer is read into again.
func (c *connection) hold(m *lineMessage, err *Error) {
	q := &c.held
	size := len(m.params.raw) + len(m.id)
	q.mu.Lock()
	if len(q.held) >= maxHeld || q.bytes+size > c.cfg.limits.MaxBufferedBytes {
		q.mu.Unlock()
		c.refuseHeld(m, err)
		return
	}
	h := heldMessage{m: *m, err: err}
	h.m.id = copyBytes(m.id)
	h.m.params.raw = copyBytes(m.params.raw)
	h.m.result = payload{}
	q.held = append(q.held, h)
	q.bytes += size
	start := !q.active.Load()
	q.active.Store(true)
	q.mu.Unlock()
	if start {
		go c.handHeld()
	}
}

// copyBytes returns a copy of b, nil for nil.
func copyBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

// handHeld hands the held messages on to dispatch, in order, each once no
// initialize is being served, until none is left or the connection ends.
func (c *connection) handHeld() {
	q := &c.held
	for {
		if c.initWait != nil {
			select {
			case <-c.initWait:
				c.initWait = nil
			case <-c.done:
				q.mu.Lock()
				q.held, q.bytes = nil, 0 // active stays set: the reader ends too
				q.mu.Unlock()
				return
			}
		}
		q.mu.Lock()
		if len(q.held) == 0 {
			q.held, q.bytes = nil, 0
			q.active.Store(false)
			q.mu.Unlock()
			return
		}
		h := q.held[0]
		q.held[0] = heldMessage{}
		q.held = q.held[1:]
		q.bytes -= len(h.m.params.raw) + len(h.m.id)
		q.mu.Unlock()
		if !c.dispatch(&h.m, h.err) {
			return
		}
	}
}

// refuseHeld answers, or drops, a request or notification that finds the
// queue of held messages full: a request is answered -32600, and the
// connection reads on.
func (c *connection) refuseHeld(m *lineMessage, err *Error) {
	details := "more than " + strconv.Itoa(maxHeld) + " messages, or their bytes, wait for initialize to be answered"
	if err == nil && m.id != nil {
		err = NewInvalidRequestError(map[string]string{"details": details})
	}
	if err != nil && !m.response {
		c.sendError(string(m.id), err, sendQueue)
		c.dropAnswered(m.method, m.id, err)
		return
	}
	c.drop(Drop{Method: m.method, ID: string(m.id), Reason: details})
}
