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
// TurnFunc returns.
type Turn struct {
	runner    *TurnRunner
	session   *turnSession
	request   *PromptRequest
	user      MessageID // the inserted user message's id
	reply     MessageID // the id of the agent's message that Say adds to
	ctx       context.Context
	cancel    context.CancelFunc
	cancelled atomic.Bool     // by session/cancel or session/close
	done      chan struct{}   // closed once the turn has ended
	saveCtx   context.Context // ctx without its cancellation, for the store
	stopConn  func() bool     // stops ctx following the connection's end

	mu      sync.Mutex  // orders the state updates of the calls
	waiting int         // calls that wait on the client
	ended   atomic.Bool // the TurnFunc has returned; set with mu held
}

// SessionID returns the id of the turn's session.
func (t *Turn) SessionID() SessionID { return t.session.id }

// Request returns the session/prompt request of the turn.
func (t *Turn) Request() *PromptRequest { return t.request }

// SessionRequest returns the parameters of the request that created the
// turn's session: its working directory, MCP servers and _meta, as
// received. The session's record keeps them: a session the runner serves
// again from its store has them too.
func (t *Turn) SessionRequest() *NewSessionRequest {
	s := t.session
	s.send.Lock()
	rec := s.rec
	p := &NewSessionRequest{Cwd: AbsolutePath(rec.Cwd), Meta: append(json.RawMessage(nil), rec.Meta...)}
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

// Plan sends plan planID of the turn's session, entries being all of it,
// as a plan_update, and records it in the session's state.
func (t *Turn) Plan(ctx context.Context, planID PlanID, entries []PlanEntry) error {
	return t.Update(ctx, NewSessionUpdatePlanUpdate(NewPlanUpdateContentItems(planID, entries)))
}

// UserMessageID returns the id of the user message the prompt inserted,
// with which session/prompt was answered.
func (t *Turn) UserMessageID() MessageID { return t.user }

// AgentMessageID returns the id of the agent message that Say adds to,
// new for each turn.
func (t *Turn) AgentMessageID() MessageID { return t.reply }

// Cancelled reports whether the client cancelled the turn (session/cancel
// or session/close); the TurnFunc's context is cancelled then too.
func (t *Turn) Cancelled() bool { return t.cancelled.Load() }

// Say sends text as a chunk of the agent's message of this turn.
func (t *Turn) Say(ctx context.Context, text string) error {
	return t.Update(ctx, NewSessionUpdateAgentMessageChunk(t.reply, NewContentBlockText(text)))
}

// Update sends session update u of the turn's session and records it in
// the session's state. After the turn has been cancelled, ctx (the
// TurnFunc's, or one derived from it) is done: send the final updates of
// cancelled work with context.WithoutCancel(ctx).
func (t *Turn) Update(ctx context.Context, u SessionUpdate) error {
	if t.ended.Load() {
		return errTurnEnded
	}
	save := t.saveCtx
	if ctx != t.ctx {
		save = context.WithoutCancel(ctx)
	}
	return t.runner.emitWith(ctx, save, t.session, u)
}

// RequestPermission asks the client for permission with
// session/request_permission, the session requires_action while it waits
// and running again after. When the turn is cancelled meanwhile, the
// request is cancelled ($/cancel_request) and the answer is the cancelled
// outcome.
func (t *Turn) RequestPermission(ctx context.Context, p *RequestPermissionRequest) (*RequestPermissionResponse, error) {
	ctx, stop := t.join(ctx)
	defer stop()
	t.block()
	res, err := t.runner.conn.RequestPermission(ctx, p)
	t.unblock()
	if err != nil && t.Cancelled() {
		return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled()), nil
	}
	return res, err
}

// CreateElicitation asks the client for input with elicitation/create,
// the session requires_action while it waits and running again after.
// When the turn is cancelled meanwhile, the request is cancelled and the
// answer is the action cancel.
func (t *Turn) CreateElicitation(ctx context.Context, p *CreateElicitationRequest) (*CreateElicitationResponse, error) {
	ctx, stop := t.join(ctx)
	defer stop()
	t.block()
	res, err := t.runner.conn.CreateElicitation(ctx, p)
	t.unblock()
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

// block records a call that waits on the client: the first makes the
// session requires_action.
func (t *Turn) block() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.waiting++
	if t.waiting == 1 && !t.ended.Load() && !t.Cancelled() {
		_ = t.runner.sendState(t, NewSessionUpdateStateUpdate(NewStateUpdateRequiresAction()))
	}
}

// unblock records the end of such a call: once none waits, the session is
// running again, unless the turn was cancelled (its idle update follows).
func (t *Turn) unblock() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.waiting--
	if t.waiting == 0 && !t.ended.Load() && !t.Cancelled() {
		_ = t.runner.sendState(t, NewSessionUpdateStateUpdate(NewStateUpdateRunning()))
	}
}

// stopReason is the stop reason of the turn that ended with err.
func (t *Turn) stopReason(err error) IdleStateUpdate {
	var stop *TurnStop
	var rpcErr *Error
	switch {
	case t.Cancelled():
		return NewIdleStateUpdateCancelled()
	case err == nil:
		return NewIdleStateUpdateEndTurn()
	case errors.As(err, &stop):
		return stop.Reason
	case !errors.As(err, &rpcErr):
		rpcErr = NewInternalError(map[string]string{"details": err.Error()})
	}
	return IdleStateUpdate{Value: &IdleStateUpdateError{ErrorStopReason: ErrorStopReason{Error: rpcErr}}}
}
