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
// answers at once, with the cancelled outcome, the session's permission
// requests that the client is still serving, except those for background
// work the agent reports (state_update's background list): the cancelled
// work no longer waits for them. Their handlers' contexts are cancelled;
// what they return is dropped.
func (s *ActiveSession) Cancel(ctx context.Context) error {
	if err := s.conn.CancelSession(ctx, NewCancelSessionNotification(s.id)); err != nil {
		return err
	}
	background := s.state.Snapshot().Background
	s.conn.answerServing(func(method string, params any) any {
		if method != MethodRequestPermission {
			return nil
		}
		p, ok := params.(*RequestPermissionRequest)
		if raw, isRaw := params.(json.RawMessage); isRaw {
			p, ok = new(RequestPermissionRequest), json.Unmarshal(raw, p) == nil
		}
		if !ok || p.SessionID != s.id || forBackground(p, background) {
			return nil
		}
		return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled())
	})
	return nil
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
