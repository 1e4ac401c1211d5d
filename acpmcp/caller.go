//go:build unstable_mcp_over_acp || unstable

package acpmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// Requester sends an "mcp/message" request and returns its outcome: the
// agent side connection's MessageMCP method, adapted to [Message] and
// [Outcome]. An ACP error response is returned as an *[Error].
type Requester func(ctx context.Context, m Message) (Outcome, error)

// CallerOptions configures a [Caller].
type CallerOptions struct {
	// ClientInfo is the caller's MCP client info ({"name", "version"}), put
	// in each request's inner _meta unless the request has its own.
	ClientInfo any
	// ClientCapabilities are the caller's MCP client capabilities; nil is {}.
	ClientCapabilities any
}

// RequestOptions configures one [Caller.Request].
type RequestOptions struct {
	// RequestID is the inner request's ID; empty means a random one.
	RequestID string
	// Meta is the envelope's _meta, or nil.
	Meta json.RawMessage
	// OnNotification receives the request's notifications (progress,
	// subscription events) while it is active, in order.
	OnNotification func(Message)
}

// A Caller calls the MCP servers the client of one ACP connection declared
// with "type": "acp". Route the connection's "mcp/message" notifications to
// [Caller.HandleNotification]. Its methods may be called concurrently.
type Caller struct {
	mu     sync.Mutex
	send   Requester
	meta   CallerMeta
	routes map[[2]string]func(Message)
}

// NewCaller returns a caller that sends its requests with send.
func NewCaller(send Requester, opts *CallerOptions) *Caller {
	c := &Caller{send: send, routes: map[[2]string]func(Message){}}
	if opts != nil {
		c.meta = CallerMeta{ClientInfo: opts.ClientInfo, ClientCapabilities: opts.ClientCapabilities}
	}
	return c
}

// SetRequester sets the function that sends requests, for a caller made
// before its connection.
func (c *Caller) SetRequester(send Requester) {
	c.mu.Lock()
	c.send = send
	c.mu.Unlock()
}

// ErrNotConnected is returned by a caller that has no requester yet.
var ErrNotConnected = errors.New("acpmcp: the caller has no connection")

// Request sends one MCP request to a declared server and returns its inner
// outcome. The MCP 2026-07-28 metadata is added to params' _meta unless
// already there. Outer failures return an error: an *[Error] for an ACP
// error response (the binding's codes among them), ctx.Err() once ctx is
// done (the request is then cancelled on the connection).
func (c *Caller) Request(ctx context.Context, serverID, method string, params json.RawMessage, opts *RequestOptions) (Outcome, error) {
	var o RequestOptions
	if opts != nil {
		o = *opts
	}
	if o.RequestID == "" {
		o.RequestID = generateID("mcp-request")
	}
	params, err := WithRequestMeta(params, c.meta)
	if err != nil {
		return Outcome{}, fmt.Errorf("acpmcp: %s: %w", method, err)
	}
	key := [2]string{serverID, o.RequestID}
	listener := o.OnNotification
	if listener == nil {
		listener = func(Message) {}
	}
	c.mu.Lock()
	send := c.send
	_, busy := c.routes[key]
	if !busy && send != nil {
		c.routes[key] = listener
	}
	c.mu.Unlock()
	switch {
	case send == nil:
		return Outcome{}, ErrNotConnected
	case busy:
		return Outcome{}, fmt.Errorf("acpmcp: MCP request %s is already active for server %s", o.RequestID, serverID)
	}
	defer func() {
		c.mu.Lock()
		delete(c.routes, key)
		c.mu.Unlock()
	}()
	out, err := send(ctx, Message{ServerID: serverID, RequestID: o.RequestID, Method: method, Params: params, Meta: o.Meta})
	if err != nil && ctx.Err() != nil {
		return Outcome{}, ctx.Err()
	}
	return out, err
}

// HandleNotification delivers an "mcp/message" notification to the request
// it belongs to; a notification for an unknown or finished request is
// dropped.
func (c *Caller) HandleNotification(m Message) {
	c.mu.Lock()
	listener := c.routes[[2]string{m.ServerID, m.RequestID}]
	c.mu.Unlock()
	if listener != nil {
		listener(m)
	}
}
