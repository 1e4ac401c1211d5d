//go:build ignore

package acp

import (
	"context"
	"sync"
)

// Hooks of the connection for the runtimes built on it (the v2 turn
// runtime): work that runs once a request's answer is on its way, the
// result that answers a request the peer cancels, and the contract that
// an agent's initialize result keeps.

// requestContextKey is the key under which the context of an inbound
// request, and any context derived from it, finds the request's context.
type requestContextKey struct{}

// answerCancelled, when set (by a runtime file's init), answers an inbound
// request that the peer cancels with $/cancel_request, with id as
// received and context ctx, with a result of its own rather than -32800
// (a permission request's "cancelled" outcome), and reports whether it
// did (with answerEarly). A variable, so that a package whose runtime
// sets none links none of it.
var answerCancelled func(c *connection, id string, ctx *requestContext) bool

// initializeContract, when set (by a runtime file's init), checks the
// result of an agent's initialize against the agent it serves before it
// is written: an error answers the request instead.
var initializeContract func(impl, result any) error

// afterAnswer arranges for f to run once the answer to the inbound request
// whose context is ctx, or one derived from it, has been handed to the
// writer: a message sent after f starts reaches the peer after the answer.
// f runs on the goroutine that served the request and must not block. It
// reports false, arranging nothing, when ctx is not a request's context
// or the request is being answered already.
func afterAnswer(ctx context.Context, f func()) bool {
	rc, _ := ctx.Value(requestContextKey{}).(*requestContext)
	if rc == nil {
		return false
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.answered {
		return false
	}
	rc.onAnswer = append(rc.onAnswer, f)
	return true
}

// requestSeq returns the arrival number of the inbound request whose
// context is ctx, or one derived from it: the requests a connection reads
// are numbered 1, 2, … in the order they come. It returns 0 for any other
// context.
func requestSeq(ctx context.Context) uint64 {
	if rc, _ := ctx.Value(requestContextKey{}).(*requestContext); rc != nil {
		return rc.seq
	}
	return 0
}

// arrived returns the arrival number of the last inbound request read:
// called from a notification's handler, which runs before the next line
// is read, every request with a number up to it came before the
// notification.
func (c *connection) arrived() uint64 { return c.requestsRead.Load() }

// markAnswered records that c's request is being answered and returns
// the functions to run once the answer is handed to the writer; first is
// false when it was answered already.
func (c *requestContext) markAnswered() (hooks []func(), first bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.answered {
		return nil, false
	}
	c.answered = true
	hooks, c.onAnswer = c.onAnswer, nil
	return hooks, true
}

// answerServing answers at once each inbound request being served for
// which pick, given its method and decoded params, returns a result, with
// that result, and cancels its context: the answer its handler returns
// later is dropped.
func (c *connection) answerServing(pick func(method string, params any) any) {
	type early struct {
		key    string
		ctx    *requestContext
		result any
	}
	var picked []early
	c.mu.Lock()
	for key, ctx := range c.serving {
		if r := pick(ctx.method, ctx.params); r != nil {
			picked = append(picked, early{key, ctx, r})
		}
	}
	c.mu.Unlock()
	for _, e := range picked {
		c.answerEarly(e.key, e.ctx, e.result)
	}
}

// answerEarly answers the request with id key, whose context is ctx, with
// result before its handler returns, and cancels ctx; it does nothing when
// the request is being answered already.
func (c *connection) answerEarly(key string, ctx *requestContext, result any) {
	hooks, first := ctx.markAnswered()
	if !first {
		return
	}
	ctx.cancel()
	c.mu.Lock()
	if c.serving[key] == ctx {
		delete(c.serving, key)
	}
	c.mu.Unlock()
	c.answer(ctx, key, ctx.method, false, result, nil, sendQueue)
	for _, f := range hooks {
		f()
	}
}

// An answerPick returns the result that answers an inbound request, given
// its method and decoded params, instead of its handler, or nil.
type answerPick func(method string, params any) any

// answerWhile has the inbound requests that pick answers answered with its
// result, without their handler, until stop is called: a client that has
// cancelled a turn answers the turn's late permission requests so.
func (c *connection) answerWhile(pick answerPick) (stop func()) {
	p := &pick
	c.mu.Lock()
	if c.picks == nil {
		c.picks = map[*answerPick]struct{}{}
	}
	c.picks[p] = struct{}{}
	c.npicks.Add(1)
	c.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			delete(c.picks, p)
			c.npicks.Add(-1)
			c.mu.Unlock()
		})
	}
}

// picked returns the result that one of answerWhile's picks gives the
// inbound request, or nil.
func (c *connection) picked(method string, params any) any {
	if c.npicks.Load() == 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for p := range c.picks {
		if r := (*p)(method, params); r != nil {
			return r
		}
	}
	return nil
}

// answerRule picks, by an inbound request's method and decoded params
// (json.RawMessage when no type decodes them), the result that answers it
// at once, or nil for a request it leaves to its handler. It runs on the
// goroutine that reads, with the connection's lock held: it must be quick
// and must not call the connection.
type answerRule func(method string, params any) any

// addAnswerRule makes the connection answer each inbound request that pick
// picks at once with pick's result, without serving it, from now until
// remove is called (any number of times).
func (c *connection) addAnswerRule(pick answerRule) (remove func()) {
	rule := &pick
	c.mu.Lock()
	c.rules = append(c.rules, rule)
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, r := range c.rules {
			if r == rule {
				c.rules = append(c.rules[:i:i], c.rules[i+1:]...)
				return
			}
		}
	}
}

// ruled returns the result of the first rule that picks the inbound
// request, or nil; c.mu is held.
func (c *connection) ruled(method string, params any) any {
	for _, r := range c.rules {
		if result := (*r)(method, params); result != nil {
			return result
		}
	}
	return nil
}
