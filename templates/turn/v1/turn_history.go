//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"time"
)

// protocolVersion is the protocol version of the sessions this package's
// TurnRunner keeps (SessionRecord.Protocol).
const protocolVersion = 1

// emit sends notification n of session s, then records it in the
// session's record and history: what the client was sent is what a
// session/load replays.
func (r *TurnRunner) emit(ctx context.Context, s *turnSession, n *SessionNotification) error {
	return r.emitWith(ctx, context.WithoutCancel(ctx), s, n)
}

// emitWith is emit, given save, the context of the store's Save: ctx
// without its cancellation, for the history to have what was sent. n is
// not kept.
func (r *TurnRunner) emitWith(ctx, save context.Context, s *turnSession, n *SessionNotification) error {
	s.send.Lock()
	defer s.send.Unlock()
	raw, err := r.sendRecorded(ctx, s, n)
	if err != nil {
		return err
	}
	s.note(n.Update)
	if ctx.Value(replayKey{}) != nil {
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

// note records in the session's record what update u changes of it: the
// title and update time, the config options, the current mode; s.send is
// held.
func (s *turnSession) note(u SessionUpdate) {
	switch v := u.Value.(type) {
	case *SessionUpdateSessionInfoUpdate:
		s.rec.Title = patchString(s.rec.Title, v.Title)
		if at := patchString(&s.rec.UpdatedAt, v.UpdatedAt); at != nil {
			s.rec.UpdatedAt = *at
		}
	case *SessionUpdateConfigOptionUpdate:
		s.rec.ConfigOptions, _ = appendAny(nil, v.ConfigOptions)
	case *SessionUpdateCurrentModeUpdate:
		var modes SessionModeState
		if s.rec.Modes != nil && json.Unmarshal(s.rec.Modes, &modes) == nil {
			modes.CurrentModeID = v.CurrentModeID
			s.rec.Modes, _ = appendAny(nil, &modes)
		}
	}
}

// Update sends update u of session id outside a turn (the history that
// TurnOptions.Replay replays, a title the agent sets later) and records
// it as a turn's updates are.
func (r *TurnRunner) Update(ctx context.Context, id SessionID, u SessionUpdate) error {
	r.mu.Lock()
	s := r.sessions[id]
	r.mu.Unlock()
	if s == nil {
		return unknownSession(id)
	}
	return r.emit(ctx, s, NewSessionNotification(id, u))
}

// startTurn records that turn t runs and its prompt, each content block
// a user_message_chunk, in the session's history: the client sent it, and
// a session/load replays it as the user's.
func (r *TurnRunner) startTurn(t *Turn) error {
	s := t.session
	chunks := make([]json.RawMessage, 0, len(t.request.Prompt))
	for _, block := range t.request.Prompt {
		raw, err := appendAny(nil, NewSessionNotification(s.id, NewSessionUpdateUserMessageChunk(block)))
		if err != nil {
			return err
		}
		chunks = append(chunks, raw)
	}
	s.send.Lock()
	defer s.send.Unlock()
	s.rec.Turn = TurnRecord{State: TurnRunning, Started: time.Now()}
	s.rec.UpdatedAt = time.Now().UTC().Format(time.RFC3339)
	return r.store.Save(context.WithoutCancel(t.ctx), s.rec, chunks...)
}

// turnEnded records that turn t ended with stop reason reason ("" when
// its prompt is answered with an error).
func (r *TurnRunner) turnEnded(t *Turn, reason StopReason) error {
	s := t.session
	s.send.Lock()
	defer s.send.Unlock()
	s.rec.Turn.State, s.rec.Turn.Ended, s.rec.Turn.StopReason = TurnEnded, time.Now(), nil
	if reason != "" {
		s.rec.Turn.StopReason, _ = appendAny(nil, reason)
	}
	s.rec.UpdatedAt = time.Now().UTC().Format(time.RFC3339)
	return r.store.Save(context.WithoutCancel(t.ctx), s.rec)
}

// replay sends the history of session s that the store retains, as it
// was sent, in order.
func (r *TurnRunner) replay(ctx context.Context, s *turnSession) error {
	if r.opts.Replay != nil {
		return r.opts.Replay(context.WithValue(ctx, replayKey{}, true), s.id)
	}
	return r.store.History(ctx, s.id, func(_ uint64, update json.RawMessage) error {
		return r.conn.notify(ctx, MethodSessionUpdate, json.RawMessage(update))
	})
}

// sendRecorded sends session update notification n of session s and
// returns the JSON of its params as sent, for the history, in s.scratch,
// valid until the next call: encoded once, in the connection's buffer,
// then copied, unless middleware sees the connection's calls (it is given
// a copy of n, and the JSON encoded apart). n is not kept. s.send is held.
func (r *TurnRunner) sendRecorded(ctx context.Context, s *turnSession, n *SessionNotification) (json.RawMessage, error) {
	c := r.conn.connection
	if c.mw != nil {
		sent := *n
		raw, err := appendAny(s.scratch[:0], &sent)
		if err != nil {
			return nil, err
		}
		s.scratch = raw
		return raw, c.notify(ctx, MethodSessionUpdate, &sent)
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
	s.sent = SessionNotification{} // not to keep the update
	return raw, err
}
