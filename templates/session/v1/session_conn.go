//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// SessionEvent is one session update as an ActiveSession hands it out: the
// notification, and what it changed in the session's state (already
// applied when the event is read).
type SessionEvent struct {
	// Notification is the session/update notification as received.
	Notification *SessionNotification
	// Change is what the update changed in the session's state.
	Change SessionChange
	// Plans are copies of the plans the update changed as it left them,
	// in the order of Change.Plans (a removed plan is not among them):
	// what the event produced, whatever updates State has had since.
	Plans []PlanState
	// ToolCalls are copies of the tool calls the update changed as it
	// left them, in the order of Change.ToolCalls.
	ToolCalls []ToolCall
}

// SessionRouter routes the session updates a client receives to the
// sessions it started, each with its state. Embed it in the value that
// implements Client (its SessionUpdate method is that of the Client
// interface), pass that value to NewClientSideConnection, and start
// sessions with NewSession, LoadSession or ResumeSession. The zero value is
// ready to use; a SessionRouter must not be copied after first use.
//
// Updates for a session the router does not route yet (those an agent
// sends before the result of session/new is read) are kept, up to 1024,
// and handed to the session when it starts; Unrouted, if set, receives
// instead the updates of any session the router does not route.
type SessionRouter struct {
	// Unrouted, if not nil, is called with the updates of sessions that are
	// not routed, in order, instead of their being kept.
	Unrouted func(ctx context.Context, n *SessionNotification) error
	// CancelWait bounds the wait of an ActiveSession's Prompt and Cancel
	// for the agent to end a turn they cancelled; DefaultCancelWait when
	// zero.
	CancelWait time.Duration

	mu       sync.Mutex
	sessions map[SessionID]*ActiveSession
	pending  []*SessionNotification
}

// SessionUpdate routes one session update to its session: it is applied to
// the session's state and queued for Next. It never blocks on a reader.
func (r *SessionRouter) SessionUpdate(ctx context.Context, n *SessionNotification) error {
	return r.route(ctx, n)
}

// sessionNotification is the notification of session/update.
type sessionNotification = SessionNotification

// NewSession creates a session with session/new on conn and routes its
// updates.
func (r *SessionRouter) NewSession(ctx context.Context, conn *ClientSideConnection, p *NewSessionRequest) (*ActiveSession, *NewSessionResponse, error) {
	res, err := conn.NewSession(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	s := r.start(conn, res.SessionID)
	s.state.opened(res.Modes, res.ConfigOptions)
	return s, res, nil
}

// LoadSession loads session p.SessionID with session/load on conn and
// routes its updates, the history the agent replays included.
func (r *SessionRouter) LoadSession(ctx context.Context, conn *ClientSideConnection, p *LoadSessionRequest) (*ActiveSession, *LoadSessionResponse, error) {
	s := r.start(conn, p.SessionID)
	res, err := conn.LoadSession(ctx, p)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	s.state.opened(res.Modes, res.ConfigOptions)
	return s, res, nil
}

// ResumeSession resumes session p.SessionID with session/resume on conn
// and routes its updates.
func (r *SessionRouter) ResumeSession(ctx context.Context, conn *ClientSideConnection, p *ResumeSessionRequest) (*ActiveSession, *ResumeSessionResponse, error) {
	s := r.start(conn, p.SessionID)
	res, err := conn.ResumeSession(ctx, p)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	s.state.opened(res.Modes, res.ConfigOptions)
	return s, res, nil
}

// ActiveSession is one session that a SessionRouter routes: its updates in
// order (Next) and its state (State).
type ActiveSession struct {
	id     SessionID
	conn   *ClientSideConnection
	router *SessionRouter
	state  *SessionState
	queue  *sessionQueue
	once   sync.Once
	closed chan struct{}

	turnMu sync.Mutex
	turn   *promptTurn // the prompt turn Prompt runs, if any
}

func (s *ActiveSession) deliver(n *SessionNotification) {
	change := s.state.Apply(n.Update)
	plans, calls := s.state.changed(change)
	s.queue.push(SessionEvent{Notification: n, Change: change, Plans: plans, ToolCalls: calls})
}

// Prompt runs a prompt turn with session/prompt and returns the agent's
// answer. When ctx ends before the turn does, Prompt cancels the turn the
// protocol's way, as Cancel does (session/cancel, the session's permission
// requests answered cancelled, those pending and those that come until the
// turn ends), and returns the agent's answer, whose stop reason is
// cancelled; an agent that does not end the turn within the router's
// CancelWait of
// session/cancel has the request itself cancelled, and Prompt returns an
// error that wraps ErrCancelIgnored and ctx's error.
func (s *ActiveSession) Prompt(ctx context.Context, prompt []ContentBlock) (*PromptResponse, error) {
	t := &promptTurn{done: make(chan struct{})}
	s.turnMu.Lock()
	s.turn = t
	s.turnMu.Unlock()
	defer s.endTurn(t)
	call, stopCall := context.WithCancel(context.WithoutCancel(ctx))
	defer stopCall()
	go func() {
		t.res, t.err = s.conn.Prompt(call, NewPromptRequest(s.id, prompt))
		close(t.done)
	}()
	select {
	case <-t.done:
		return t.res, t.err
	case <-ctx.Done():
	}
	if err := s.cancelTurn(context.WithoutCancel(ctx)); err != nil {
		stopCall()
		<-t.done
		return nil, fmt.Errorf("session/cancel: %w", err)
	}
	wait := s.router.CancelWait
	if wait <= 0 {
		wait = DefaultCancelWait
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-t.done:
		return t.res, t.err
	case <-timer.C:
	}
	stopCall() // $/cancel_request: the call returns at once
	<-t.done
	return nil, fmt.Errorf("%w within %v of session/cancel: %w", ErrCancelIgnored, wait, ctx.Err())
}

// DefaultCancelWait is how long an ActiveSession's Prompt (once its
// context has ended) and Cancel wait, after session/cancel, for the agent
// to end the turn, when the SessionRouter's CancelWait is zero.
const DefaultCancelWait = 5 * time.Second

// ErrCancelIgnored is the error, wrapped, of a Prompt or a Cancel whose
// agent did not end the cancelled turn within the router's CancelWait.
var ErrCancelIgnored = errors.New("the agent did not end the cancelled turn")

// promptTurn is a prompt turn that Prompt runs.
type promptTurn struct {
	done     chan struct{} // closed once the call has returned, with res and err
	res      *PromptResponse
	err      error
	stopLate func() // ends the answering of late permission requests; nil before Cancel
}

// endTurn forgets turn t, once it has ended, and ends the answering of its
// late permission requests.
func (s *ActiveSession) endTurn(t *promptTurn) {
	s.turnMu.Lock()
	defer s.turnMu.Unlock()
	if s.turn == t {
		s.turn = nil
	}
	if t.stopLate != nil {
		t.stopLate()
	}
}

// cancelTurn sends session/cancel and answers the session's permission
// requests cancelled: at once those the client is serving, and, while a
// turn that Prompt runs goes on, those that come later.
func (s *ActiveSession) cancelTurn(ctx context.Context) error {
	pick := s.cancelledPermission
	s.turnMu.Lock()
	if t := s.turn; t != nil && t.stopLate == nil {
		t.stopLate = s.conn.answerWhile(pick)
	}
	s.turnMu.Unlock()
	if err := s.conn.Cancel(ctx, NewCancelNotification(s.id)); err != nil {
		return err
	}
	s.conn.answerServing(pick)
	return nil
}

// cancelledPermission returns the answer of a cancelled turn to an
// inbound request of the session: the cancelled outcome of a permission
// request, the action cancel of an elicitation; nil for any other request.
func (s *ActiveSession) cancelledPermission(method string, params any) any {
	return cancelledAnswer(s.id, method, params)
}

// Close stops routing the session's updates: later ones go where those of
// sessions not routed go, and Next returns ErrSessionClosed once the
// updates received before are read. It does not close the session on the
// agent (session/close does).
func (s *ActiveSession) Close() {
	s.once.Do(func() {
		s.router.stop(s)
		s.queue.close()
		close(s.closed)
	})
}

// SendPlan sends plan p of session id in the shape the client can read, by
// what it advertised in initialize: plan_update when it advertised the
// plan operations (the "plan" client capability, with
// unstable_plan_operations), otherwise a "plan" session update for an
// items plan (its id dropped), and for any other plan an error that wraps
// ErrPlanNotRepresentable, with nothing sent.
func (c *AgentSideConnection) SendPlan(ctx context.Context, id SessionID, p PlanState) error {
	if c.planOperations() {
		return c.sendPlanUpdate(ctx, id, p)
	}
	if p.Kind != PlanKindItems {
		return fmt.Errorf("a %s plan for a client without plan operations: %w", p.Kind, ErrPlanNotRepresentable)
	}
	u := NewSessionUpdatePlan(p.Entries)
	u.Value.(*SessionUpdatePlan).Meta = p.Meta
	return c.SessionUpdate(ctx, NewSessionNotification(id, u))
}

// RemovePlan sends the removal of plan planID of session id with
// plan_removed, to a client that advertised the plan operations; for any
// other client it returns an error that wraps ErrPlanNotRepresentable,
// with nothing sent.
func (c *AgentSideConnection) RemovePlan(ctx context.Context, id SessionID, planID string) error {
	if !c.planOperations() {
		return fmt.Errorf("removing plan %q for a client without plan operations: %w", planID, ErrPlanNotRepresentable)
	}
	return c.sendPlanRemoved(ctx, id, planID)
}

// planOperations reports whether the client advertised the plan
// operations in initialize.
func (c *AgentSideConnection) planOperations() bool {
	p := c.ClientInitialize()
	return p != nil && p.ClientCapabilities != nil && advertisesPlan(p.ClientCapabilities)
}

// cancelledAnswer returns the answer of a cancelled turn to an inbound
// request with method and params, for session id: the cancelled outcome
// of a permission request and the action cancel of an elicitation of the
// session, nil for any other.
func cancelledAnswer(id SessionID, method string, params any) any {
	switch method {
	case MethodRequestPermission:
		if sessionOf(params) == id {
			return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled())
		}
	case MethodCreateElicitation:
		if sessionOf(params) == id {
			r := NewCreateElicitationResponseCancel()
			return &r
		}
	}
	return nil
}

// sessionOf returns the sessionId member of params, a request's decoded
// params or its JSON, or "" when it has none.
func sessionOf(params any) SessionID {
	if p, ok := params.(*RequestPermissionRequest); ok {
		return p.SessionID
	}
	raw, ok := params.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(params)
		if err != nil {
			return ""
		}
		raw = b
	}
	var scope struct {
		SessionID SessionID `json:"sessionId"`
	}
	if json.Unmarshal(raw, &scope) != nil {
		return ""
	}
	return scope.SessionID
}
