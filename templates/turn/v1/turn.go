//go:build ignore

package acp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
)

// TurnFunc does the work of one prompt turn: it reads the prompt
// (t.Request), reports its output with t.Say, t.Update, t.Plan and
// t.ToolCall, and asks the client with t.RequestPermission and
// t.CreateElicitation. ctx is the session/prompt request's context (with
// the span a tracing middleware started for it), cancelled when the
// client cancels the turn (session/cancel, or session/close) and when the
// connection ends. Returning nil ends the turn with stop reason end_turn,
// a *TurnStop with its stop reason, and any other error answers
// session/prompt with that error (an *Error as it is, any other as -32603
// with its text); a cancelled turn ends with cancelled, whatever it
// returns.
type TurnFunc func(ctx context.Context, t *Turn) error

// TurnStop is an error that ends a turn with a stop reason of the
// agent's choosing (StopReasonMaxTokens, StopReasonRefusal, …).
type TurnStop struct {
	// Reason is the stop reason session/prompt is answered with.
	Reason StopReason
}

// Error says which stop reason ended the turn.
func (e *TurnStop) Error() string { return "the turn stopped: " + string(e.Reason) }

// TurnRunner runs the prompt turns of an agent's sessions as the v1 prompt
// lifecycle asks, keeps the sessions the agent serves and their history,
// and replays it. Embed it in the agent (NewTurnRunner, given the
// connection): its methods NewSession, Prompt, Cancel, LoadSession,
// ResumeSession, ListSessions, CloseSession, DeleteSession and
// SetSessionMode serve those methods, and the agent then only implements
// Initialize, advertising loadSession and the session capabilities it
// wants served.
//
// session/prompt is answered when the turn ends, with its stop reason:
// the TurnFunc's updates go out before the answer, and none of the turn
// after it (a Turn's calls fail with an error then). One turn runs in a
// session at a time: a prompt that comes while one runs is held until the
// turns before it have ended and their answers are written.
// session/cancel cancels the running turn (its pending permission and
// elicitation requests are answered cancelled and withdrawn, its context
// is done) and ends it with stop reason cancelled; the prompts held then
// are answered cancelled too.
//
// The runner records each session in its SessionStore (TurnOptions.Store,
// by default a MemoryStore of its own): the user's prompts as
// user_message_chunk updates, then every update sent through the runner,
// in order, as sent. session/load replays that history before its answer,
// as the protocol asks.
type TurnRunner struct {
	conn  *AgentSideConnection
	run   TurnFunc
	opts  TurnOptions
	store SessionStore

	mu       sync.Mutex
	sessions map[SessionID]*turnSession
	closed   map[SessionID]uint64 // closed sessions: the close request's requestSeq
	running  int                  // turns that have not ended
	drained  chan struct{}        // closed when running drops to 0
}

// TurnOptions tune a TurnRunner; the zero value is ready to use.
type TurnOptions struct {
	// Store keeps the sessions and their history. Nil: a MemoryStore of
	// the runner's own, which lasts as long as the connection. Give the
	// runners of several connections one store for a client to load on
	// one connection the sessions it created on another.
	Store SessionStore
	// Replay, if set, replays the history of session id that the agent
	// keeps itself, as session updates sent with TurnRunner.Update, for a
	// session/load; the history in Store is not replayed then.
	Replay func(ctx context.Context, id SessionID) error
	// Modes, if set, are the modes of a new session, of which
	// session/set_mode selects one. Nil: sessions have no modes.
	Modes *SessionModeState
	// ConfigOptions, if set, are the config options of a new session,
	// which SetConfigOption changes.
	ConfigOptions []SessionConfigOption
	// SetConfigOption, if set, serves session/set_config_option: it
	// applies the change p asks of session id, whose options are current,
	// and returns all the session's options after it, which the runner
	// records and answers with. Nil: the request is answered -32601.
	SetConfigOption func(ctx context.Context, id SessionID, current []SessionConfigOption, p *SetSessionConfigOptionRequest) ([]SessionConfigOption, error)
	// NewID returns a new id that starts with prefix ("sess_"). Nil:
	// prefix and 32 random hex digits, unique across processes.
	NewID func(prefix string) string
}

// NewTurnRunner returns the runner of the turns of conn's sessions, which
// run calls; opts may be nil.
func NewTurnRunner(conn *AgentSideConnection, run TurnFunc, opts *TurnOptions) *TurnRunner {
	r := &TurnRunner{conn: conn, run: run, sessions: map[SessionID]*turnSession{}, closed: map[SessionID]uint64{}}
	if opts != nil {
		r.opts = *opts
	}
	store := r.opts.Store
	if store == nil {
		store = &MemoryStore{}
	}
	r.store = guardedStore{store: store, logger: conn.cfg.logger}
	return r
}

// turnSession is a session of a TurnRunner. turn, held, changed and
// cancelledTo are guarded by the runner's mu; send serializes what the
// runner sends and stores of the session, and guards rec.
type turnSession struct {
	id      SessionID
	state   *SessionState
	turn    *Turn         // the running turn, nil when idle
	held    []*heldPrompt // prompts waiting for their turn, in order
	changed chan struct{} // closed and replaced when turn or held change
	send    sync.Mutex
	rec     *SessionRecord
	scratch []byte // the JSON of the last update sent, for the store
	// sent is the notification being encoded and appended the update
	// being saved, kept here for the runner not to allocate them for each
	// update; guarded by send.
	sent     SessionNotification
	appended [1]json.RawMessage
	// cancelledTo is the arrival number (requestSeq) of the last request
	// read before the last session/cancel: prompts up to it are refused.
	cancelledTo uint64
}

// heldPrompt is a prompt waiting for the session's running turn to end.
type heldPrompt struct {
	refused bool // cancelled by session/cancel or session/close
}

// notify wakes the prompts held in s; r.mu is held.
func (s *turnSession) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// newID returns a new id with prefix.
func (r *TurnRunner) newID(prefix string) string {
	if r.opts.NewID != nil {
		return r.opts.NewID(prefix)
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("acp: no random bytes for an id: " + err.Error()) // crypto/rand does not fail on supported systems
	}
	return prefix + hex.EncodeToString(b[:])
}

// Prompt answers session/prompt: it runs the prompt's turn once no turn
// runs in the session, and answers with the turn's stop reason.
func (r *TurnRunner) Prompt(ctx context.Context, p *PromptRequest) (*PromptResponse, error) {
	r.mu.Lock()
	s, err := r.waitIdle(ctx, p.SessionID, requestSeq(ctx))
	if err != nil {
		r.mu.Unlock()
		if errors.Is(err, errHeldCancelled) {
			return NewPromptResponse(StopReasonCancelled), nil
		}
		return nil, err
	}
	t := r.insert(ctx, s, p)
	r.mu.Unlock()
	// The next turn starts once this one's answer is on its way.
	if !afterAnswer(ctx, func() { r.endTurn(t) }) {
		defer r.endTurn(t)
	}
	if err := r.startTurn(t); err != nil {
		t.finish()
		r.forgetConflicted(s, err)
		return nil, storeError(r.conn.cfg.logger, err)
	}
	err = r.call(t)
	t.finish()
	if errors.Is(err, ErrSessionConflict) {
		r.forgetConflicted(s, err)
		err = storeError(r.conn.cfg.logger, err) // the error a client is told of a conflict
	}
	reason, err := t.stopReason(err)
	if serr := r.turnEnded(t, reason); err == nil && serr != nil {
		r.forgetConflicted(s, serr)
		return nil, storeError(r.conn.cfg.logger, serr)
	}
	if err != nil {
		return nil, err
	}
	return NewPromptResponse(reason), nil
}

// errHeldCancelled is waitIdle's error for a prompt that session/cancel
// refused: it is answered with stop reason cancelled.
var errHeldCancelled = errors.New("acp: the prompt was cancelled before its turn")

// waitIdle returns session id once no turn runs in it and no prompt held
// before this one waits, holding r.mu, which it releases while it waits.
// seq is the prompt's arrival number: a prompt that came before a
// session/cancel is refused, even if its handler runs after it.
func (r *TurnRunner) waitIdle(ctx context.Context, id SessionID, seq uint64) (*turnSession, error) {
	var h *heldPrompt
	for {
		s := r.sessions[id]
		switch {
		case h != nil && h.refused, s != nil && seq != 0 && seq <= s.cancelledTo:
			return nil, errHeldCancelled
		case s == nil && seq != 0 && seq < r.closed[id]:
			return nil, errHeldCancelled // read before the session/close
		case s == nil:
			return nil, unknownSession(id)
		case r.conn.ctx.Err() != nil:
			return nil, r.conn.Err()
		case s.turn == nil && (len(s.held) == 0 || s.held[0] == h):
			if h != nil {
				s.held = s.held[1:]
				s.notify()
			}
			return s, nil
		case h == nil:
			h = &heldPrompt{}
			s.held = append(s.held, h)
		}
		changed := s.changed
		r.mu.Unlock()
		select {
		case <-changed:
			r.mu.Lock()
		case <-ctx.Done():
			r.mu.Lock()
			s.removeHeld(h)
			return nil, NewRequestCancelledError()
		}
	}
}

// removeHeld removes h from the prompts held in s; r.mu is held.
func (s *turnSession) removeHeld(h *heldPrompt) {
	for i, x := range s.held {
		if x == h {
			s.held = append(s.held[:i:i], s.held[i+1:]...)
			s.notify()
			return
		}
	}
}

// insert makes p the running turn of s; r.mu is held. The turn's context
// ends with the prompt's (a $/cancel_request of it, the connection's end)
// and with session/cancel.
func (r *TurnRunner) insert(ctx context.Context, s *turnSession, p *PromptRequest) *Turn {
	t := &Turn{runner: r, session: s, request: p, done: make(chan struct{})}
	t.ctx, t.cancel = context.WithCancel(ctx)
	t.saveCtx = context.WithoutCancel(t.ctx)
	s.turn = t
	if r.running == 0 {
		r.drained = make(chan struct{})
	}
	r.running++
	return t
}

// Cancel answers session/cancel: the running turn of the session is
// cancelled, and the prompts held then are answered cancelled.
func (r *TurnRunner) Cancel(ctx context.Context, p *CancelNotification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.sessions[p.SessionID]; s != nil {
		s.cancelledTo = r.conn.arrived()
		r.cancelLocked(s)
	}
	return nil
}

// cancelLocked cancels the running turn of s and refuses its held
// prompts; r.mu is held.
func (r *TurnRunner) cancelLocked(s *turnSession) {
	if s.turn != nil {
		s.turn.cancelled.Store(true)
		s.turn.cancel()
	}
	for _, h := range s.held {
		h.refused = true
	}
	s.held = nil
	s.notify()
}

// Wait waits until the turns that have started have ended.
func (r *TurnRunner) Wait() {
	r.mu.Lock()
	drained := r.drained
	running := r.running
	r.mu.Unlock()
	if running > 0 {
		<-drained
	}
}

// call calls the TurnFunc for t; a panic in it is logged and ends the
// turn with an internal error, without its text.
func (r *TurnRunner) call(t *Turn) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.conn.cfg.logger.Error("acp: a turn panicked", "session", string(t.session.id), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = NewInternalError(nil)
		}
	}()
	return r.run(t.ctx, t)
}

// endTurn frees the session of t for the next prompt.
func (r *TurnRunner) endTurn(t *Turn) {
	t.cancel()
	r.mu.Lock()
	if t.session.turn == t {
		t.session.turn = nil
		t.session.notify()
	}
	r.running--
	if r.running == 0 {
		close(r.drained)
	}
	r.mu.Unlock()
	close(t.done)
}

// unknownSession is the error that answers a request for a session the
// runner does not keep: -32002, with the session's id as data.
func unknownSession(id SessionID) *Error {
	return withData(NewError(codeResourceNotFound, "Resource not found"), map[string]string{"sessionId": string(id)})
}

// errTurnEnded is the error of a call of a Turn that has ended.
var errTurnEnded = errors.New("acp: the turn has ended")
