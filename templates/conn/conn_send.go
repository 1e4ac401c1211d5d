//go:build ignore

package acp

import (
	"context"
	"strconv"
)

// Sending: a message, an answer of serve or an outbound call, is encoded
// into a pooled buffer and queued in the outbox for the writer
// (conn_write.go); a sender with nothing else to do writes it itself.

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

// appendRequest appends an outbound request.
func appendRequest(b []byte, id int64, method string, params any) ([]byte, error) {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendInt(b, id, 10)
	return appendCall(b, method, params)
}

// appendNotification appends an outbound notification.
func appendNotification(b []byte, method string, params any) ([]byte, error) {
	return appendCall(append(b, `{"jsonrpc":"2.0"`...), method, params)
}

func appendCall(b []byte, method string, params any) ([]byte, error) {
	b = append(b, `,"method":`...)
	b = appendString(b, method)
	if params != nil {
		var err error
		b = append(b, `,"params":`...)
		if b, err = appendAny(b, params); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendResult appends the response with result to the request whose id,
// as received, is id.
func appendResult(b []byte, id string, result any) ([]byte, error) {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b, err := appendAny(b, result)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendErrorResponse appends the error response to the request whose id,
// as received, is id (null when empty).
func appendErrorResponse(b []byte, id string, e *Error) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	if id == "" {
		b = append(b, "null"...)
	} else {
		b = append(b, id...)
	}
	b = append(b, `,"error":`...)
	out, err := encodeObject(e, b)
	if err != nil {
		// Only data that is not valid JSON fails: send the error without it.
		out, _ = encodeObject(&Error{Code: e.Code, Message: e.Message}, b)
	}
	return append(out, '}')
}
