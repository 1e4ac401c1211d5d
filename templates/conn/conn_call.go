//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Outbound calls: where a request or notification of this side starts on
// its way out, through the middleware to roundTrip and notifyNow
// (conn_send.go).

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

// request sends an outbound request and waits for its result: decoded into
// the result type of typed, its method, or a json.RawMessage when typed is
// "". Cancelling ctx sends $/cancel_request for it and returns ctx.Err().
func (c *connection) request(ctx context.Context, method, typed string, params any) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if ctx.Value(notifyingKey{}) == c {
		if seq := c.notifying.Load(); seq%2 == 1 {
			return c.requestWhileNotifying(ctx, seq, method, typed, params)
		}
	}
	id := c.nextID.Add(1)
	if c.mw != nil {
		return c.mw(ctx, &callInfo{method: method, num: id, request: true, typed: typed, params: params})
	}
	return c.roundTrip(ctx, id, method, typed, params)
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

// requestWhileNotifying makes a request with the context of a
// notification's handler while handler seq runs: from the handler itself
// or from a goroutine it started. The answer is read only once the handler
// returns; if it still runs after notifyWait, the request fails with
// errWaitInNotification instead of waiting for ever.
func (c *connection) requestWhileNotifying(ctx context.Context, seq uint64, method, typed string, params any) (any, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stuck := time.AfterFunc(notifyWait, func() {
		if c.notifying.Load() == seq {
			cancel(errWaitInNotification)
		}
	})
	defer stuck.Stop()
	id := c.nextID.Add(1)
	var v any
	var err error
	if c.mw != nil {
		v, err = c.mw(ctx, &callInfo{method: method, num: id, request: true, typed: typed, params: params})
	} else {
		v, err = c.roundTrip(ctx, id, method, typed, params)
	}
	if err != nil && context.Cause(ctx) == errWaitInNotification {
		return nil, errWaitInNotification
	}
	return v, err
}

// notifyWait is how long a request made with a notification handler's
// context may wait while that handler runs (see requestWhileNotifying).
const notifyWait = 2 * time.Second

// notifyingKey marks the context of a notification's handler with its
// connection.
type notifyingKey struct{}

// errWaitInNotification is what a request made with a notification
// handler's context returns when that handler still runs after notifyWait:
// the connection reads no answer until the handler returns, so waiting for
// one from the handler itself would never end.
var errWaitInNotification = errors.New("acp: a notification's handler must not wait for the answer to a request on its own connection: " +
	"the answer is read only once the handler returns; make the request from a goroutine of its own")

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
