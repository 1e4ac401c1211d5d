//go:build ignore

package acp

import (
	"context"
	"sync"
	"time"
)

// requestContext is the context of an inbound request: it is cancelled
// when the peer cancels the request, when the request has been answered,
// and when the connection ends. It costs one allocation, its channel only
// once Done is called; its AfterFunc lets a context derived from it follow
// it without a goroutine of its own.
type requestContext struct {
	mu    sync.Mutex
	done  chan struct{}
	err   error
	after map[*func()]struct{}

	method   string // the request's, and its decoded params (see answerServing)
	params   any
	seq      uint64   // its arrival number (see requestSeq)
	answered bool     // the answer is on its way (see afterAnswer)
	onAnswer []func() // run once it is
}

// closedDone is the Done of a context cancelled before Done was asked for.
var closedDone = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

func (c *requestContext) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *requestContext) Value(key any) any {
	if key == (requestContextKey{}) {
		return c
	}
	return nil
}

func (c *requestContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		if c.err != nil {
			return closedDone
		}
		c.done = make(chan struct{})
	}
	return c.done
}

func (c *requestContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *requestContext) String() string { return "acp request context" }

// AfterFunc arranges for f to run, on a goroutine of its own, once c is
// cancelled; the returned func stops that, and reports whether it did.
// context.WithCancel and the like use it to follow c.
func (c *requestContext) AfterFunc(f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		go f()
		return func() bool { return false }
	}
	if c.after == nil {
		c.after = map[*func()]struct{}{}
	}
	key := &f
	c.after[key] = struct{}{}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.after[key]
		delete(c.after, key)
		return ok
	}
}

// cancel cancels c, once.
func (c *requestContext) cancel() {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = context.Canceled
	if c.done != nil {
		close(c.done)
	}
	after := c.after
	c.after = nil
	c.mu.Unlock()
	for f := range after {
		go (*f)()
	}
}
