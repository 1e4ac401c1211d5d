//go:build ignore

package acp

import (
	"context"
	"encoding/json"
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
// requests that the client is still serving, as the protocol asks of a
// client that cancels a turn. Their handlers' contexts are cancelled;
// what they return is dropped.
func (s *ActiveSession) Cancel(ctx context.Context) error {
	if err := s.conn.Cancel(ctx, NewCancelNotification(s.id)); err != nil {
		return err
	}
	s.conn.answerServing(func(method string, params any) any {
		if method != MethodRequestPermission {
			return nil
		}
		p, ok := params.(*RequestPermissionRequest)
		if raw, isRaw := params.(json.RawMessage); isRaw {
			p, ok = new(RequestPermissionRequest), json.Unmarshal(raw, p) == nil
		}
		if !ok || p.SessionID != s.id {
			return nil
		}
		return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled())
	})
	return nil
}
