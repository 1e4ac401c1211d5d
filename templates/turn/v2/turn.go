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
// (t.Request), reports its output with t.Say and t.Update, and asks the
// client with t.RequestPermission and t.CreateElicitation. ctx has the
// values of the session/prompt request's context (the span a tracing
// middleware started for it), past the prompt's answer, and the runner
// sends the turn's updates and requests, its own included, with them. ctx
// is cancelled when the client cancels the turn (session/cancel, or
// session/close) and when the connection ends. Returning nil ends the turn
// with stop reason end_turn, and an error with stop reason error carrying
// the error (an *Error as it is, any other as -32603 with its text), or
// the stop reason of a *TurnStop; a cancelled turn ends with cancelled,
// whatever it returns.
type TurnFunc func(ctx context.Context, t *Turn) error

// TurnStop is an error that ends a turn with a stop reason of the
// agent's choosing (NewIdleStateUpdateMaxTokens(), NewIdleStateUpdateRefusal(), …).
type TurnStop struct {
	// Reason is the idle update's stop reason.
	Reason IdleStateUpdate
}

// Error says which stop reason ended the turn.
func (e *TurnStop) Error() string { return "the turn stopped: " + e.Reason.Tag() }

// TurnRunner runs the prompt turns of an agent's sessions as the v2 prompt
// lifecycle asks, and keeps the sessions the agent serves. Embed it in the
// agent (NewTurnRunner, given the connection): its methods NewSession,
// Prompt, CancelSession, ListSessions, ResumeSession and CloseSession make
// the agent a SessionAgent, which then only implements Initialize.
//
// session/prompt is answered, with the id of the inserted user message, as
// soon as the prompt is inserted; the turn runs once that answer has been
// handed to the writer, on a goroutine of the runner: it sends the user
// message (a user_message update with the prompt and that id), then
// state_update running, then calls the TurnFunc, and ends with
// state_update idle and the turn's stop reason. While the turn waits on
// t.RequestPermission or t.CreateElicitation the session is
// requires_action, and running again once answered.
//
// One turn runs in a session at a time. A prompt that comes while one runs
// is held, as the protocol allows: its answer waits until the turns before
// it have ended, and held prompts are inserted one at a time in the order
// they came. session/cancel ends the running turn with stop reason
// cancelled and answers the prompts held then -32800 (Request cancelled),
// as the client's $/cancel_request of a held prompt does.
type TurnRunner struct {
	conn  *AgentSideConnection
	run   TurnFunc
	opts  TurnOptions
	store SessionStore

	mu       sync.Mutex
	sessions map[SessionID]*turnSession
	order    []SessionID          // the sessions in the order they were created
	closed   map[SessionID]uint64 // closed sessions: the close request's requestSeq
	running  int                  // turns whose goroutine has not ended
	drained  chan struct{}        // closed when running drops to 0
}

// TurnOptions tune a TurnRunner; the zero value is ready to use.
type TurnOptions struct {
	// Replay, if set, replays the history of session id that the agent
	// retains itself, from the cursor from (a *ReplayFromStartVariant for
	// the whole of it), as session updates sent with TurnRunner.Update,
	// for a session/resume that asks for it. It rejects a cursor it does
	// not support with NewInvalidParamsError. Without it, the runner
	// replays what Store retains from the start, and refuses any other
	// cursor with -32602.
	Replay func(ctx context.Context, id SessionID, from ReplayFrom) error
	// NewID returns a new id that starts with prefix: "sess_" for a
	// session, "msg_" for a message. Nil: prefix and 32 random hex digits,
	// unique across processes.
	NewID func(prefix string) string
	// Store keeps the sessions and their history, which a session/resume
	// with replayFrom start replays when Replay is nil. Nil: a MemoryStore
	// of the runner's own, which lasts as long as the connection. Give
	// the runners of several connections one store for a client to resume
	// on one connection the sessions it created on another.
	Store SessionStore
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

// turnSession is a session of a TurnRunner. Its fields are guarded by the
// runner's mu; send serializes what the runner sends of its state and
// stores, and guards rec.
type turnSession struct {
	id      SessionID
	cwd     AbsolutePath
	rec     *SessionRecord
	scratch []byte // the JSON of the last update sent, for the store; guarded by send
	// sent is the notification being encoded and appended the update
	// being saved, kept here for the runner not to allocate them for each
	// update; guarded by send.
	sent     UpdateSessionNotification
	appended [1]json.RawMessage
	state    *SessionState
	turn     *Turn         // the running turn, nil when idle
	held     []*heldPrompt // prompts waiting for their turn, in order
	changed  chan struct{} // closed and replaced when turn or held change
	send     sync.Mutex
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

// Prompt answers session/prompt: it inserts the prompt, once no turn runs
// in the session, and starts its turn once the answer is written.
func (r *TurnRunner) Prompt(ctx context.Context, p *PromptRequest) (*PromptResponse, error) {
	if len(p.Prompt) == 0 {
		return nil, NewInvalidParamsError(map[string]string{"details": "the prompt has no content block"})
	}
	r.mu.Lock()
	s, err := r.waitIdle(ctx, p.SessionID, requestSeq(ctx))
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	t := r.insert(ctx, s, p)
	r.mu.Unlock()
	if !afterAnswer(ctx, func() { go r.runTurn(t) }) {
		go r.runTurn(t) // not served by a connection
	}
	return NewPromptResponse(t.user), nil
}

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
			return nil, NewRequestCancelledError()
		case s == nil && seq != 0 && seq < r.closed[id]:
			return nil, NewRequestCancelledError() // read before the session/close
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

// insert makes p, whose request's context is ctx, the running turn of s;
// r.mu is held. The turn's context has the values of ctx (the prompt's
// trace span, say), for what the turn sends to be the prompt's, but not
// its end: the turn outlives the prompt's answer. It ends with
// session/cancel or session/close, with the connection, and with the
// turn.
func (r *TurnRunner) insert(ctx context.Context, s *turnSession, p *PromptRequest) *Turn {
	t := &Turn{runner: r, session: s, request: p, done: make(chan struct{}),
		user: MessageID(r.newID("msg_")), reply: MessageID(r.newID("msg_"))}
	// Not the prompt's request either: its hooks are the prompt's.
	t.saveCtx = context.WithValue(context.WithoutCancel(ctx), requestContextKey{}, nil)
	t.ctx, t.cancel = context.WithCancel(t.saveCtx)
	t.stopConn = context.AfterFunc(r.conn.ctx, t.cancel)
	s.turn = t
	if r.running == 0 {
		r.drained = make(chan struct{})
	}
	r.running++
	return t
}

// CancelSession answers session/cancel: the running turn of the session is
// cancelled, and the prompts held then are answered -32800.
func (r *TurnRunner) CancelSession(ctx context.Context, p *CancelSessionNotification) error {
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

// Wait waits until the turns that have started have ended: those of a
// connection that has ended end once their TurnFunc returns.
func (r *TurnRunner) Wait() {
	r.mu.Lock()
	drained := r.drained
	running := r.running
	r.mu.Unlock()
	if running > 0 {
		<-drained
	}
}

// runTurn runs turn t: the user message, running, the TurnFunc, and the
// idle update with its stop reason.
func (r *TurnRunner) runTurn(t *Turn) {
	defer r.endTurn(t)
	user := NewSessionUpdateUserMessage(t.user)
	user.Value.(*SessionUpdateUserMessage).Content = Some(t.request.Prompt)
	err := r.sendState(t, user)
	if err == nil {
		err = r.sendState(t, NewSessionUpdateStateUpdate(NewStateUpdateRunning()))
	}
	if err != nil {
		// The store refused the turn (another node wrote the session
		// since this runner read it: ErrSessionConflict), or the
		// connection ended: the client is told why, if it still listens.
		r.forgetConflicted(t.session, err)
		t.cancel()
		if r.conn.ctx.Err() == nil {
			_ = r.sendState(t, NewSessionUpdateStateUpdate(NewStateUpdateIdle(t.stopReason(storeError(r.conn.cfg.logger, err)))))
		}
		return
	}
	err = r.call(t)
	if errors.Is(err, ErrSessionConflict) {
		r.forgetConflicted(t.session, err)
		err = storeError(r.conn.cfg.logger, err) // the error a client is told of a conflict
	}
	t.mu.Lock()
	t.ended.Store(true) // no state update of the turn's calls from here on
	t.mu.Unlock()
	_ = r.sendState(t, NewSessionUpdateStateUpdate(NewStateUpdateIdle(t.stopReason(err))))
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
	t.stopConn()
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

// sendState records update u of turn t's session in its state and sends
// it, with the turn's context without its cancellation: the runner's own
// updates are the prompt's too, and go out after a cancellation.
func (r *TurnRunner) sendState(t *Turn, u SessionUpdate) error {
	return r.emitWith(t.saveCtx, t.saveCtx, t.session, u)
}

// Update sends update u of session id and records it in the session's
// state, which session/resume reports, and its history: for updates
// outside a turn, such as the history that TurnOptions.Replay replays.
func (r *TurnRunner) Update(ctx context.Context, id SessionID, u SessionUpdate) error {
	r.mu.Lock()
	s := r.sessions[id]
	r.mu.Unlock()
	if s == nil {
		return unknownSession(id)
	}
	return r.emit(ctx, s, u)
}

// State returns a snapshot of the state of session id as the updates sent
// through the runner left it; ok is false for a session it does not keep.
func (r *TurnRunner) State(id SessionID) (snapshot SessionSnapshot, ok bool) {
	r.mu.Lock()
	s := r.sessions[id]
	r.mu.Unlock()
	if s == nil {
		return SessionSnapshot{}, false
	}
	return s.state.Snapshot(), true
}

// unknownSession is the error that answers a request for a session the
// runner does not keep: -32002, with the session's id as data.
func unknownSession(id SessionID) *Error {
	return withData(NewError(codeResourceNotFound, "Resource not found"), map[string]string{"sessionId": string(id)})
}

// errTurnEnded is the error of a call of a Turn that has ended.
var errTurnEnded = errors.New("acp: the turn has ended")
