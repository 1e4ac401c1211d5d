//go:build ignore

package acp

import (
	"context"
	"encoding/json"
)

// The client's side of the turn: a permission request that the agent
// cancels ($/cancel_request) is answered with the cancelled outcome, as
// the protocol asks, whatever its handler returns later.
func init() {
	answerCancelled = func(c *connection, id string, ctx *requestContext) bool {
		if ctx.method != MethodRequestPermission {
			return false
		}
		c.answerEarly(id, ctx, NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled()))
		return true
	}
}

// Cancel cancels the session's foreground work with session/cancel, then
// answers at once, with the cancelled outcome (the action cancel for an
// elicitation), the session's permission and elicitation requests that
// the client is still serving, except those for background work the agent
// reports (state_update's background list): the cancelled work no longer
// waits for them. Their handlers' contexts are cancelled; what they return
// is dropped. Such requests that arrive later, until the session's
// state_update idle is routed, are answered so too, without their
// handlers being called: those of the cancelled turn that crossed the
// cancel on the wire.
func (s *ActiveSession) Cancel(ctx context.Context) error {
	if err := s.conn.CancelSession(ctx, NewCancelSessionNotification(s.id)); err != nil {
		return err
	}
	// Read under s.mu, which deliver takes once it has applied an idle
	// update: a rule added after that is removed at once.
	s.mu.Lock()
	snap := s.state.Snapshot()
	pick := func(method string, params any) any {
		return cancelledAnswer(s.id, snap.Background, method, params)
	}
	select {
	case <-s.closed:
	default:
		if s.refusing == nil && snap.State != nil && !isIdle(*snap.State) {
			s.refusing = s.conn.addAnswerRule(pick)
		}
	}
	s.mu.Unlock()
	s.conn.answerServing(pick)
	return nil
}

// cancelledAnswer returns the answer of a cancelled turn to an inbound
// request with method and params, for session id whose background work
// is background: the cancelled outcome of a permission request and the
// action cancel of an elicitation of the session, nil for any other.
func cancelledAnswer(id SessionID, background []BackgroundWork, method string, params any) any {
	switch method {
	case MethodRequestPermission:
		p, ok := params.(*RequestPermissionRequest)
		if raw, isRaw := params.(json.RawMessage); isRaw {
			p, ok = new(RequestPermissionRequest), json.Unmarshal(raw, p) == nil
		}
		if !ok || p.SessionID != id || forBackground(p, background) {
			return nil
		}
		return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled())
	case MethodCreateElicitation:
		if sessionOf(params) != id {
			return nil
		}
		r := NewCreateElicitationResponseCancel()
		return &r
	}
	return nil
}

// sessionOf returns the sessionId member of params, a request's decoded
// params or its JSON, or "" when it has none.
func sessionOf(params any) SessionID {
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

// forBackground reports whether permission request p is about work that
// the list background names: a tool call, or a command's tool call or
// terminal.
func forBackground(p *RequestPermissionRequest, background []BackgroundWork) bool {
	if p.Subject == nil {
		return false
	}
	var toolCall *ToolCallID
	var terminal *TerminalID
	switch v := p.Subject.Value.(type) {
	case *RequestPermissionSubjectToolCall:
		toolCall = &v.ToolCall.ToolCallID
	case *RequestPermissionSubjectCommand:
		toolCall, terminal = v.ToolCallID, v.TerminalID
	}
	for _, w := range background {
		switch v := w.Value.(type) {
		case *BackgroundWorkToolCall:
			if toolCall != nil && v.ToolCallID == *toolCall {
				return true
			}
		case *BackgroundWorkTerminal:
			if terminal != nil && v.TerminalID == *terminal {
				return true
			}
		}
	}
	return false
}
