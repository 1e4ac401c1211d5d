//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

func init() { initializeContract = sessionContract }

// sessionContract checks that an agent serves what its initialize result
// advertises: session/load for loadSession, and session/list, resume,
// close and delete for the session capabilities of those names. An
// initialize result that advertises one the agent does not serve is not
// written: the request is answered -32603 naming the missing methods. An
// agent that embeds a *TurnRunner serves them all.
func sessionContract(impl, result any) error {
	r, _ := result.(*InitializeResponse)
	if r == nil || r.AgentCapabilities == nil {
		return nil
	}
	c := r.AgentCapabilities
	var missing []string
	need := func(advertised, served bool, method string) {
		if advertised && !served {
			missing = append(missing, method)
		}
	}
	_, load := impl.(AgentLoadSession)
	need(c.LoadSession != nil && *c.LoadSession, load, MethodLoadSession)
	if s := c.SessionCapabilities; s != nil {
		_, list := impl.(AgentListSessions)
		_, resume := impl.(AgentResumeSession)
		_, closing := impl.(AgentCloseSession)
		_, deleting := impl.(AgentDeleteSession)
		need(s.List != nil, list, MethodListSessions)
		need(s.Resume != nil, resume, MethodResumeSession)
		need(s.Close != nil, closing, MethodCloseSession)
		need(s.Delete != nil, deleting, MethodDeleteSession)
	}
	if missing == nil {
		return nil
	}
	return NewInternalError(map[string]string{"details": "the agent advertises " + strings.Join(missing, ", ") +
		" in its capabilities but does not serve it"})
}

// NewSession answers session/new: a session with a new id (see
// TurnOptions.NewID) in the working directory the request names, with the
// modes and config options of TurnOptions.
func (r *TurnRunner) NewSession(ctx context.Context, p *NewSessionRequest) (*NewSessionResponse, error) {
	rec := &SessionRecord{ID: SessionID(r.newID("sess_")), Protocol: protocolVersion, Cwd: p.Cwd,
		Created: time.Now(), UpdatedAt: time.Now().UTC().Format(time.RFC3339), Meta: p.Meta}
	rec.MCPServers, _ = appendAny(nil, p.MCPServers)
	if r.opts.Modes != nil {
		rec.Modes, _ = appendAny(nil, r.opts.Modes)
	}
	if r.opts.ConfigOptions != nil {
		rec.ConfigOptions, _ = appendAny(nil, r.opts.ConfigOptions)
	}
	if err := r.store.Save(ctx, rec); err != nil {
		return nil, err
	}
	r.attach(rec)
	res := NewNewSessionResponse(rec.ID)
	res.Modes, res.ConfigOptions = r.opts.Modes, r.opts.ConfigOptions
	return res, nil
}

// attach serves the session of rec on this runner, and returns it.
func (r *TurnRunner) attach(rec *SessionRecord) *turnSession {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.sessions[rec.ID]; s != nil {
		return s
	}
	s := &turnSession{id: rec.ID, rec: rec, changed: make(chan struct{})}
	r.sessions[rec.ID] = s
	delete(r.closed, rec.ID)
	return s
}

// session returns session id, served on this runner or read from the
// store, and attaches it; meta and servers, when not nil, replace those
// of its record, as a session/load or resume gives them.
func (r *TurnRunner) session(ctx context.Context, id SessionID, cwd string, servers []MCPServer, meta json.RawMessage) (*turnSession, error) {
	r.mu.Lock()
	s := r.sessions[id]
	r.mu.Unlock()
	if s == nil {
		rec, err := r.store.Load(ctx, id)
		switch {
		case errors.Is(err, ErrSessionNotStored) || err == nil && rec.Protocol != protocolVersion:
			return nil, unknownSession(id)
		case err != nil:
			return nil, err
		}
		s = r.attach(rec)
	}
	s.send.Lock()
	defer s.send.Unlock()
	s.rec.Cwd, s.rec.Meta = cwd, meta
	s.rec.MCPServers, _ = appendAny(nil, servers)
	if err := r.store.Save(ctx, s.rec); err != nil {
		return nil, err
	}
	return s, nil
}

// LoadSession answers session/load: the session's history, as the store
// retains it (or TurnOptions.Replay replays it), is sent again before the
// answer, which gives the session's modes and config options.
func (r *TurnRunner) LoadSession(ctx context.Context, p *LoadSessionRequest) (*LoadSessionResponse, error) {
	s, err := r.session(ctx, p.SessionID, p.Cwd, p.MCPServers, p.Meta)
	if err != nil {
		return nil, err
	}
	if err := r.replay(ctx, s); err != nil {
		return nil, storeError(r.conn.cfg.logger, err) // TurnOptions.Replay's too
	}
	r.mu.Lock()
	interrupted := s.turn == nil && len(s.held) == 0
	r.mu.Unlock()
	res := NewLoadSessionResponse()
	res.Modes, res.ConfigOptions, res.Meta = s.current(interrupted)
	return res, nil
}

// ResumeSession answers session/resume: the session is served again,
// without its history, with its modes and config options.
func (r *TurnRunner) ResumeSession(ctx context.Context, p *ResumeSessionRequest) (*ResumeSessionResponse, error) {
	s, err := r.session(ctx, p.SessionID, p.Cwd, p.MCPServers, p.Meta)
	if err != nil {
		return nil, err
	}
	res := NewResumeSessionResponse()
	res.Modes, res.ConfigOptions, _ = s.current(false)
	return res, nil
}

// current returns the modes and config options of s, and the _meta that
// says how much of its history the store dropped, if any, and, when idle
// is true (no turn runs in s on this runner) and the store's record says
// a turn runs, that the turn was interrupted (TurnStateMeta).
func (s *turnSession) current(idle bool) (*SessionModeState, []SessionConfigOption, json.RawMessage) {
	s.send.Lock()
	defer s.send.Unlock()
	var modes *SessionModeState
	var options []SessionConfigOption
	if s.rec.Modes != nil {
		modes = new(SessionModeState)
		if json.Unmarshal(s.rec.Modes, modes) != nil {
			modes = nil
		}
	}
	if s.rec.ConfigOptions != nil {
		_ = json.Unmarshal(s.rec.ConfigOptions, &options)
	}
	m := map[string]any{}
	if s.rec.Dropped > 0 {
		m[HistoryDroppedMeta] = s.rec.Dropped
	}
	if idle && s.rec.Turn.State == TurnRunning {
		m[TurnStateMeta] = map[string]any{"state": "idle", "interrupted": true}
	}
	var meta json.RawMessage
	if len(m) > 0 {
		meta, _ = appendAny(nil, m)
	}
	return modes, options, meta
}

// TurnStateMeta is the _meta key of the answer to a session/load whose
// last turn was interrupted: the process that ran it ended before the
// turn did (a crash, a kill, a deploy), so its prompt was never answered.
// v1 has no state update; this is the advisory turn state of the durable
// transport RFD, {"state": "idle", "interrupted": true}. The replay before
// the answer holds what the turn sent before it was interrupted.
const TurnStateMeta = "acp/turnState"

// HistoryDroppedMeta is the _meta key with which the answer to a
// session/load says how many of the session's oldest updates were not
// replayed, the store having dropped them past its bound.
const HistoryDroppedMeta = "acpgen.dev/historyDropped"

// ListSessions answers session/list: the sessions of the store in the
// order they were created, those of the working directory the request
// names when it names one, 100 at a time.
func (r *TurnRunner) ListSessions(ctx context.Context, p *ListSessionsRequest) (*ListSessionsResponse, error) {
	q := SessionQuery{Protocol: protocolVersion, Limit: 100}
	if p.Cwd != nil {
		q.Cwd = *p.Cwd
	}
	if p.Cursor != nil {
		q.Cursor = *p.Cursor
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
		info := SessionInfo{SessionID: rec.ID, Cwd: rec.Cwd, Title: rec.Title}
		if rec.UpdatedAt != "" {
			info.UpdatedAt = Ptr(rec.UpdatedAt)
		}
		res.Sessions = append(res.Sessions, info)
	}
	if next != "" {
		res.NextCursor = &next
	}
	return res, nil
}

// CloseSession answers session/close: the running turn is cancelled and
// its end awaited, the held prompts, and those read before the close, are
// answered cancelled, and the runner stops serving the session, which
// stays in the store (session/load serves it again). A session the
// runner does not serve is closed already: that succeeds.
func (r *TurnRunner) CloseSession(ctx context.Context, p *CloseSessionRequest) (*CloseSessionResponse, error) {
	if err := r.detach(ctx, p.SessionID); err != nil {
		return nil, err
	}
	return NewCloseSessionResponse(), nil
}

// DeleteSession answers session/delete: the session is closed, and
// removed from the store with its history.
func (r *TurnRunner) DeleteSession(ctx context.Context, p *DeleteSessionRequest) (*DeleteSessionResponse, error) {
	if err := r.detach(ctx, p.SessionID); err != nil {
		return nil, err
	}
	if err := r.store.Delete(ctx, p.SessionID); err != nil {
		return nil, err
	}
	return NewDeleteSessionResponse(), nil
}

// detach stops serving session id, once its running turn has ended.
func (r *TurnRunner) detach(ctx context.Context, id SessionID) error {
	r.mu.Lock()
	s := r.sessions[id]
	var t *Turn
	if s != nil {
		r.cancelLocked(s)
		t = s.turn
		delete(r.sessions, id)
		r.closed[id] = requestSeq(ctx)
	}
	r.mu.Unlock()
	if t != nil {
		select {
		case <-t.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// SetSessionMode answers session/set_mode: the session's current mode
// becomes one of its modes (TurnOptions.Modes), announced with a
// current_mode_update.
func (r *TurnRunner) SetSessionMode(ctx context.Context, p *SetSessionModeRequest) (*SetSessionModeResponse, error) {
	r.mu.Lock()
	s := r.sessions[p.SessionID]
	r.mu.Unlock()
	if s == nil {
		return nil, unknownSession(p.SessionID)
	}
	modes, _, _ := s.current(false)
	known := false
	for _, m := range modesOf(modes) {
		known = known || m.ID == p.ModeID
	}
	if !known {
		return nil, NewInvalidParamsError(map[string]string{"details": "the session has no mode " + string(p.ModeID), "path": "modeId"})
	}
	if err := r.emit(ctx, s, NewSessionNotification(s.id, NewSessionUpdateCurrentModeUpdate(p.ModeID))); err != nil {
		return nil, err
	}
	return NewSetSessionModeResponse(), nil
}

// SetSessionConfigOption answers session/set_config_option with
// TurnOptions.SetConfigOption, and records the options it returns.
func (r *TurnRunner) SetSessionConfigOption(ctx context.Context, p *SetSessionConfigOptionRequest) (*SetSessionConfigOptionResponse, error) {
	if r.opts.SetConfigOption == nil {
		return nil, NewMethodNotFoundError(MethodSetSessionConfigOption)
	}
	r.mu.Lock()
	s := r.sessions[p.SessionID]
	r.mu.Unlock()
	if s == nil {
		return nil, unknownSession(p.SessionID)
	}
	_, current, _ := s.current(false)
	options, err := r.opts.SetConfigOption(ctx, s.id, current, p)
	if err != nil {
		return nil, err
	}
	s.send.Lock()
	defer s.send.Unlock()
	s.rec.ConfigOptions, _ = appendAny(nil, options)
	if err := r.store.Save(ctx, s.rec); err != nil {
		return nil, err
	}
	return NewSetSessionConfigOptionResponse(options), nil
}

// modesOf returns the available modes of m, nil for none.
func modesOf(m *SessionModeState) []SessionMode {
	if m == nil {
		return nil
	}
	return m.AvailableModes
}

// forgetConflicted stops serving session s when err says that its store
// refused a write because another writer wrote the session since it was
// read (ErrSessionConflict): the next session/load or session/resume
// reads it afresh, with the other writer's history; until then it is
// unknown here.
func (r *TurnRunner) forgetConflicted(s *turnSession, err error) {
	if !errors.Is(err, ErrSessionConflict) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sessions[s.id] == s {
		delete(r.sessions, s.id)
	}
}
