//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
)

// Turn is one prompt turn that a TurnRunner runs: what its TurnFunc reads
// and calls. Its methods may be called from any goroutine until the
// TurnFunc returns; after, they fail and send nothing.
type Turn struct {
	runner    *TurnRunner
	session   *turnSession
	request   *PromptRequest
	ctx       context.Context
	cancel    context.CancelFunc
	cancelled atomic.Bool     // by session/cancel or session/close
	done      chan struct{}   // closed once the turn has ended
	saveCtx   context.Context // ctx without its cancellation, for the store

	mu    sync.RWMutex // held to read while a call sends, to write to end the turn
	ended bool         // the TurnFunc has returned
}

// SessionID returns the id of the turn's session.
func (t *Turn) SessionID() SessionID { return t.session.id }

// Request returns the session/prompt request of the turn.
func (t *Turn) Request() *PromptRequest { return t.request }

// SessionRequest returns the parameters of the request that created the
// turn's session, or last loaded or resumed it: its working directory,
// MCP servers and _meta, as received. The session's record keeps them:
// a session the runner serves again from its store has them too.
func (t *Turn) SessionRequest() *NewSessionRequest {
	s := t.session
	s.send.Lock()
	rec := s.rec
	p := &NewSessionRequest{Cwd: rec.Cwd, Meta: append(json.RawMessage(nil), rec.Meta...)}
	servers := rec.MCPServers
	s.send.Unlock()
	if len(p.Meta) == 0 {
		p.Meta = nil
	}
	if servers != nil {
		_ = json.Unmarshal(servers, &p.MCPServers) // the runner wrote them
	}
	return p
}

// Cancelled reports whether the client cancelled the turn (session/cancel
// or session/close); the TurnFunc's context is cancelled then too.
func (t *Turn) Cancelled() bool { return t.cancelled.Load() }

// Say sends text as an agent message chunk.
func (t *Turn) Say(ctx context.Context, text string) error {
	return t.Update(ctx, NewSessionUpdateAgentMessageChunk(NewContentBlockText(text)))
}

// Plan sends the session's plan, entries being all of it.
func (t *Turn) Plan(ctx context.Context, entries []PlanEntry) error {
	return t.Update(ctx, NewSessionUpdatePlan(entries))
}

// ToolCall reports a new tool call.
func (t *Turn) ToolCall(ctx context.Context, c ToolCall) error {
	return t.Update(ctx, NewSessionUpdateToolCall(c))
}

// UpdateToolCall reports what changed in a tool call.
func (t *Turn) UpdateToolCall(ctx context.Context, u ToolCallUpdate) error {
	return t.Update(ctx, NewSessionUpdateToolCallUpdate(u))
}

// Update sends session update u of the turn's session, records it in the
// session's state and appends it to its history. After the turn has been
// cancelled, ctx (the TurnFunc's, or one derived from it) is done: send
// the final updates of cancelled work with context.WithoutCancel(ctx).
// Once the TurnFunc has returned, Update sends nothing and fails.
func (t *Turn) Update(ctx context.Context, u SessionUpdate) error {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.ended {
		return errTurnEnded
	}
	save := t.saveCtx
	if ctx != t.ctx {
		save = context.WithoutCancel(ctx)
	}
	return t.runner.emitWith(ctx, save, t.session, NewSessionNotification(t.session.id, u))
}

// finish ends the turn for its calls: what they send after is dropped.
// It waits for the calls sending now.
func (t *Turn) finish() {
	t.mu.Lock()
	t.ended = true
	t.mu.Unlock()
}

// RequestPermission asks the client for permission with
// session/request_permission. When the turn is cancelled meanwhile, the
// request is withdrawn ($/cancel_request) and the answer is the cancelled
// outcome, as the protocol asks of a client for a cancelled turn.
func (t *Turn) RequestPermission(ctx context.Context, p *RequestPermissionRequest) (*RequestPermissionResponse, error) {
	if t.Cancelled() {
		return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled()), nil
	}
	ctx, stop := t.join(ctx)
	defer stop()
	res, err := t.runner.conn.RequestPermission(ctx, p)
	if err != nil && t.Cancelled() {
		return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled()), nil
	}
	return res, err
}

// CreateElicitation asks the client for input with elicitation/create.
// When the turn is cancelled meanwhile, the request is withdrawn and the
// answer is the action cancel.
func (t *Turn) CreateElicitation(ctx context.Context, p *CreateElicitationRequest) (*CreateElicitationResponse, error) {
	if t.Cancelled() {
		r := NewCreateElicitationResponseCancel()
		return &r, nil
	}
	ctx, stop := t.join(ctx)
	defer stop()
	res, err := t.runner.conn.CreateElicitation(ctx, p)
	if err != nil && t.Cancelled() {
		r := NewCreateElicitationResponseCancel()
		return &r, nil
	}
	return res, err
}

// join returns a context that ends with ctx and with the turn.
func (t *Turn) join(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	stopAfter := context.AfterFunc(t.ctx, cancel)
	return ctx, func() {
		stopAfter()
		cancel()
	}
}

// stopReason is the stop reason of the turn that ended with err, or the
// error that answers its prompt instead.
func (t *Turn) stopReason(err error) (StopReason, error) {
	var stop *TurnStop
	var rpcErr *Error
	switch {
	case t.Cancelled(), t.ctx.Err() != nil && err != nil:
		return StopReasonCancelled, nil
	case err == nil:
		return StopReasonEndTurn, nil
	case errors.As(err, &stop):
		return stop.Reason, nil
	case errors.As(err, &rpcErr):
		return "", rpcErr
	}
	return "", NewInternalError(map[string]string{"details": err.Error()})
}
