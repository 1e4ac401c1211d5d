package acpcheck

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// newSessionParams are the params of the kit's session/new.
func (c *agentConn) newSessionParams() map[string]any {
	return map[string]any{"cwd": c.opts.Cwd, "mcpServers": []any{}}
}

// checkRPC checks JSON-RPC hygiene: ids echoed, notifications unanswered,
// the error codes, and the connection usable after each error.
func (c *agentConn) checkRPC() {
	c.checkNotifications()
	c.checkIDs()
	var unusable []string
	usable := func(after string) {
		// Any answer will do: an agent that wants authentication first
		// answers session/new with an error, and still answers.
		if _, err := c.call("session/new", c.newSessionParams()); err != nil {
			unusable = append(unusable, fmt.Sprintf("after %s, session/new: %v", after, err))
		}
	}
	c.expectCode(AgentRPCMethodNotFound, "acpcheck/no_such_method", map[string]any{}, -32601)
	usable("an unknown method")
	c.expectCode(AgentRPCCustomMethod, "_acpcheck/no_such_method", map[string]any{}, -32601)
	if _, remote := c.conn.(*remoteConn); remote {
		// acphttp's client sends only JSON: acpcheck remote checks what a
		// server does with bodies that are not.
		c.verdict(AgentRPCParseError, NotApplicable, "over the network: see acpcheck remote")
		c.verdict(AgentRPCInvalidRequest, NotApplicable, "over the network: see acpcheck remote")
	} else {
		c.checkParseError()
		usable("a line that is not JSON")
		c.checkInvalidRequest()
		usable("an invalid request")
	}
	c.expectCode(AgentRPCInvalidParams, "session/new", map[string]any{"cwd": 5, "mcpServers": "none"}, -32602)
	usable("invalid params")
	if len(unusable) == 0 {
		c.pass(AgentRPCUsableAfterError, "session/new answered after each error")
	} else {
		c.fail(AgentRPCUsableAfterError, "%s", strings.Join(unusable, "; "))
	}
}

// errText says what a failed call got.
func errText(res *msg, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case res.Error != nil:
		return fmt.Sprintf("error %d %q", res.Error.Code, res.Error.Message)
	}
	return "a result"
}

// checkNotifications sends an unknown notification and a session/cancel
// for a session that does not exist, then a request; nothing may answer
// the notifications.
func (c *agentConn) checkNotifications() {
	_ = c.p.notify("_acpcheck/notice", map[string]any{"n": 1})
	_ = c.p.notify("session/cancel", map[string]any{"sessionId": "acpcheck-no-such-session"})
	before := len(c.strays)
	_, err := c.call("acpcheck/marker", map[string]any{})
	if err != nil {
		c.fail(AgentRPCNotificationSilent, "no answer to the request after the notifications: %v", err)
		return
	}
	c.drain(200 * time.Millisecond)
	if n := len(c.strays) - before; n > 0 {
		c.fail(AgentRPCNotificationSilent, "%d responses to notifications, first %s", n, clip(c.strays[before].Raw))
		return
	}
	c.pass(AgentRPCNotificationSilent, "no answer to an unknown notification nor to session/cancel of an unknown session")
}

// checkIDs sends session/new with an integer and with a string id.
func (c *agentConn) checkIDs() {
	for _, tc := range []struct {
		id  string
		req ID
	}{
		{"4242", AgentRPCIDInteger},
		{`"acpcheck-id-7"`, AgentRPCIDString},
	} {
		if err := c.p.requestID(tc.id, "session/new", c.newSessionParams()); err != nil {
			c.fail(tc.req, "sending: %v", err)
			continue
		}
		res, err := c.await(tc.id, c.opts.Timeout)
		if err != nil {
			c.fail(tc.req, "no response with id %s: %v", tc.id, err)
			continue
		}
		c.pass(tc.req, "id %s echoed (%s)", tc.id, errText(res, nil))
	}
}

// expectCode sends a request and expects an error with the code.
func (c *agentConn) expectCode(req ID, method string, params any, code int) {
	res, err := c.call(method, params)
	switch {
	case err != nil:
		c.fail(req, "%s: %v", method, err)
	case res.Error == nil:
		c.fail(req, "%s answered with a result, not error %d", method, code)
	case res.Error.Code == codeAuthRequired && method == "session/new":
		c.verdict(req, NotExercised, "session/new answered that authentication is required before it looked at the params")
	case res.Error.Code != code:
		c.fail(req, "%s answered error %d, not %d", method, res.Error.Code, code)
	default:
		c.pass(req, "%s answered %d", method, code)
	}
}

// checkParseError sends a line that is not JSON.
func (c *agentConn) checkParseError() {
	_ = c.p.sendRaw([]byte(`{"jsonrpc": "2.0", "id": 31, "method": "session/new", "params": {`))
	c.expectNullError(AgentRPCParseError, -32700, "a line that is not JSON", true)
}

// checkInvalidRequest sends a request whose method is not a string.
func (c *agentConn) checkInvalidRequest() {
	_ = c.p.sendRaw([]byte(`{"jsonrpc":"2.0","id":"acpcheck-invalid","method":42,"params":{}}`))
	c.expectNullError(AgentRPCInvalidRequest, -32600, "a request whose method is a number", false)
}

// expectNullError waits for an error response to a message the kit sent
// without a request id it tracks: with a null id when nullID, else with a
// null id or the message's own.
func (c *agentConn) expectNullError(req ID, code int, what string, nullID bool) {
	var got *msg
	err := c.pump(c.opts.Timeout, func(m *msg) bool {
		if !m.isResponse() || m.Error == nil {
			return false
		}
		if _, ours := c.p.methodOf(m.ID); ours {
			return false
		}
		got = m
		return true
	})
	switch {
	case err != nil:
		c.fail(req, "no error answered %s: %v", what, err)
	case got.Error.Code != code:
		c.fail(req, "%s answered error %d, not %d", what, got.Error.Code, code)
	case nullID && string(compactJSON(got.ID)) != "null":
		c.fail(req, "%s answered with id %s, not null", what, idText(got.ID))
	default:
		c.pass(req, "%s answered %d", what, code)
	}
	if got != nil && len(c.strays) > 0 && c.strays[len(c.strays)-1] == got {
		c.strays = c.strays[:len(c.strays)-1] // expected: not a stray
	}
}

func idText(id json.RawMessage) string {
	if id == nil {
		return "(none)"
	}
	return string(id)
}
