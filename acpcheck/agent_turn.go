package acpcheck

import (
	"encoding/json"
	"errors"
	"time"
)

// A turn is one prompt turn the kit drives.
type turn struct {
	sid       string
	promptID  string
	resp      *msg   // the answer to session/prompt
	messageID string // v2: the answer's messageId
	stop      string // the stop reason, when the turn ended
	ended     bool
	start     int      // index in c.updates when the prompt was sent
	end       int      // index in c.updates when the turn ended
	held      *msg     // a permission request the kit holds
	asked     int      // permission requests seen
	states    []string // v2: state_update states of the session, in order
}

// turnTimeout bounds a whole prompt turn.
func (c *agentConn) turnTimeout() time.Duration { return 3 * c.opts.Timeout }

// startTurn sends session/prompt with the kit's prompt text.
func (c *agentConn) startTurn(sid string) (*turn, error) {
	var blocks []any
	for _, text := range c.opts.Prompt {
		blocks = append(blocks, map[string]any{"type": "text", "text": text})
	}
	t := &turn{sid: sid, start: len(c.updates)}
	id, err := c.p.request("session/prompt", map[string]any{"sessionId": sid, "prompt": blocks})
	t.promptID = id
	return t, err
}

// errHeld says the wait stopped at a permission request the kit holds.
var errHeld = errors.New("permission request held")

// wait pumps messages until the turn ends; with hold, it stops at the
// first permission request instead, leaving it unanswered in t.held.
func (c *agentConn) wait(t *turn, hold bool) error {
	var stopped error
	err := c.pump(c.turnTimeout(), func(m *msg) bool {
		switch {
		case m.isResponse() && string(compactJSON(m.ID)) == t.promptID:
			t.resp = m
			if m.Error != nil {
				t.ended, t.end = true, len(c.updates)
				return true
			}
			if c.version == 2 {
				var r struct {
					MessageID string `json:"messageId"`
				}
				_ = json.Unmarshal(m.Result, &r)
				t.messageID = r.MessageID
				return false
			}
			var r struct {
				StopReason string `json:"stopReason"`
			}
			_ = json.Unmarshal(m.Result, &r)
			t.stop, t.ended, t.end = r.StopReason, true, len(c.updates)
			return true
		case m.isRequest() && m.Method == "session/request_permission":
			t.asked++
			if hold {
				t.held = m
				stopped = errHeld
				return true
			}
		case c.version == 2 && m.Method == "session/update":
			u := updateOf(m)
			if u.SessionID != t.sid || u.Kind != "state_update" {
				return false
			}
			var s struct {
				State      string `json:"state"`
				StopReason any    `json:"stopReason"`
			}
			_ = json.Unmarshal(u.Body, &s)
			t.states = append(t.states, s.State)
			if s.State == "idle" && t.resp != nil {
				t.stop, t.ended, t.end = stopText(s.StopReason), true, len(c.updates)
				return true
			}
		}
		return false
	})
	if err != nil {
		return err
	}
	return stopped
}

// stopText renders a v2 stopReason, a string or an object with a type.
func stopText(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case map[string]any:
		if t, ok := s["type"].(string); ok {
			return t
		}
		return "(object)"
	}
	return ""
}

// cancelTurn checks cancellation: a turn whose permission request the kit
// holds is cancelled, the request answered cancelled, and the turn must end
// cancelled. An agent that asks no permission gets a cancel sent right
// after its prompt, which is "not exercised" when the turn ends otherwise.
func (c *agentConn) cancelTurn() {
	s, problem := c.newSession()
	if problem != "" {
		c.fail(AgentCancelStopReason, "%s", problem)
		return
	}
	t, err := c.startTurn(s.SessionID)
	if err == nil {
		err = c.wait(t, true)
	}
	if errors.Is(err, errHeld) {
		_ = c.p.notify("session/cancel", map[string]any{"sessionId": s.SessionID})
		_ = c.p.respond(t.held.ID, map[string]any{"outcome": map[string]any{"outcome": "cancelled"}})
		err = c.wait(t, false)
		c.judgeCancel(t, err, AgentCancelPermission, AgentCancelStopReason)
		return
	}
	c.verdict(AgentCancelPermission, NotExercised, "the turn asked no permission")
	if err != nil {
		c.fail(AgentCancelStopReason, "the first turn did not end: %v", err)
		return
	}
	t, err = c.startTurn(s.SessionID)
	if err == nil {
		_ = c.p.notify("session/cancel", map[string]any{"sessionId": s.SessionID})
		err = c.wait(t, false)
	}
	if err == nil && t.resp != nil && t.resp.Error != nil {
		c.verdict(AgentCancelStopReason, NotExercised, "session/prompt answered %s", errText(t.resp, nil))
		return
	}
	if err == nil && t.stop != "cancelled" {
		c.verdict(AgentCancelStopReason, NotExercised, "the turn ended %q: the cancel may have arrived after its end", t.stop)
		return
	}
	c.judgeCancel(t, err, AgentCancelStopReason)
}

// judgeCancel judges a cancelled turn's end and what followed it.
func (c *agentConn) judgeCancel(t *turn, err error, reqs ...ID) {
	for _, req := range reqs {
		switch {
		case err != nil:
			c.fail(req, "the cancelled turn did not end: %v", err)
		case t.stop != "cancelled":
			c.fail(req, "the cancelled turn ended with stopReason %q", t.stop)
		default:
			c.pass(req, "ended with stopReason cancelled")
		}
	}
	if err != nil {
		return
	}
	c.drain(300 * time.Millisecond)
	if late := c.updatesFor(t.sid, t.end); len(late) > 0 {
		c.fail(AgentCancelNoLateUpdate, "%d updates after the cancelled turn ended, first %s", len(late), late[0].Kind)
	} else {
		c.pass(AgentCancelNoLateUpdate, "no update in 300 ms after the end")
	}
}
