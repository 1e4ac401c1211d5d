//go:build ignore

package acp

import "context"

// route routes one session update to its session (see SessionRouter): it
// is applied to the session's state and queued for Next, or kept, or
// handed to Unrouted. It never blocks on a reader.
func (r *SessionRouter) route(ctx context.Context, n *sessionNotification) error {
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

// ClientInitialize returns the params of the last initialize request the
// connection answered with a result: what the client advertised. It
// returns nil before then.
func (c *AgentSideConnection) ClientInitialize() *InitializeRequest {
	c.mu.Lock()
	p, _ := c.served.(*InitializeRequest)
	c.mu.Unlock()
	return p
}
