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
	r.mu.Lock()
	s := r.sessions[n.SessionID]
	if s == nil {
		if r.Unrouted != nil {
			r.mu.Unlock()
			return r.Unrouted(ctx, n)
		}
		if len(r.pending) == maxPendingUpdates {
			r.pending = append(r.pending[:0], r.pending[1:]...)
		}
		r.pending = append(r.pending, n)
		r.mu.Unlock()
		return nil
	}
	r.mu.Unlock()
	s.deliver(n)
	return nil
}

// start routes the updates of session id to a new ActiveSession, those
// kept for it first.
func (r *SessionRouter) start(conn *ClientSideConnection, id SessionID) *ActiveSession {
	s := &ActiveSession{id: id, conn: conn, router: r, state: NewSessionState(id),
		queue: newSessionQueue(), closed: make(chan struct{})}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sessions == nil {
		r.sessions = map[SessionID]*ActiveSession{}
	}
	r.sessions[id] = s
	kept := r.pending[:0]
	for _, n := range r.pending {
		if n.SessionID == id {
			s.deliver(n)
		} else {
			kept = append(kept, n)
		}
	}
	r.pending = kept
	return s
}

func (r *SessionRouter) stop(s *ActiveSession) {
	r.mu.Lock()
	if r.sessions[s.id] == s {
		delete(r.sessions, s.id)
	}
	r.mu.Unlock()
}

// NewSession creates a session with session/new on conn and routes its
// updates.
func (r *SessionRouter) NewSession(ctx context.Context, conn *ClientSideConnection, p *NewSessionRequest) (*ActiveSession, *NewSessionResponse, error) {
	res, err := conn.NewSession(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	s := r.start(conn, res.SessionID)
	s.state.setCommands(res.AvailableCommands)
	if res.ConfigOptions != nil {
		s.state.SetConfigOptions(res.ConfigOptions)
	}
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
	s.state.setCommands(res.AvailableCommands)
	if res.ConfigOptions != nil {
		s.state.SetConfigOptions(res.ConfigOptions)
	}
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
	s.queue.push(SessionEvent{Notification: n, Change: change})
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

// ID returns the session's id.
func (s *ActiveSession) ID() SessionID { return s.id }

// State returns the session's state, which every routed update has
// already changed when Next returns it.
func (s *ActiveSession) State() *SessionState { return s.state }

// Next returns the session's next update, waiting until one arrives or ctx
// ends. Once the session is closed or its connection has ended, it returns
// the updates received before and then ErrSessionClosed, wrapped with why
// the connection ended when it has (for an agent process, its exit status
// or signal and its last lines of standard error).
func (s *ActiveSession) Next(ctx context.Context) (SessionEvent, error) {
	ev, err := s.queue.next(ctx, s.closed, s.conn.Done(), ErrSessionClosed)
	return ev, withCause(err, s.conn.Err())
}

// Prompt sends a prompt to the session with session/prompt.
func (s *ActiveSession) Prompt(ctx context.Context, prompt []ContentBlock) (*PromptResponse, error) {
	return s.conn.Prompt(ctx, NewPromptRequest(s.id, prompt))
}

// SetConfigOption sets a config option with session/set_config_option (for
// the session, whatever p.SessionID says) and replaces the session's config
// options with the whole list of the result.
func (s *ActiveSession) SetConfigOption(ctx context.Context, p *SetSessionConfigOptionRequest) (*SetSessionConfigOptionResponse, error) {
	q := *p
	q.SessionID = s.id
	res, err := s.conn.SetSessionConfigOption(ctx, &q)
	if err != nil {
		return nil, err
	}
	s.state.SetConfigOptions(res.ConfigOptions)
	return res, nil
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

// ClientInitialize returns the params of the last initialize request the
// connection answered with a result: what the client advertised. It
// returns nil before then.
func (c *AgentSideConnection) ClientInitialize() *InitializeRequest {
	c.mu.Lock()
	p, _ := c.served.(*InitializeRequest)
	c.mu.Unlock()
	return p
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
