//go:build ignore

package acp

import (
	"encoding/json"
	"errors"
	"log/slog"
)

// Drops: the inbound messages that reach no handler and no call. The peer
// is told of some (a request refused is answered with an error), of others
// nothing (a notification whose params do not fit, a response to no call);
// the program hears of each, through the handler of WithDropHandler or the
// connection's logger, so that none is lost in silence.

// A Drop is an inbound message the connection handed to no handler and to
// no call: a line that is not JSON-RPC, a line longer than the limit, a
// request or notification whose params do not fit its type or that came
// before initialize, a notification without handler or whose handler
// failed, a response to no call waiting for one.
type Drop struct {
	// Method is the method of the request or notification, or of the call
	// a response answers; "" when it could not be read.
	Method string
	// ID is the id of a request or response as received (JSON text); ""
	// for a notification, or when it could not be read.
	ID string
	// Reason says why the message was dropped.
	Reason string
	// Answer is the error the peer was answered with, nil when it was told
	// nothing.
	Answer *Error
}

// WithDropHandler sets f to hear of each inbound message the connection
// drops, in the order they are read. f is called on the goroutine that
// reads the connection, before the next line is read: it must not block
// (nor call the connection). Without it, each drop is logged to the
// connection's logger (see WithLogger), with its method, id and reason: at
// level Warn when neither side hears of it otherwise (a notification), at
// level Debug when the peer was answered or the message was a response (to
// a call cancelled, as a late answer is).
func WithDropHandler(f func(Drop)) ConnOption {
	return func(c *connConfig) { c.onDrop = f }
}

// drop reports d to the drop handler, or to the logger.
func (c *connection) drop(d Drop) {
	if c.cfg.onDrop != nil {
		c.cfg.onDrop(d)
		return
	}
	level := slog.LevelDebug
	if d.Answer == nil && d.ID == "" {
		level = slog.LevelWarn
	}
	c.cfg.logger.Log(c.ctx, level, "acp: an inbound message was dropped", "method", d.Method, "id", d.ID, "reason", d.Reason)
}

// dropAnswered reports a message that the connection answers with rpcErr
// instead of handling it; id is its id as received.
func (c *connection) dropAnswered(method string, id []byte, rpcErr *Error) {
	c.drop(Drop{Method: method, ID: string(id), Reason: errorReason(rpcErr), Answer: rpcErr})
}

// dropNotification reports a notification whose handling failed with err:
// its params do not fit, it has no handler, or its handler's error.
func (c *connection) dropNotification(method string, err error) {
	var rpcErr *Error
	switch {
	case errors.Is(err, errNoHandler):
		c.drop(Drop{Method: method, Reason: "no handler for the notification"})
	case errors.As(err, &rpcErr):
		c.drop(Drop{Method: method, Reason: errorReason(rpcErr)})
	default:
		c.drop(Drop{Method: method, Reason: "the handler failed: " + err.Error()})
	}
}

// errorReason is the message of e, with its data when it has some.
func errorReason(e *Error) string {
	reason := e.Message
	if raw, err := json.Marshal(e.Data); err == nil && string(raw) != "null" && string(raw) != "{}" {
		reason += ": " + string(raw)
	}
	return reason
}
