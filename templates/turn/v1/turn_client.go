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
// answers at once, with the cancelled outcome (the action cancel for an
// elicitation), the session's permission and elicitation requests that
// the client is still serving, as the protocol asks of a client that
// cancels a turn. Their handlers' contexts are cancelled; what they return
// is dropped. Such requests that arrive later, until the answer to the
// session's prompt sent with Prompt is read, are answered so too, without
// their handlers being called: those of the cancelled turn that crossed
// the cancel on the wire.
func (s *ActiveSession) Cancel(ctx context.Context) error {
	if err := s.conn.Cancel(ctx, NewCancelNotification(s.id)); err != nil {
		return err
	}
	pick := func(method string, params any) any { return cancelledAnswer(s.id, method, params) }
	s.mu.Lock()
	select {
	case <-s.closed:
	default:
		if s.refusing == nil && s.prompting > 0 {
			s.refusing = s.conn.addAnswerRule(pick)
		}
	}
	s.mu.Unlock()
	s.conn.answerServing(pick)
	return nil
}

// cancelledAnswer returns the answer of a cancelled turn to an inbound
// request with method and params, for session id: the cancelled outcome
// of a permission request and the action cancel of an elicitation of the
// session, nil for any other.
func cancelledAnswer(id SessionID, method string, params any) any {
	switch method {
	case MethodRequestPermission:
		if sessionOf(params) == id {
			return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled())
		}
	case MethodCreateElicitation:
		if sessionOf(params) == id {
			r := NewCreateElicitationResponseCancel()
			return &r
		}
	}
	return nil
}

// sessionOf returns the sessionId member of params, a request's decoded
// params or its JSON, or "" when it has none.
func sessionOf(params any) SessionID {
	if p, ok := params.(*RequestPermissionRequest); ok {
		return p.SessionID
	}
	raw, ok := params.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(params)
		if err != nil {
			return ""
		}
		raw = b
	}
	var scope struct {
		SessionID SessionID `json:"sessionId"`
	}
	if json.Unmarshal(raw, &scope) != nil {
		return ""
	}
	return scope.SessionID
}
