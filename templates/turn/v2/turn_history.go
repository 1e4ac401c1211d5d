//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// protocolVersion is the protocol version of the sessions this package's
// TurnRunner keeps (SessionRecord.Protocol).
const protocolVersion = 2

// emit records update u of session s in its state, sends it, and records
// it in the session's record and, but for a state_update (a snapshot the
// resume sends afresh), in its history: what the client was sent is what
// a session/resume with replayFrom replays.
func (r *TurnRunner) emit(ctx context.Context, s *turnSession, u SessionUpdate) error {
	return r.emitWith(ctx, context.WithoutCancel(ctx), s, u)
}

// emitWith is emit, given save, the context of the store's Save: ctx
// without its cancellation, for the history to have what was sent.
func (r *TurnRunner) emitWith(ctx, save context.Context, s *turnSession, u SessionUpdate) error {
	n := NewUpdateSessionNotification(s.id, u)
	state, isState := u.Value.(*SessionUpdateStateUpdate)
	s.send.Lock()
	defer s.send.Unlock()
	s.state.Apply(u)
	raw, err := r.sendRecorded(ctx, s, n)
	if err != nil {
		return err
	}
	switch v := u.Value.(type) {
	case *SessionUpdateSessionInfoUpdate:
		s.rec.Title = patchNullable(s.rec.Title, v.Title)
		if at := patchNullable(&s.rec.UpdatedAt, v.UpdatedAt); at != nil {
			s.rec.UpdatedAt = *at
		}
	case *SessionUpdateConfigOptionUpdate:
		s.rec.ConfigOptions, _ = appendAny(nil, v.ConfigOptions)
	}
	if isState {
		s.noteState(state.StateUpdate)
	}
	if isState || ctx.Value(replayKey{}) != nil {
		return r.store.Save(save, s.rec)
	}
	s.appended[0] = raw
	err = r.store.Save(save, s.rec, s.appended[:]...)
	s.appended[0] = nil
	return err
}

// replayKey marks the context of a replay: the updates that
// TurnOptions.Replay sends with it are history already, not appended to
// the store's.
type replayKey struct{}

// noteState records in the session's record where its turn is; s.send is
// held.
func (s *turnSession) noteState(u StateUpdate) {
	idle, ok := u.Value.(*StateUpdateIdle)
	switch {
	case !ok && s.rec.Turn.State != TurnRunning:
		s.rec.Turn = TurnRecord{State: TurnRunning, Started: time.Now()}
	case ok && s.rec.Turn.State == TurnRunning:
		s.rec.Turn.State, s.rec.Turn.Ended = TurnEnded, time.Now()
		s.rec.Turn.StopReason, _ = appendAny(nil, idle.IdleStateUpdate)
	}
}

// newRecord stores the record of a new session and returns it.
func (r *TurnRunner) newRecord(ctx context.Context, id SessionID, p *NewSessionRequest) (*SessionRecord, error) {
	rec := &SessionRecord{ID: id, Protocol: protocolVersion, Cwd: string(p.Cwd), Created: time.Now(), Meta: p.Meta}
	if p.MCPServers != nil {
		rec.MCPServers, _ = appendAny(nil, p.MCPServers)
	}
	if err := r.store.Save(ctx, rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// stored returns session id as the store keeps it, served by this runner
// from now on, its state rebuilt from its history; nil when the store
// does not have it.
func (r *TurnRunner) stored(ctx context.Context, id SessionID) (*turnSession, error) {
	rec, err := r.store.Load(ctx, id)
	switch {
	case errors.Is(err, ErrSessionNotStored) || err == nil && rec.Protocol != protocolVersion:
		return nil, nil
	case err != nil:
		return nil, err
	}
	state := NewSessionState(id)
	err = r.store.History(ctx, id, func(_ uint64, raw json.RawMessage) error {
		var n UpdateSessionNotification
		if json.Unmarshal(raw, &n) == nil {
			state.Apply(n.Update)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch {
	case rec.Turn.State == TurnEnded && rec.Turn.StopReason != nil:
		var reason IdleStateUpdate
		if json.Unmarshal(rec.Turn.StopReason, &reason) == nil {
			state.Apply(NewSessionUpdateStateUpdate(NewStateUpdateIdle(reason)))
		}
	case rec.Turn.State == TurnRunning:
		state.Apply(NewSessionUpdateStateUpdate(NewStateUpdateIdle(interrupted())))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.sessions[id]; s != nil {
		return s, nil
	}
	s := &turnSession{id: id, cwd: AbsolutePath(rec.Cwd), rec: rec, state: state, changed: make(chan struct{})}
	r.sessions[id] = s
	r.order = append(r.order, id)
	delete(r.closed, id)
	return s, nil
}

// interrupted is the stop reason of a turn that a store's record says
// runs while no runner serves its session: the process that ran it ended
// (a crash, a kill, a deploy) before the turn did. The agent stopped the
// work, not the user: error, as the spec asks of work the agent stops for
// its own reasons, with an internal error that says so.
func interrupted() IdleStateUpdate {
	reason := NewIdleStateUpdateError()
	reason.Value.(*IdleStateUpdateError).Error = NewInternalError(map[string]string{
		"details": "the turn was interrupted: the agent stopped while it ran"})
	return reason
}

// replay sends the history of session s from cursor from: the whole of
// what the store retains for the start, by TurnOptions.Replay when the
// agent keeps its own; any other cursor is refused with -32602.
func (r *TurnRunner) replay(ctx context.Context, s *turnSession, from ReplayFrom) error {
	if r.opts.Replay != nil {
		return r.opts.Replay(ctx, s.id, from)
	}
	if _, ok := from.Value.(*ReplayFromStartVariant); !ok {
		return NewInvalidParamsError(map[string]string{"details": "this agent replays from the start only, not from a cursor of type " +
			from.Value.replayFromTag(), "path": "replayFrom"})
	}
	return r.store.History(ctx, s.id, func(_ uint64, update json.RawMessage) error {
		return r.conn.notify(ctx, MethodUpdateSession, json.RawMessage(update))
	})
}

// forgetConflicted stops serving session s when err says that its store
// refused a write because another writer wrote the session since it was
// read (ErrSessionConflict): the next session/resume reads it afresh,
// with the other writer's history; until then it is unknown here.
func (r *TurnRunner) forgetConflicted(s *turnSession, err error) {
	if !errors.Is(err, ErrSessionConflict) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sessions[s.id] != s {
		return
	}
	delete(r.sessions, s.id)
	for i, id := range r.order {
		if id == s.id {
			r.order = append(r.order[:i:i], r.order[i+1:]...)
			break
		}
	}
}

// sendRecorded sends session update notification n of session s and
// returns the JSON of its params as sent, for the history, in s.scratch,
// valid until the next call: encoded once, in the connection's buffer,
// then copied, unless middleware sees the connection's calls (it is given
// a copy of n, and the JSON encoded apart). n is not kept. s.send is held.
func (r *TurnRunner) sendRecorded(ctx context.Context, s *turnSession, n *UpdateSessionNotification) (json.RawMessage, error) {
	c := r.conn.connection
	if c.mw != nil {
		sent := *n
		raw, err := appendAny(s.scratch[:0], &sent)
		if err != nil {
			return nil, err
		}
		s.scratch = raw
		return raw, c.notify(ctx, MethodUpdateSession, &sent)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.sent = *n
	var raw json.RawMessage
	err := c.send(ctx, sendQueue, func(b []byte) ([]byte, error) {
		b = append(b, `{"jsonrpc":"2.0","method":"session/update","params":`...)
		start := len(b)
		b, err := appendAny(b, &s.sent)
		if err != nil {
			return nil, err
		}
		s.scratch = append(s.scratch[:0], b[start:]...)
		raw = s.scratch
		return append(b, '}'), nil
	})
	s.sent = UpdateSessionNotification{} // not to keep the update
	return raw, err
}
