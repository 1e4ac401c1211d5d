//go:build ignore

package acp

import (
	"context"
	"strconv"
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
// TurnOptions.NewID) in the working directory the request names.
func (r *TurnRunner) NewSession(ctx context.Context, p *NewSessionRequest) (*NewSessionResponse, error) {
	id := SessionID(r.newID("sess_"))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sessions[id] = &turnSession{id: id, cwd: p.Cwd, state: NewSessionState(id), changed: make(chan struct{})}
	r.order = append(r.order, id)
	return NewNewSessionResponse(id), nil
}

// listPage is how many sessions one session/list answer holds at most.
const listPage = 100

// ListSessions answers session/list: the sessions of the runner in the
// order they were created, those of the working directory the request
// names when it names one, with their titles and update times as session
// info updates set them; listPage at a time, the cursor being the position
// of the next.
func (r *TurnRunner) ListSessions(ctx context.Context, p *ListSessionsRequest) (*ListSessionsResponse, error) {
	start := 0
	if p.Cursor != nil {
		n, err := strconv.Atoi(string(*p.Cursor))
		if err != nil || n < 0 {
			return nil, NewInvalidParamsError(map[string]string{"details": "the cursor was not given by this agent", "path": "cursor"})
		}
		start = n
	}
	r.mu.Lock()
	var kept []*turnSession
	for _, id := range r.order {
		if s := r.sessions[id]; p.Cwd == nil || s.cwd == *p.Cwd {
			kept = append(kept, s)
		}
	}
	r.mu.Unlock()
	res := NewListSessionsResponse([]SessionInfo{})
	for i := start; i < len(kept) && i < start+listPage; i++ {
		snap := kept[i].state.Snapshot()
		res.Sessions = append(res.Sessions, SessionInfo{SessionID: kept[i].id, Cwd: kept[i].cwd, Title: snap.Title, UpdatedAt: snap.UpdatedAt})
	}
	if start+listPage < len(kept) {
		next := SessionListCursor(strconv.Itoa(start + listPage))
		res.NextCursor = &next
	}
	return res, nil
}

// ResumeSession answers session/resume of a session the runner keeps:
// the history from the request's replayFrom, by TurnOptions.Replay, then
// the session's current state as a state_update (the running turn's
// running or requires_action, or idle with the last turn's stop reason),
// then the answer, with the session's config options and commands.
func (r *TurnRunner) ResumeSession(ctx context.Context, p *ResumeSessionRequest) (*ResumeSessionResponse, error) {
	r.mu.Lock()
	s := r.sessions[p.SessionID]
	r.mu.Unlock()
	if s == nil {
		return nil, unknownSession(p.SessionID)
	}
	if p.ReplayFrom != nil {
		if r.opts.Replay == nil {
			return nil, NewInvalidParamsError(map[string]string{"details": "this agent keeps no history to replay", "path": "replayFrom"})
		}
		if err := r.opts.Replay(ctx, p.SessionID, *p.ReplayFrom); err != nil {
			return nil, err
		}
	}
	s.send.Lock()
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
	return res, nil
}

// CloseSession answers session/close: the running turn is cancelled and
// its end (its idle update, stop reason cancelled) awaited, the held
// prompts, and those read before the close, are answered -32800, and the
// runner forgets the session (but for the close's arrival number). A
// session it does not keep is closed already: that succeeds.
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
	return NewCloseSessionResponse(), nil
}
