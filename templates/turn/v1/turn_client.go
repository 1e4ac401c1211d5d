//go:build ignore

package acp

import "context"

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
// they return is dropped. Prompt then returns the agent's answer, whose
// stop reason is cancelled.
func (s *ActiveSession) Cancel(ctx context.Context) error {
	return s.cancelTurn(ctx)
}
