package acpclient

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// DefaultCancelWait is how long Turns.Prompt waits, after session/cancel,
// for the agent to end the turn.
const DefaultCancelWait = 5 * time.Second

// Turns cancels v1 prompt turns the protocol's way. v1 cancels a turn with
// the session/cancel notification, not by cancelling the session/prompt
// request: cancelling the context of acpv1's Prompt sends $/cancel_request,
// which an agent may take as abandoning the request and keep streaming.
// Turns.Prompt, on the end of its context, sends session/cancel, answers
// the session's permission requests cancelled from then on until the turn
// ends (those pending and those that come late, as the protocol asks), and
// returns the stop reason the agent ends the turn with, cancelled. Add
// Middleware to the connection; it is the same type in every version.
type Turns struct {
	// Wait bounds the wait for the agent to end a cancelled turn;
	// DefaultCancelWait when zero.
	Wait time.Duration

	mu        sync.Mutex
	cancelled map[acpv1.SessionID]chan struct{} // closed on cancel; present while a turn runs
}

// ErrCancelIgnored is returned, wrapped, by Prompt when the agent did not
// end a cancelled turn within Wait.
var ErrCancelIgnored = errors.New("the agent did not end the cancelled turn")

// Prompt runs a prompt turn on conn. When ctx ends before the turn does,
// Prompt sends session/cancel and returns the agent's answer, whose stop
// reason is cancelled for an agent that honours it; an agent that does not
// answer within Wait gives ErrCancelIgnored. The prompt request itself is
// not cancelled.
func (t *Turns) Prompt(ctx context.Context, conn *acpv1.ClientSideConnection, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	cancel := t.begin(p.SessionID)
	defer t.end(p.SessionID)
	type answer struct {
		r   *acpv1.PromptResponse
		err error
	}
	done := make(chan answer, 1)
	go func() {
		r, err := conn.Prompt(context.WithoutCancel(ctx), p)
		done <- answer{r, err}
	}()
	select {
	case a := <-done:
		return a.r, a.err
	case <-ctx.Done():
	}
	close(cancel) // permission is answered cancelled from here on
	if err := conn.Cancel(context.WithoutCancel(ctx), acpv1.NewCancelNotification(p.SessionID)); err != nil {
		return nil, fmt.Errorf("session/cancel: %w", err)
	}
	wait := t.Wait
	if wait <= 0 {
		wait = DefaultCancelWait
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case a := <-done:
		return a.r, a.err
	case <-timer.C:
		return nil, fmt.Errorf("%w within %v of session/cancel", ErrCancelIgnored, wait)
	}
}

// begin records a running turn of session id and returns the channel its
// cancel closes.
func (t *Turns) begin(id acpv1.SessionID) chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cancelled == nil {
		t.cancelled = map[acpv1.SessionID]chan struct{}{}
	}
	c := make(chan struct{})
	t.cancelled[id] = c
	return c
}

func (t *Turns) end(id acpv1.SessionID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.cancelled, id)
}

// cancelOf returns the cancel channel of session id's running turn, or nil.
func (t *Turns) cancelOf(id acpv1.SessionID) chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cancelled[id]
}

// Middleware answers the permission requests of a cancelled turn with the
// cancelled outcome: at once for one that arrives after session/cancel,
// and, for one the client's handler is still serving, as soon as the turn
// is cancelled (the handler's context is cancelled and its answer
// dropped).
func (t *Turns) Middleware() acpv1.Middleware {
	return func(next acpv1.Handler) acpv1.Handler {
		return func(ctx context.Context, call acpv1.Call) (any, error) {
			p, ok := call.Params().(*acpv1.RequestPermissionRequest)
			if !ok || !call.Inbound() {
				return next(ctx, call)
			}
			cancel := t.cancelOf(p.SessionID)
			if cancel == nil {
				return next(ctx, call)
			}
			select {
			case <-cancel:
				return cancelledOutcome(), nil
			default:
			}
			hctx, stop := context.WithCancel(ctx)
			defer stop()
			type answer struct {
				r   any
				err error
			}
			done := make(chan answer, 1)
			go func() {
				r, err := next(hctx, call)
				done <- answer{r, err}
			}()
			select {
			case a := <-done:
				return a.r, a.err
			case <-cancel:
				return cancelledOutcome(), nil
			}
		}
	}
}

func cancelledOutcome() *acpv1.RequestPermissionResponse {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled())
}
