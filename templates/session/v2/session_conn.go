//go:build ignore

package acp

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// SessionEvent is one session update as an ActiveSession hands it out: the
// notification, and what it changed in the session's state (already
// applied when the event is read).
type SessionEvent struct {
	// Notification is the session/update notification as received.
	Notification *UpdateSessionNotification
	// Change is what the update changed in the session's state.
	Change SessionChange
	// Plans are copies of the plans the update changed as it left them,
	// in the order of Change.Plans (a removed plan is not among them):
	// what the event produced, whatever updates State has had since.
	Plans []PlanState
	// ToolCalls are copies of the tool calls the update changed as it
	// left them, in the order of Change.ToolCalls.
	ToolCalls []ToolCallState
}

// SessionRouter routes the session updates a client receives to the
// sessions it started, each with its state. Embed it in the value that
// implements Client (its UpdateSession method is that of the Client
// interface), pass that value to NewClientSideConnection, and start
// sessions with NewSession or ResumeSession. The zero value is
// ready to use; a SessionRouter must not be copied after first use.
//
// Updates for a session the router does not route yet (those an agent
// sends before the result of session/new is read) are kept, up to 1024,
// and handed to the session when it starts; Unrouted, if set, receives
// instead the updates of any session the router does not route.
type SessionRouter struct {
	// Unrouted, if not nil, is called with the updates of sessions that are
	// not routed, in order, instead of their being kept.
	Unrouted func(ctx context.Context, n *UpdateSessionNotification) error
	// CancelWait bounds the wait of an ActiveSession's Cancel for the agent
	// to end the turn it cancelled; DefaultCancelWait when zero.
	CancelWait time.Duration

	mu       sync.Mutex
	sessions map[SessionID]*ActiveSession
	pending  []*UpdateSessionNotification
}

// UpdateSession routes one session update to its session: it is applied to
// the session's state and queued for Next. It never blocks on a reader.
func (r *SessionRouter) UpdateSession(ctx context.Context, n *UpdateSessionNotification) error {
	return r.route(ctx, n)
}

// sessionNotification is the notification of session/update.
type sessionNotification = UpdateSessionNotification

// NewSession creates a session with session/new on conn and routes its
// updates.
func (r *SessionRouter) NewSession(ctx context.Context, conn *ClientSideConnection, p *NewSessionRequest) (*ActiveSession, *NewSessionResponse, error) {
	res, err := conn.NewSession(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	s := r.start(conn, res.SessionID)
	s.state.opened(res.AvailableCommands, res.ConfigOptions)
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
	s.state.opened(res.AvailableCommands, res.ConfigOptions)
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

	mu       sync.Mutex
	refusing func() // ends what Cancel answers at once; nil when it answers nothing
}

func (s *ActiveSession) deliver(n *UpdateSessionNotification) {
	change := s.state.Apply(n.Update)
	if u, ok := n.Update.Value.(*SessionUpdateStateUpdate); ok && change.State && isIdle(u.StateUpdate) {
		s.stopRefusing()
	}
	plans, calls := s.state.changed(change)
	s.queue.push(SessionEvent{Notification: n, Change: change, Plans: plans, ToolCalls: calls})
}

// stopRefusing ends what Cancel answers at once (see
// ActiveSession.Cancel): the session is idle, or closed.
func (s *ActiveSession) stopRefusing() {
	s.mu.Lock()
	remove := s.refusing
	s.refusing = nil
	s.mu.Unlock()
	if remove != nil {
		remove()
	}
}

// isIdle reports whether u is the state idle.
func isIdle(u StateUpdate) bool {
	_, ok := u.Value.(*StateUpdateIdle)
	return ok
}

// Prompt sends a prompt to the session with session/prompt.
func (s *ActiveSession) Prompt(ctx context.Context, prompt []ContentBlock) (*PromptResponse, error) {
	return s.conn.Prompt(ctx, NewPromptRequest(s.id, prompt))
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
		s.stopRefusing()
	})
}

// SendPlan sends plan p of session id with plan_update, which every v2
// client reads. Markdown and file plans need unstable_plan_operations;
// without it, and for an unknown plan kind without its raw content, it
// returns an error that wraps ErrPlanNotRepresentable, with nothing sent.
func (c *AgentSideConnection) SendPlan(ctx context.Context, id SessionID, p PlanState) error {
	content, err := contentOf(p)
	if err != nil {
		return err
	}
	return c.UpdateSession(ctx, NewUpdateSessionNotification(id, NewSessionUpdatePlanUpdate(content)))
}

// RemovePlan sends the removal of plan planID of session id with
// plan_removed, which needs unstable_plan_operations; without it, it
// returns an error that wraps ErrPlanNotRepresentable, with nothing sent.
func (c *AgentSideConnection) RemovePlan(ctx context.Context, id SessionID, planID string) error {
	return c.sendPlanRemoved(ctx, id, planID)
}

// contentOf is the plan_update content of p.
func contentOf(p PlanState) (PlanUpdateContent, error) {
	id := PlanID(p.ID)
	switch p.Kind {
	case PlanKindItems:
		c := NewPlanUpdateContentItems(id, p.Entries)
		c.Value.(*PlanUpdateContentItems).Meta = p.Meta
		return c, nil
	case PlanKindMarkdown, PlanKindFile:
		return taggedContentOf(p)
	}
	if p.Raw == nil {
		return PlanUpdateContent{}, fmt.Errorf("a %q plan without its raw content: %w", p.Kind, ErrPlanNotRepresentable)
	}
	return PlanUpdateContent{Value: &PlanUpdateContentOther{Tag: string(p.Kind), PlanID: id, Raw: p.Raw}}, nil
}
