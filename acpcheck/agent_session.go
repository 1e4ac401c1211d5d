package acpcheck

import (
	"encoding/json"
	"fmt"
	"strings"
)

// codeAuthRequired is the error an agent answers session/new with until
// the client has authenticated.
const codeAuthRequired = -32000

// sessionRequirements lists the requirements judged on a session.
func sessionRequirements(version int) []ID {
	ids := []ID{AgentSessionUnknown, AgentSessionLoad, AgentSessionList, AgentSessionResume,
		AgentSessionClose, AgentSessionDelete, AgentSessionModes, AgentSessionConfig}
	if version == 2 {
		ids = append(ids, AgentSessionV2Required, AgentSessionV2ResumeState)
	}
	return ids
}

// sessionResult is the parts of a session/new result the checks read.
type sessionResult struct {
	SessionID string `json:"sessionId"`
	Modes     *struct {
		AvailableModes []struct {
			ID string `json:"id"`
		} `json:"availableModes"`
	} `json:"modes"`
	ConfigOptions []struct {
		ID           string          `json:"id"`
		Type         string          `json:"type"`
		CurrentValue json.RawMessage `json:"currentValue"`
	} `json:"configOptions"`
}

// newSession creates a session and returns its result, or why it failed.
func (c *agentConn) newSession() (sessionResult, string) {
	var s sessionResult
	res, err := c.call("session/new", c.newSessionParams())
	if err == nil && res.Error != nil && res.Error.Code == codeAuthRequired {
		c.authRequired = true
	}
	if err != nil || res.Error != nil {
		return s, "session/new: " + errText(res, err)
	}
	if json.Unmarshal(res.Result, &s) != nil || s.SessionID == "" {
		return s, "session/new answered no sessionId"
	}
	return s, ""
}

// checkSessions creates the session the capability checks use.
func (c *agentConn) checkSessions() string {
	s, problem := c.newSession()
	switch {
	case c.authRequired:
		c.verdict(AgentSessionNew, NotExercised, "%s: the agent requires authentication, which the kit does not give", problem)
		return ""
	case problem != "":
		c.fail(AgentSessionNew, "%s", problem)
		return ""
	}
	c.pass(AgentSessionNew, "session %s", s.SessionID)
	if c.opts.NoPrompt {
		c.verdict(AgentSessionUnknown, NotExercised, "judged with a prompt, and prompts were not sent")
	} else {
		res, err := c.call("session/prompt", map[string]any{"sessionId": "acpcheck-no-such-session",
			"prompt": []any{map[string]any{"type": "text", "text": "hello"}}})
		switch {
		case err != nil:
			c.fail(AgentSessionUnknown, "session/prompt for an unknown session: %v", err)
		case res.Error == nil:
			c.fail(AgentSessionUnknown, "session/prompt for an unknown session answered with a result")
		default:
			c.pass(AgentSessionUnknown, "answered error %d", res.Error.Code)
		}
	}
	c.checkModes(s)
	c.checkConfig(s)
	return s.SessionID
}

// advertised reads the session capabilities of the initialize result:
// which of load, list, resume and close the agent offers.
func (c *agentConn) advertised() map[string]bool {
	out := map[string]bool{}
	var r struct {
		AgentCapabilities struct {
			LoadSession         bool                       `json:"loadSession"`
			SessionCapabilities map[string]json.RawMessage `json:"sessionCapabilities"`
		} `json:"agentCapabilities"`
		Capabilities struct {
			Session json.RawMessage `json:"session"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(c.initResult, &r)
	if c.version == 2 {
		if present(r.Capabilities.Session) {
			out["session"], out["list"], out["resume"], out["close"] = true, true, true, true
			var s map[string]json.RawMessage
			_ = json.Unmarshal(r.Capabilities.Session, &s)
			out["delete"] = present(s["delete"])
		}
		return out
	}
	out["load"] = r.AgentCapabilities.LoadSession
	for _, k := range []string{"list", "resume", "close", "delete"} {
		out[k] = present(r.AgentCapabilities.SessionCapabilities[k])
	}
	return out
}

func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// checkCapabilities exercises each session method the agent advertises.
func (c *agentConn) checkCapabilities(sid string) {
	adv := c.advertised()
	params := map[string]any{"sessionId": sid, "cwd": c.opts.Cwd}
	if c.version == 1 {
		params["mcpServers"] = []any{}
	}
	var missing []string
	try := func(req ID, key, method string, p any, judge func(*msg) string) {
		if !adv[key] {
			c.verdict(req, NotApplicable, "not advertised")
			return
		}
		res, err := c.call(method, p)
		problem := ""
		switch {
		case err != nil || res.Error != nil:
			problem = errText(res, err)
			if res != nil && res.Error != nil && res.Error.Code == -32601 {
				missing = append(missing, method)
			}
		case judge != nil:
			problem = judge(res)
		}
		if problem != "" {
			c.fail(req, "%s: %s", method, problem)
		} else {
			c.pass(req, "%s answered", method)
		}
	}
	if c.version == 1 {
		try(AgentSessionLoad, "load", "session/load", params, nil)
	} else {
		c.verdict(AgentSessionLoad, NotApplicable, "v2 has no session/load")
	}
	try(AgentSessionList, "list", "session/list", map[string]any{}, func(m *msg) string {
		if !strings.Contains(string(m.Result), fmt.Sprintf("%q", sid)) {
			return "the list does not name the session just created, " + sid
		}
		return ""
	})
	resume := map[string]any{"sessionId": sid, "cwd": c.opts.Cwd}
	before := len(c.updates)
	try(AgentSessionResume, "resume", "session/resume", resume, func(*msg) string {
		if c.version == 2 {
			c.judgeResumeState(sid, before)
		}
		return ""
	})
	for _, m := range []struct {
		req         ID
		key, method string
	}{
		{AgentSessionClose, "close", "session/close"},
		{AgentSessionDelete, "delete", "session/delete"},
	} {
		s, problem := c.newSession()
		if problem == "" {
			try(m.req, m.key, m.method, map[string]any{"sessionId": s.SessionID}, nil)
		} else {
			c.fail(m.req, "%s", problem)
		}
	}
	if c.version == 2 && len(c.rep.Find(AgentSessionV2ResumeState)) == 0 {
		c.verdict(AgentSessionV2ResumeState, NotApplicable, "session/resume not answered with a result")
	}
	if c.version == 2 {
		switch {
		case !adv["session"]:
			c.verdict(AgentSessionV2Required, NotApplicable, "capabilities.session not advertised")
		case len(missing) > 0:
			c.fail(AgentSessionV2Required, "capabilities.session advertised, but %s answered -32601", strings.Join(missing, ", "))
		default:
			c.pass(AgentSessionV2Required, "session/list, session/resume and session/close answered")
		}
	}
}

// checkModes switches to each mode session/new listed.
func (c *agentConn) checkModes(s sessionResult) {
	if c.version == 2 || s.Modes == nil || len(s.Modes.AvailableModes) == 0 {
		c.verdict(AgentSessionModes, NotApplicable, "no modes offered")
		return
	}
	for _, m := range s.Modes.AvailableModes {
		res, err := c.call("session/set_mode", map[string]any{"sessionId": s.SessionID, "modeId": m.ID})
		if err != nil || res.Error != nil {
			c.fail(AgentSessionModes, "session/set_mode %s: %s", m.ID, errText(res, err))
			return
		}
	}
	c.pass(AgentSessionModes, "%d modes set", len(s.Modes.AvailableModes))
}

// checkConfig sets each config option to its current value.
func (c *agentConn) checkConfig(s sessionResult) {
	if len(s.ConfigOptions) == 0 {
		c.verdict(AgentSessionConfig, NotApplicable, "no config options offered")
		return
	}
	n := 0
	for _, o := range s.ConfigOptions {
		p := map[string]any{"sessionId": s.SessionID, "configId": o.ID, "value": o.CurrentValue}
		switch {
		case o.Type == "boolean":
			p["type"] = "boolean"
		case o.Type == "select" && c.version == 2:
			p["type"] = "id"
		case o.Type != "select":
			continue // a custom option type: nothing the kit can set
		}
		n++
		res, err := c.call("session/set_config_option", p)
		if err != nil || res.Error != nil {
			c.fail(AgentSessionConfig, "session/set_config_option %s: %s", o.ID, errText(res, err))
			return
		}
	}
	c.pass(AgentSessionConfig, "%d options set to their current value", n)
}

// judgeResumeState judges the updates that came before the answer to a
// v2 session/resume: among them, a state_update of the session.
func (c *agentConn) judgeResumeState(sid string, before int) {
	for _, u := range c.updatesFor(sid, before) {
		if u.Kind == "state_update" {
			c.pass(AgentSessionV2ResumeState, "a state_update came before the answer")
			return
		}
	}
	c.fail(AgentSessionV2ResumeState, "session/resume was answered without a state_update of the session before it")
}
