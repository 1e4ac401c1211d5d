//go:build unstable_mcp_over_acp || unstable

package acpmcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// DefaultMaxActiveRequests is the per-server limit of requests served at
// once when [ServerOptions.MaxActiveRequests] is zero.
const DefaultMaxActiveRequests = 64

// Request is one inner MCP request a [Handler] serves, with the metadata
// the provider has already checked.
type Request struct {
	ServerID  string
	RequestID string
	Method    string
	// Params are the inner params (a JSON object, _meta included), or nil.
	Params json.RawMessage
	// ProtocolVersion is always [ProtocolVersion].
	ProtocolVersion string
	// ClientCapabilities is the caller's capabilities object.
	ClientCapabilities json.RawMessage
	// ClientInfo is the caller's client info, or nil.
	ClientInfo json.RawMessage
	// EnvelopeMeta is the envelope's _meta, or nil.
	EnvelopeMeta json.RawMessage

	notify func(ctx context.Context, method string, params json.RawMessage) error
}

// Notify sends the caller an MCP notification (progress, a subscription
// event) scoped to this request. After the handler returns it does nothing:
// no notification follows the response.
func (r *Request) Notify(ctx context.Context, method string, params json.RawMessage) error {
	return r.notify(ctx, method, params)
}

// A Handler serves the MCP requests of one registered server. It returns
// the inner outcome; an *[MCPError] error becomes the outcome's inner error,
// any other error an outer [CodeBackendFailed] error (or
// [CodeRequestCancelled] once ctx is done). ctx is cancelled when the caller
// cancels the ACP request, when the connection ends and when the
// registration is closed.
type Handler func(ctx context.Context, req *Request) (Outcome, error)

// Notifier sends an "mcp/message" notification to the peer: the client
// side connection's MessageMCP method, adapted to [Message].
type Notifier func(ctx context.Context, m Message) error

// ServerOptions configures one registered server.
type ServerOptions struct {
	// ServerID is the server's ID on the connection; empty means a random
	// one made from the name. An ID is never reused on a provider.
	ServerID string
	// MaxActiveRequests bounds the requests served at once; past it a
	// request fails with [CodeResourceLimitExceeded]. Zero means
	// [DefaultMaxActiveRequests].
	MaxActiveRequests int
}

// A Provider serves MCP servers to the agent of one ACP connection over
// "mcp/message". Register servers, put their declarations in a session's
// mcpServers, and answer each "mcp/message" request with [Provider.Serve].
// Its methods may be called concurrently.
type Provider struct {
	mu      sync.Mutex
	servers map[string]*registered
	used    map[string]bool
	notify  Notifier
}

// registered is the state of one registered server.
type registered struct {
	handler Handler
	max     int
	active  map[string]bool
	ctx     context.Context // done once the registration is closed
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// NewProvider returns a provider with no servers; notify sends its
// notifications (nil drops them).
func NewProvider(notify Notifier) *Provider {
	return &Provider{servers: map[string]*registered{}, used: map[string]bool{}, notify: notify}
}

// SetNotifier sets the function that sends notifications, for a provider
// made before its connection.
func (p *Provider) SetNotifier(notify Notifier) {
	p.mu.Lock()
	p.notify = notify
	p.mu.Unlock()
}

// Register registers a server served by h. It serves as soon as Register
// returns, so publish its declaration only afterwards.
func (p *Provider) Register(name string, h Handler, opts *ServerOptions) (*Registration, error) {
	if h == nil {
		return nil, errors.New("acpmcp: Register: nil handler")
	}
	var o ServerOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxActiveRequests < 0 {
		return nil, errors.New("acpmcp: Register: MaxActiveRequests must be positive")
	}
	if o.MaxActiveRequests == 0 {
		o.MaxActiveRequests = DefaultMaxActiveRequests
	}
	if o.ServerID == "" {
		o.ServerID = generateID(name)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.used[o.ServerID] {
		return nil, fmt.Errorf("acpmcp: MCP server ID %s was already registered on this provider", o.ServerID)
	}
	p.used[o.ServerID] = true
	ctx, cancel := context.WithCancel(context.Background())
	e := &registered{handler: h, max: o.MaxActiveRequests, active: map[string]bool{}, ctx: ctx, cancel: cancel}
	p.servers[o.ServerID] = e
	return &Registration{name: name, serverID: o.ServerID, p: p, e: e}, nil
}

// generateID returns prefix:random, as the TypeScript SDK makes its IDs.
func generateID(prefix string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return prefix + ":" + hex.EncodeToString(b[:])
}

// A Registration is a server registered on a [Provider].
type Registration struct {
	name, serverID string
	p              *Provider
	e              *registered
}

// Name returns the server's human-readable name.
func (r *Registration) Name() string { return r.name }

// ServerID returns the server's ID on the connection.
func (r *Registration) ServerID() string { return r.serverID }

// Close removes the registration: later requests fail with
// [CodeServerUnavailable], active ones are cancelled, and Close returns once
// their handlers have returned or ctx is done.
func (r *Registration) Close(ctx context.Context) error {
	r.p.mu.Lock()
	if r.p.servers[r.serverID] == r.e {
		delete(r.p.servers, r.serverID)
	}
	r.p.mu.Unlock()
	r.e.cancel()
	done := make(chan struct{})
	go func() { r.e.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Serve answers one "mcp/message" request: the inner outcome, or an outer
// *[Error] with one of the binding's codes.
func (p *Provider) Serve(ctx context.Context, m Message) (Outcome, error) {
	e, notify, err := p.admit(m)
	if err != nil {
		return Outcome{}, err
	}
	defer p.release(e, m.RequestID)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(e.ctx, cancel)
	defer stop()

	// gate orders notifications before the response: a notification holds
	// it for reading while it is sent, the end takes it for writing.
	var gate sync.RWMutex
	done := false
	scoped := func(nctx context.Context, method string, params json.RawMessage) error {
		gate.RLock()
		defer gate.RUnlock()
		if done || notify == nil {
			return nil
		}
		return notify(nctx, Message{ServerID: m.ServerID, RequestID: m.RequestID, Method: method, Params: params})
	}
	out, err := run(ctx, e.handler, m, scoped)
	gate.Lock()
	done = true
	gate.Unlock()
	if err != nil {
		return Outcome{}, outerError(ctx, err)
	}
	return out, nil
}

// admit finds the server and records the request as active, or returns the
// binding's error.
func (p *Provider) admit(m Message) (*registered, Notifier, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.servers[m.ServerID]
	if e == nil {
		return nil, nil, newError(CodeServerUnavailable, "MCP server registration unavailable", map[string]string{"serverId": m.ServerID})
	}
	if e.active[m.RequestID] {
		return nil, nil, newError(CodeInvalidParams, "Invalid params: duplicate active MCP request ID",
			map[string]string{"serverId": m.ServerID, "requestId": m.RequestID})
	}
	if len(e.active) >= e.max {
		return nil, nil, newError(CodeResourceLimitExceeded, "MCP-over-ACP active request limit exceeded", map[string]string{"serverId": m.ServerID})
	}
	e.active[m.RequestID] = true
	e.wg.Add(1)
	return e, p.notify, nil
}

// release ends an admitted request.
func (p *Provider) release(e *registered, requestID string) {
	p.mu.Lock()
	delete(e.active, requestID)
	p.mu.Unlock()
	e.wg.Done()
}

// errInvalidOutcome is a failure the binding detects itself.
var errInvalidOutcome = errors.New("MCP server handler produced an invalid outcome: expected exactly one of a defined `result` or an `error` with an integer `code` and string `message`")

// errPanicked stands for a handler's panic, whose text never reaches the peer.
var errPanicked = errors.New("handler panicked")

// run checks the inner metadata and calls the handler.
func run(ctx context.Context, h Handler, m Message, notify func(context.Context, string, json.RawMessage) error) (out Outcome, err error) {
	params, _ := objectOf(m.Params)
	meta, _ := objectOf(params["_meta"])
	var version string
	if json.Unmarshal(meta[MetaProtocolVersion], &version) != nil || !isString(meta[MetaProtocolVersion]) {
		return invalidMCPParams("missing " + MetaProtocolVersion + " in params._meta"), nil
	}
	if version != ProtocolVersion {
		data, _ := json.Marshal(map[string]any{"supported": []string{ProtocolVersion}, "requested": version})
		return Outcome{Error: &MCPError{Code: -32022, Message: "Unsupported protocol version", Data: data}}, nil
	}
	caps := meta[MetaClientCapabilities]
	if !isObject(caps) {
		return invalidMCPParams("missing " + MetaClientCapabilities + " in params._meta"), nil
	}
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	req := &Request{
		ServerID: m.ServerID, RequestID: m.RequestID, Method: m.Method, Params: m.Params,
		ProtocolVersion: version, ClientCapabilities: caps, ClientInfo: meta[MetaClientInfo],
		EnvelopeMeta: m.Meta, notify: notify,
	}
	defer func() {
		if recover() != nil {
			out, err = Outcome{}, errPanicked
		}
	}()
	out, err = h(ctx, req)
	var mcpErr *MCPError
	if errors.As(err, &mcpErr) {
		out, err = Outcome{Error: mcpErr}, nil
	}
	if err == nil && out.check() != nil {
		return Outcome{}, errInvalidOutcome
	}
	return Outcome{Result: out.Result, Error: out.Error}, err
}

// invalidMCPParams is the inner invalid params error.
func invalidMCPParams(message string) Outcome {
	return Outcome{Error: &MCPError{Code: -32602, Message: "Invalid params: " + message}}
}

// isString reports whether raw is a JSON string.
func isString(raw json.RawMessage) bool {
	return len(raw) > 0 && raw[0] == '"'
}

// outerError maps a handler's failure to the binding's outer error.
func outerError(ctx context.Context, err error) *Error {
	var acpErr *Error
	if ctx.Err() != nil || (errors.As(err, &acpErr) && acpErr.Code == CodeRequestCancelled) {
		return &Error{Code: CodeRequestCancelled, Message: "Request cancelled"}
	}
	switch {
	case errors.Is(err, errInvalidOutcome):
		return &Error{Code: CodeBackendFailed, Message: err.Error()}
	case errors.Is(err, errPanicked):
		return &Error{Code: CodeBackendFailed, Message: "MCP server handler failed"}
	}
	data := map[string]any{"details": err.Error()}
	if acpErr != nil {
		// A handler's own ACP error never poses as a binding error code.
		data["code"] = acpErr.Code
	}
	return newError(CodeBackendFailed, "MCP server handler failed", data)
}
