//go:build ignore

package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// Bridge serves a v1 client with an agent written against v2. The agent
// gets a v2 AgentSideConnection, as it would from a v2 client; the bridge
// holds the other end of it in memory and converts each call between the
// client's v1 and the agent's v2. v1 methods without a v2 counterpart are
// answered -32601, and a session update the v1 client cannot be sent goes
// to BridgeOptions.Undeliverable.
type Bridge struct {
	v1   *acpv1.AgentSideConnection  // to the client
	v2   *acpv2.AgentSideConnection  // the agent's
	peer *acpv2.ClientSideConnection // the bridge's end of the agent's connection
	opts BridgeOptions
	done chan struct{}

	mu        sync.Mutex
	plan      bool                                           // the client advertised the plan operations
	turns     map[acpv2.SessionID]chan acpv2.IdleStateUpdate // prompts waiting for their turn's end
	toolCalls map[acpv2.SessionID]map[acpv2.ToolCallID]bool  // tool calls the client was told of
	loading   map[acpv2.SessionID]int                        // sessions being loaded: how many loads
}

// BridgeOptions tune a Bridge.
type BridgeOptions struct {
	// Undeliverable is called with each session update of the agent that
	// cannot reach the v1 client (a markdown plan for a client without the
	// plan operations, a v2-only update), which the bridge does not send.
	// An agent's session/update is a notification, which has no answer:
	// this is how the agent learns of it. Nil ignores them.
	Undeliverable func(n *acpv2.UpdateSessionNotification, err error)
	// Middleware wraps each call between the client and the agent once, as
	// the agent's connection sees it: the agent's handlers and its calls of
	// the client, with their v2 methods, params and ids (see
	// acpv2.WithMiddleware). A call passes three connections in the
	// bridge (the client's, the agent's and the bridge's end of it); the
	// middleware runs on one of them, so a call is, say, one span. _meta
	// crosses the bridge both ways, so that trace context set by the client
	// reaches the agent's middleware, and the other way.
	Middleware []acpv2.Middleware
	// V1 are options of the connection to the client (limits, a wire log
	// of what the client sends and reads). A middleware given there runs
	// too, on the v1 side of each call.
	V1 []acpv1.ConnOption
}

// NewBridge serves the v1 client that writes to r and reads from w with
// agent. An agent that calls the client through the connection V2 returns
// may be called before it has it, when the client's first message is
// waiting already: NewBridgeFunc gives it to the agent first. The bridge
// ends when the client's connection does.
func NewBridge(agent acpv2.Agent, w io.Writer, r io.Reader, opts BridgeOptions) *Bridge {
	return NewBridgeFunc(func(*acpv2.AgentSideConnection) acpv2.Agent { return agent }, w, r, opts)
}

// NewBridgeFunc is NewBridge for an agent that calls the client: newAgent
// is given the agent's connection (the one V2 returns) and returns the
// agent, before anything is read.
func NewBridgeFunc(newAgent func(*acpv2.AgentSideConnection) acpv2.Agent, w io.Writer, r io.Reader, opts BridgeOptions) *Bridge {
	agentR, peerW := io.Pipe()
	peerR, agentW := io.Pipe()
	b := &Bridge{opts: opts, done: make(chan struct{}),
		turns:     map[acpv2.SessionID]chan acpv2.IdleStateUpdate{},
		toolCalls: map[acpv2.SessionID]map[acpv2.ToolCallID]bool{},
		loading:   map[acpv2.SessionID]int{},
	}
	b.v2 = acpv2.NewAgentSideConnectionFunc(newAgent, agentW, agentR, acpv2.WithMiddleware(opts.Middleware...))
	b.peer = acpv2.NewClientSideConnection(bridgeClient{b}, peerW, peerR)
	// b.v1 is set before the connection reads, once: the agent's updates,
	// which the client's messages cause, read it on the peer's goroutines.
	acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		b.v1 = c
		return bridgeAgent{b}
	}, w, r, opts.V1...)
	go func() {
		// The client left: end the agent's connection, then its reader.
		<-b.v1.Done()
		peerW.Close()
		agentW.Close()
		<-b.v2.Done()
		<-b.peer.Done()
		close(b.done)
	}()
	return b
}

// V1 returns the connection to the v1 client.
func (b *Bridge) V1() *acpv1.AgentSideConnection { return b.v1 }

// V2 returns the agent's connection, through which it calls the client.
func (b *Bridge) V2() *acpv2.AgentSideConnection { return b.v2 }

// Done is closed when the bridge has ended: the client's connection and
// the agent's.
func (b *Bridge) Done() <-chan struct{} { return b.done }

// undeliverable reports an update that does not reach the client.
func (b *Bridge) undeliverable(n *acpv2.UpdateSessionNotification, err error) {
	if b.opts.Undeliverable != nil {
		b.opts.Undeliverable(n, err)
	}
}

// awaitTurn registers a prompt of session id, which waits for its turn's
// idle state update on the returned channel; done unregisters it.
func (b *Bridge) awaitTurn(id acpv2.SessionID) (idle <-chan acpv2.IdleStateUpdate, done func(), err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.turns[id] != nil {
		return nil, nil, acpv1.NewInvalidRequestError(map[string]string{"details": "a prompt turn of this session is running"})
	}
	ch := make(chan acpv2.IdleStateUpdate, 1)
	b.turns[id] = ch
	return ch, func() {
		b.mu.Lock()
		delete(b.turns, id)
		b.mu.Unlock()
	}, nil
}

// idle hands the end of a turn to the prompt waiting for it, and reports
// whether one was.
func (b *Bridge) idle(id acpv2.SessionID, u acpv2.IdleStateUpdate) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := b.turns[id]
	if ch == nil {
		return false
	}
	select {
	case ch <- u:
	default: // a second idle update of the same turn
	}
	return true
}

// toolCallSeen records that the client was told of a tool call, and
// reports whether it had been.
func (b *Bridge) toolCallSeen(session acpv2.SessionID, id acpv2.ToolCallID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	calls := b.toolCalls[session]
	if calls == nil {
		calls = map[acpv2.ToolCallID]bool{}
		b.toolCalls[session] = calls
	}
	seen := calls[id]
	calls[id] = true
	return seen
}

// errorToV1 carries a v2 JSON-RPC error to the v1 client as it is; other
// errors stay as they are.
func errorToV1(err error) error {
	var e *acpv2.Error
	if errors.As(err, &e) {
		if out, werr := viaWire[acpv1.Error](e); werr == nil {
			return out
		}
		return acpv1.NewError(acpv1.ErrorCode(e.Code), e.Message)
	}
	return err
}

// errorToV2 carries a v1 JSON-RPC error to the agent as it is.
func errorToV2(err error) error {
	var e *acpv1.Error
	if errors.As(err, &e) {
		if out, werr := viaWire[acpv2.Error](e); werr == nil {
			return out
		}
		return acpv2.NewError(acpv2.ErrorCode(e.Code), e.Message)
	}
	return err
}

// viaWire converts a value of one version to the type of the other by its
// JSON, for the types this package has no member-by-member conversion of
// (unions, types with unstable members): where they have the same members,
// required alike, what one writes the other reads; where they do not, a
// value that does not fit is an error.
func viaWire[To any, PTo interface {
	*To
	UnmarshalJSON([]byte) error
}](from interface{ MarshalJSON() ([]byte, error) }) (*To, error) {
	data, err := from.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out := PTo(new(To))
	if err := out.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("convert: not representable in the other version: %w", err)
	}
	return (*To)(out), nil
}

// afterAnswer runs f once the answer to the request of ctx is written: the
// connection ends a request's context then.
func afterAnswer(ctx context.Context, f func()) {
	go func() {
		<-ctx.Done()
		f()
	}()
}
