//go:build unstable_mcp_over_acp || unstable

package acpmcp

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport returns an [mcp.Transport] to the declared server serverID:
// connect an [mcp.Client] with it and use the session as with any other
// transport. Each MCP call becomes one "mcp/message" request; its
// notifications reach the client session; cancelling a call's context
// cancels the ACP request. Closing the session cancels its active requests.
func (c *Caller) Transport(serverID string) mcp.Transport {
	return &transport{caller: c, serverID: serverID}
}

type transport struct {
	caller   *Caller
	serverID string
}

// Connect returns the logical connection to the server.
func (t *transport) Connect(context.Context) (mcp.Connection, error) {
	ctx, cancel := context.WithCancel(context.Background())
	return &conn{t: t, ctx: ctx, cancel: cancel, ready: make(chan struct{}, 1), active: map[string]context.CancelFunc{}}, nil
}

// conn is an MCP connection over "mcp/message".
type conn struct {
	t      *transport
	ctx    context.Context // done once the connection is closed
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	queue  []jsonrpc.Message
	ready  chan struct{} // signalled when queue gains a message
	active map[string]context.CancelFunc
}

// SessionID returns "": MCP 2026-07-28 has no sessions.
func (*conn) SessionID() string { return "" }

// Read returns the next response or notification.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		if len(c.queue) > 0 {
			m := c.queue[0]
			c.queue = c.queue[1:]
			c.mu.Unlock()
			return m, nil
		}
		c.mu.Unlock()
		select {
		case <-c.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.ctx.Done():
			return nil, mcp.ErrConnectionClosed
		}
	}
}

// push queues a message for Read.
func (c *conn) push(m jsonrpc.Message) {
	c.mu.Lock()
	c.queue = append(c.queue, m)
	c.mu.Unlock()
	select {
	case c.ready <- struct{}{}:
	default:
	}
}

// Write sends a call as an "mcp/message" request, and handles the client's
// notifications/cancelled; other messages have no meaning in MCP 2026-07-28
// and are dropped.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if c.ctx.Err() != nil {
		return mcp.ErrConnectionClosed
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return nil
	}
	if !req.IsCall() {
		if req.Method == "notifications/cancelled" {
			c.cancelCall(req.Params)
		}
		return nil
	}
	key := idKey(req.ID)
	// The call keeps ctx's values (a trace's span among them) and ends
	// when ctx or the connection does.
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stopCall := context.AfterFunc(ctx, cancel)
	stopConn := context.AfterFunc(c.ctx, cancel)
	stop := func() { stopCall(); stopConn() }
	c.mu.Lock()
	c.active[key] = cancel
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer stop()
		defer cancel()
		c.call(rctx, req)
		c.mu.Lock()
		delete(c.active, key)
		c.mu.Unlock()
	}()
	return nil
}

// call sends one request and queues its response.
func (c *conn) call(ctx context.Context, req *jsonrpc.Request) {
	notify := func(m Message) {
		n := &jsonrpc.Request{Method: m.Method}
		if m.Params != nil {
			n.Params = m.Params
		}
		c.push(n)
	}
	out, err := c.t.caller.Request(ctx, c.t.serverID, req.Method, req.Params, &RequestOptions{OnNotification: notify})
	if ctx.Err() != nil {
		// The client retired the call (or closed): no one reads an answer.
		return
	}
	resp := &jsonrpc.Response{ID: req.ID}
	var outer *Error
	switch {
	case errors.As(err, &outer):
		resp.Error = &jsonrpc.Error{Code: outer.Code, Message: outer.Message, Data: outer.Data}
	case err != nil:
		resp.Error = &jsonrpc.Error{Code: CodeBackendFailed, Message: err.Error()}
	case out.Error != nil:
		resp.Error = &jsonrpc.Error{Code: out.Error.Code, Message: out.Error.Message, Data: out.Error.Data}
	default:
		resp.Result = out.Result
	}
	c.push(resp)
}

// cancelCall cancels the request a notifications/cancelled names.
func (c *conn) cancelCall(params json.RawMessage) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil {
		return
	}
	c.mu.Lock()
	cancel := c.active[idKey(id)]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// idKey is a map key for a JSON-RPC ID.
func idKey(id jsonrpc.ID) string {
	b, _ := json.Marshal(id.Raw())
	return string(b)
}

// Close cancels the active requests and waits for them to end.
func (c *conn) Close() error {
	c.cancel()
	c.wg.Wait()
	return nil
}
