//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
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
//
// Cancel then waits for that idle state update and returns its stop
// reason (cancelled, or the reason of a turn that ended before the cancel
// reached the agent). The wait ends with ctx; after the router's
// CancelWait, with an error that wraps ErrCancelIgnored; when the session
// is closed or its connection ends (before or during the wait), with
// ErrSessionClosed and why.
// When the session's state is not running (idle, or not reported yet),
// Cancel returns "" once session/cancel is sent.
func (s *ActiveSession) Cancel(ctx context.Context) (string, error) {
	// The rule is in place before the agent can read the cancel, so that no
	// request it sends after reaches a handler.
	end, pick := s.refuseUntilIdle()
	if err := s.conn.CancelSession(ctx, NewCancelSessionNotification(s.id)); err != nil {
		return "", err
	}
	s.conn.answerServing(pick)
	if end == nil {
		return "", nil
	}
	wait := s.router.CancelWait
	if wait <= 0 {
		wait = DefaultCancelWait
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-end.done:
	case <-s.conn.Done():
		return "", withCause(ErrSessionClosed, s.conn.Err())
	case <-timer.C:
		return "", fmt.Errorf("%w within %v of session/cancel", ErrCancelIgnored, wait)
	case <-ctx.Done():
		return "", ctx.Err()
	}
	if !end.idle {
		return "", withCause(ErrSessionClosed, s.conn.Err())
	}
	return end.stopReason, nil
}

// turnEnd is the end of a turn that Cancel waits for.
type turnEnd struct {
	done       chan struct{} // closed once the idle state update is routed or the session closed
	idle       bool          // the session went idle (not closed), with stopReason
	stopReason string
}

// refuseUntilIdle answers the session's permission and elicitation
// requests that come cancelled while the session is not idle. It returns
// the end of the turn (nil when the session is idle, ended already when it
// is closed) and the rule, to answer those being served with.
func (s *ActiveSession) refuseUntilIdle() (*turnEnd, func(method string, params any) any) {
	// Read under s.mu, which deliver takes once it has applied an idle
	// update: a rule added after that is removed at once.
	s.mu.Lock()
	snap := s.state.Snapshot()
	pick := func(method string, params any) any {
		return cancelledAnswer(s.id, snap.Background, method, params)
	}
	var end *turnEnd
	select {
	case <-s.closed:
		end = &turnEnd{done: make(chan struct{})}
		close(end.done)
	default:
		if snap.State != nil && !isIdle(*snap.State) {
			prev := s.refusing
			if prev == nil {
				prev = s.conn.addAnswerRule(pick)
			}
			end = &turnEnd{done: make(chan struct{})}
			s.refusing = func() {
				prev()
				// deliver calls it once it has applied the idle update.
				if st := s.state.Snapshot().State; st != nil {
					if idle, ok := st.Value.(*StateUpdateIdle); ok {
						end.idle, end.stopReason = true, idle.StopReason()
					}
				}
				close(end.done)
			}
		}
	}
	s.mu.Unlock()
	return end, pick
}

// DefaultCancelWait is how long an ActiveSession's Cancel waits, after
// session/cancel, for the agent to end the turn, when the SessionRouter's
// CancelWait is zero.
const DefaultCancelWait = 5 * time.Second

// ErrCancelIgnored is the error, wrapped, of a Cancel whose agent did not
// end the cancelled turn within the router's CancelWait.
var ErrCancelIgnored = errors.New("the agent did not end the cancelled turn")

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
