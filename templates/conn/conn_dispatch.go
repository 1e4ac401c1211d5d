//go:build ignore

package acp

import (
	"fmt"
	"strconv"
)

// The third stage of a line's path: handing the parsed message on, by what
// it is. A request goes on to serve, a notification to handle, on the
// reading goroutine; a response ends the wait of its outbound call.

// dispatch hands on the message of one line, parsed with the error err
// (the *Error that answers the line, if any): the error is answered, a
// request is served, a notification handled before the next line, and a
// response goes to the call that waits for it. While an initialize is
// served, requests and notifications reach it only once it is answered
// (see conn_hold.go). It returns false once the connection has ended.
func (c *connection) dispatch(m *lineMessage, err *Error) bool {
	switch {
	case err != nil:
		if !m.response {
			c.sendError(string(m.id), err, sendQueue)
			c.dropAnswered(m.method, m.id, err)
		} else {
			c.drop(Drop{ID: string(m.id), Reason: errorReason(err)})
		}
	case m.empty:
		// Blank lines need nothing.
	case m.response && (m.id == nil || string(m.id) == "null"):
		// A response to no request: an error the peer could not tie to a
		// request of ours.
		reason := "a response without id"
		if m.err != nil {
			reason += ": " + errorReason(m.err)
		}
		c.drop(Drop{Reason: reason})
	case m.method != "" && c.init != nil && !c.admit(m):
		// Held back until initialize has been answered.
	case m.method != "" && m.id != nil:
		return c.serve(m)
	case m.method != "":
		c.notification(m)
	default:
		c.response(m)
	}
	return true
}

// dispatchTooLong answers a line longer than the limit, whose id, as
// received, is id (nil when it could not be read): a response fails its
// call, a request whose id can be read is answered -32600, and anything
// else -32700 with id null.
func (c *connection) dispatchTooLong(id []byte, method string, response bool) {
	details := map[string]string{"details": "the message is longer than the limit of " + strconv.Itoa(c.cfg.limits.MaxMessageBytes) + " bytes"}
	switch {
	case id != nil && response:
		if r, ok := c.calls.takeKey(id); ok {
			r.reply <- reply{err: fmt.Errorf("acp: the response to %s is longer than the limit of %d bytes", r.method, c.cfg.limits.MaxMessageBytes)}
		} else {
			c.drop(Drop{ID: string(id), Reason: "a response to no call waiting, " + details["details"]})
		}
	case id != nil:
		rpcErr := NewInvalidRequestError(details)
		c.sendError(string(id), rpcErr, sendQueue)
		c.dropAnswered(method, id, rpcErr)
	default:
		rpcErr := withData(NewParseError(), details)
		c.sendError("", rpcErr, sendQueue)
		c.drop(Drop{Method: method, Reason: details["details"], Answer: rpcErr})
	}
}

// admit asks the initialization gate whether the inbound request or
// notification m may be handled, and answers a request that may not.
func (c *connection) admit(m *lineMessage) bool {
	ok, rpcErr := c.init.admit(m)
	switch {
	case rpcErr != nil:
		c.sendError(string(m.id), rpcErr, sendQueue)
		c.dropAnswered(m.method, m.id, rpcErr)
	case !ok:
		c.drop(Drop{Method: m.method, ID: string(m.id), Reason: "it came before the connection was initialized"})
	}
	return ok
}

// notification handles an inbound notification before the next line.
func (c *connection) notification(m *lineMessage) {
	if m.method == MethodCancelRequest {
		c.cancelServing(m.params.raw)
		return
	}
	// A notification has no answer: its handler's errors go to the drops.
	params := inParams{value: m.params.value, err: m.params.err}
	if c.mw != nil {
		params.raw = append([]byte(nil), m.params.raw...) // the line's buffer is read into again
	}
	c.notifying.Add(1)
	_, err := c.handle(c.notifyCtx, c.notifications, "", m.method, params)
	c.notifying.Add(1)
	if err != nil {
		c.dropNotification(m.method, err)
	}
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
		c.drop(Drop{ID: string(m.id), Reason: "a response to no call waiting for one (cancelled, or never made)"})
	case m.err != nil:
		r.reply <- reply{err: m.err}
	case m.result.err != nil:
		r.reply <- reply{err: fmt.Errorf("acp: result of %s: %w", r.method, m.result.err)}
	default:
		r.reply <- reply{result: m.result.value}
	}
}
