//go:build ignore

package acp

import (
	"context"
	"errors"
	"strings"
)

// SessionAgent is an Agent that serves sessions: what an agent promises
// when its initialize result advertises capabilities.session, which in v2
// means session/list, session/resume and session/close besides
// session/new, session/prompt, session/cancel and session/update. The
// connection holds an agent to it: an initialize result that advertises
// capabilities.session from an agent that is not a SessionAgent is not
// written, and the request is answered -32603 naming the missing methods.
// An agent that embeds a *TurnRunner is one.
type SessionAgent interface {
	Agent
	AgentListSessions
	AgentResumeSession
	AgentCloseSession
}

func init() { initializeContract = sessionContract }

// sessionContract checks that an agent that advertises
// capabilities.session in its initialize result serves the sessions.
func sessionContract(impl, result any) error {
	r, _ := result.(*InitializeResponse)
	if r == nil || r.Capabilities == nil || r.Capabilities.Session == nil {
		return nil
	}
	var missing []string
	if _, ok := impl.(AgentListSessions); !ok {
		missing = append(missing, MethodListSessions)
	}
	if _, ok := impl.(AgentResumeSession); !ok {
		missing = append(missing, MethodResumeSession)
	}
	if _, ok := impl.(AgentCloseSession); !ok {
		missing = append(missing, MethodCloseSession)
	}
	if missing == nil {
		return nil
	}
	return NewInternalError(map[string]string{"details": "the agent advertises capabilities.session but does not serve " +
		strings.Join(missing, ", ") + " (it is not a SessionAgent)"})
}

// NewSession answers session/new: a session with a new id (see
// TurnOptions.NewID) in the working directory the request names, kept in
// the store with the request's MCP servers and _meta.
func (r *TurnRunner) NewSession(ctx context.Context, p *NewSessionRequest) (*NewSessionResponse, error) {
	id := SessionID(r.newID("sess_"))
	rec, err := r.newRecord(ctx, id, p)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sessions[id] = &turnSession{id: id, cwd: p.Cwd, rec: rec, state: NewSessionState(id), changed: make(chan struct{})}
	r.order = append(r.order, id)
	return NewNewSessionResponse(id), nil
}

// listPage is how many sessions one session/list answer holds at most.
const listPage = 100

// ListSessions answers session/list: the sessions of the store (of every
// runner that shares it) in the order they were created, those of the
// working directory the request names when it names one, with their
// titles and update times as session info updates set them; listPage at
// a time.
func (r *TurnRunner) ListSessions(ctx context.Context, p *ListSessionsRequest) (*ListSessionsResponse, error) {
	q := SessionQuery{Protocol: protocolVersion, Limit: listPage}
	if p.Cwd != nil {
		q.Cwd = string(*p.Cwd)
	}
	if p.Cursor != nil {
		q.Cursor = string(*p.Cursor)
	}
	page, next, err := r.store.List(ctx, q)
	if errors.Is(err, ErrBadCursor) {
		return nil, NewInvalidParamsError(map[string]string{"details": "the cursor was not given by this agent", "path": "cursor"})
	}
	if err != nil {
		return nil, err
	}
	res := NewListSessionsResponse([]SessionInfo{})
	for _, rec := range page {
		info := SessionInfo{SessionID: rec.ID, Cwd: AbsolutePath(rec.Cwd), Title: rec.Title}
		if rec.UpdatedAt != "" {
			info.UpdatedAt = Ptr(rec.UpdatedAt)
		}
		res.Sessions = append(res.Sessions, info)
	}
	if next != "" {
		cursor := SessionListCursor(next)
		res.NextCursor = &cursor
	}
	return res, nil
}

// ResumeSession answers session/resume of a session the runner serves or
// its store keeps (served by the runner from then on): the history from
// the request's replayFrom (see TurnOptions.Replay and Store), then
// the session's current state as a state_update (the running turn's
// running or requires_action, or idle with the last turn's stop reason),
// then the answer, with the session's config options and commands, and,
// when the store had dropped the oldest updates of the history it
// replayed, how many in _meta (HistoryDroppedMeta).
func (r *TurnRunner) ResumeSession(ctx context.Context, p *ResumeSessionRequest) (*ResumeSessionResponse, error) {
	r.mu.Lock()
	s := r.sessions[p.SessionID]
	r.mu.Unlock()
	if s == nil {
		var err error
		if s, err = r.stored(ctx, p.SessionID); err != nil {
			return nil, err
		}
	}
	if s == nil {
		return nil, unknownSession(p.SessionID)
	}
	if p.ReplayFrom != nil {
		if err := r.replay(context.WithValue(ctx, replayKey{}, true), s, *p.ReplayFrom); err != nil {
			return nil, err
		}
	}
	s.send.Lock()
	dropped := s.rec.Dropped
	snap := s.state.Snapshot()
	state := NewStateUpdateIdle(NewIdleStateUpdateNone())
	if snap.State != nil {
		state = *snap.State
	}
	err := r.conn.UpdateSession(ctx, NewUpdateSessionNotification(s.id, NewSessionUpdateStateUpdate(state)))
	s.send.Unlock()
	if err != nil {
		return nil, err
	}
	res := NewResumeSessionResponse()
	res.ConfigOptions, res.AvailableCommands = snap.ConfigOptions, snap.AvailableCommands
	if p.ReplayFrom != nil && r.opts.Replay == nil && dropped > 0 {
		res.Meta, _ = appendAny(nil, map[string]uint64{HistoryDroppedMeta: dropped})
	}
	return res, nil
}

// HistoryDroppedMeta is the _meta key with which the answer to a
// session/resume that replayed the store's history says how many of the
// session's oldest updates were not replayed, the store having dropped
// them past its bound.
const HistoryDroppedMeta = "acpgen.dev/historyDropped"

// CloseSession answers session/close: the running turn is cancelled and
// its end (its idle update, stop reason cancelled) awaited, the held
// prompts, and those read before the close, are answered -32800, and the
// runner forgets the session (but for the close's arrival number), and
// its store too. A session it does not keep is closed already: that
// succeeds.
func (r *TurnRunner) CloseSession(ctx context.Context, p *CloseSessionRequest) (*CloseSessionResponse, error) {
	r.mu.Lock()
	s := r.sessions[p.SessionID]
	var t *Turn
	if s != nil {
		r.cancelLocked(s)
		t = s.turn
		delete(r.sessions, s.id)
		r.closed[s.id] = requestSeq(ctx)
		for i, id := range r.order {
			if id == s.id {
				r.order = append(r.order[:i:i], r.order[i+1:]...)
				break
			}
		}
	}
	r.mu.Unlock()
	if t != nil {
		select {
		case <-t.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err := r.store.Delete(ctx, p.SessionID); err != nil {
		return nil, err
	}
	return NewCloseSessionResponse(), nil
}
