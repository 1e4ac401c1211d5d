//go:build unstable_mcp_over_acp || unstable

package acpmcp

import (
	"context"
	"errors"
)

// A Wire converts between the binding's values and one protocol version's
// generated "mcp/message" types, Req (the request), Resp (its response) and
// Note (the notification): the per-version part of a binding. With it, a
// version's package (acpmcpv1, acpmcpv2) binds a [Provider] and a [Caller]
// to its connections in a few lines; a program that generates its own ACP
// packages fills one in for its types.
type Wire[Req, Resp, Note any] struct {
	Request      func(Message) *Req          // an outgoing request
	FromRequest  func(*Req) Message          // an incoming request
	ToError      func(*Error) error          // a failure of the binding as the version's error
	FromError    func(error) (*Error, bool)  // the version's error as a failure of the binding
	Notification func(Message) *Note         // an outgoing notification
	FromNote     func(*Note) Message         // an incoming notification
	Response     func(Outcome) *Resp         // the response carrying an outcome
	Outcome      func(*Resp) (Outcome, bool) // the outcome a response carries, if it is one
}

// Notifier returns a provider's notifier that sends through send, the
// connection's method.
func (w *Wire[Req, Resp, Note]) Notifier(send func(context.Context, *Note) error) Notifier {
	return func(ctx context.Context, m Message) error { return send(ctx, w.Notification(m)) }
}

// Requester returns a caller's requester that calls through call, the
// connection's method.
func (w *Wire[Req, Resp, Note]) Requester(call func(context.Context, *Req) (*Resp, error)) Requester {
	return func(ctx context.Context, m Message) (Outcome, error) {
		resp, err := call(ctx, w.Request(m))
		if e, ok := w.FromError(err); ok {
			return Outcome{}, e
		}
		if err != nil {
			return Outcome{}, err
		}
		if resp != nil {
			if out, ok := w.Outcome(resp); ok {
				return out, nil
			}
		}
		return Outcome{}, &Error{Code: CodeBackendFailed, Message: "Invalid MCP-over-ACP response carrier"}
	}
}

// Answer serves an "mcp/message" request through p: the response carrying
// its outcome, or the binding's failure as the version's error.
func (w *Wire[Req, Resp, Note]) Answer(ctx context.Context, p *Provider, req *Req) (*Resp, error) {
	out, err := p.Serve(ctx, w.FromRequest(req))
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Code: CodeBackendFailed, Message: "MCP server handler failed"}
		}
		return nil, w.ToError(e)
	}
	return w.Response(out), nil
}

// Route hands an "mcp/message" notification to c, which routes it to its
// request.
func (w *Wire[Req, Resp, Note]) Route(c *Caller, n *Note) {
	c.HandleNotification(w.FromNote(n))
}
