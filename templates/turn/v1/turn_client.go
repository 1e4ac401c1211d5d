//go:build ignore

package acp

import (
	"context"
	"fmt"
	"time"
)

// The client's side of the turn: a permission request that the agent
// cancels ($/cancel_request, as a TurnRunner does when its turn is
// cancelled) is answered with the cancelled outcome, as the protocol asks,
// whatever its handler returns later.
func init() {
	answerCancelled = func(c *connection, id string, ctx *requestContext) bool {
		if ctx.method != MethodRequestPermission {
			return false
		}
		c.answerEarly(id, ctx, NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled()))
		return true
	}
}

// Cancel cancels the session's prompt turn with session/cancel, then
// answers at once, with the cancelled outcome, the session's permission
// requests that the client is still serving, and, while the turn that
// Prompt runs goes on, those that come later, as the protocol asks of a
// client that cancels a turn. The handlers' contexts are cancelled; what
// they return is dropped.
//
// Cancel then waits for the agent's answer to the prompt that Prompt runs,
// which Prompt returns too, and returns its stop reason (cancelled, or the
// reason of a turn that ended before the cancel reached the agent). The
// wait ends with ctx, or, after the router's CancelWait, with an error
// that wraps ErrCancelIgnored (Prompt still waits: end its context to stop
// it). With no turn that Prompt runs, Cancel returns "" once session/cancel
// is sent.
func (s *ActiveSession) Cancel(ctx context.Context) (StopReason, error) {
	s.turnMu.Lock()
	t := s.turn
	s.turnMu.Unlock()
	if err := s.cancelTurn(ctx); err != nil {
		return "", err
	}
	if t == nil {
		return "", nil
	}
	wait := s.router.CancelWait
	if wait <= 0 {
		wait = DefaultCancelWait
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-t.done:
	case <-timer.C:
		return "", fmt.Errorf("%w within %v of session/cancel", ErrCancelIgnored, wait)
	case <-ctx.Done():
		return "", ctx.Err()
	}
	if t.err != nil {
		return "", t.err
	}
	return t.res.StopReason, nil
}
