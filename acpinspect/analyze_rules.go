package acpinspect

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// response pairs a response with its request and returns the request's
// method, or "" when it answers none.
func (in *Inspector) response(c *connState, f Frame, i int, env envelope) string {
	e := in.entries.at(i)
	if e.ID == "" {
		return ""
	}
	other := FromAgent
	if f.From == FromAgent {
		other = FromClient
	}
	p, ok := c.pending[pendingKey{other, e.ID}]
	if !ok {
		kind := "integer"
		if len(e.ID) > 0 && e.ID[0] == '"' {
			kind = "string"
		}
		in.addFinding(i, side(f.From)+".rpc.id-"+kind, fmt.Sprintf(
			"a response with id %s answers no request: the %s has no request with that id waiting", e.ID, side(other)))
		return ""
	}
	delete(c.pending, pendingKey{other, e.ID})
	req := in.entries.at(p.index)
	e.Method, e.Pair, req.Pair = p.method, req.Seq, e.Seq
	lat := ms(f.Time.Sub(p.time))
	e.LatencyMS, req.LatencyMS = &lat, &lat
	st := in.count(p.method)
	st.latencies = append(st.latencies, lat)
	if env.Error != nil {
		st.errors++
	}
	if e.Session == "" {
		e.Session = p.session
	}
	s := c.session(e.Session)
	if s == nil {
		return p.method
	}
	switch p.method {
	case "session/prompt":
		if c.dialect.version() == 1 {
			s.turnOpen, s.turnEnded = false, true
			in.stopReason(s, i, env.Result)
		}
	case "session/load":
		s.loading = false
	case "session/request_permission":
		in.permissionAnswered(s, i, env)
	}
	return p.method
}

// stopReason judges the stop reason of a turn that was cancelled.
func (in *Inspector) stopReason(s *session, i int, result json.RawMessage) {
	var r struct {
		StopReason string `json:"stopReason"`
	}
	json.Unmarshal(result, &r)
	if s.cancelled && r.StopReason != "" && r.StopReason != "cancelled" {
		in.addFinding(i, "agent.cancel.stop-reason", fmt.Sprintf(
			"the client sent session/cancel (message %d) during this turn, and the turn ended with stopReason %q", s.cancelSeq, r.StopReason))
	}
}

// permissionOf reads a permission request.
func permissionOf(params json.RawMessage, seq int64, id string) *PermissionView {
	var p struct {
		ToolCall struct {
			ToolCallID string `json:"toolCallId"`
			Title      string `json:"title"`
		} `json:"toolCall"`
		Options []struct {
			OptionID string `json:"optionId"`
		} `json:"options"`
	}
	json.Unmarshal(params, &p)
	v := &PermissionView{Seq: seq, ToolCall: p.ToolCall.ToolCallID, Title: p.ToolCall.Title, Options: []string{}, id: id}
	for _, o := range p.Options {
		v.Options = append(v.Options, o.OptionID)
	}
	return v
}

// permissionAnswered records a permission request's outcome and judges it.
func (in *Inspector) permissionAnswered(s *session, i int, env envelope) {
	e := in.entries.at(i)
	var perm *PermissionView
	for _, p := range s.perms {
		if p.id == e.ID && p.AnswerSeq == 0 {
			perm = p
		}
	}
	if perm == nil {
		return
	}
	perm.AnswerSeq = e.Seq
	if env.Error != nil {
		perm.Outcome = "error: " + env.Error.Message
		return
	}
	var r struct {
		Outcome struct {
			Outcome  string `json:"outcome"`
			OptionID string `json:"optionId"`
		} `json:"outcome"`
	}
	json.Unmarshal(env.Result, &r)
	switch r.Outcome.Outcome {
	case "selected":
		perm.Outcome = r.Outcome.OptionID
		if !slices.Contains(perm.Options, r.Outcome.OptionID) {
			in.addFinding(i, "client.permission.answer", fmt.Sprintf("the client chose %q, which the request did not offer (%v)", r.Outcome.OptionID, perm.Options))
		}
		if s.cancelled {
			in.addFinding(i, "client.permission.cancelled", fmt.Sprintf("the client cancelled the turn (message %d) and answered its permission request with %q", s.cancelSeq, r.Outcome.OptionID))
		}
	default:
		perm.Outcome = r.Outcome.Outcome
	}
}

// update is the part of a session/update the rules read.
type update struct {
	SessionID string `json:"sessionId"`
	Update    struct {
		Tag        string          `json:"sessionUpdate"`
		MessageID  string          `json:"messageId"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"toolCallId"`
		State      string          `json:"state"`
		StopReason string          `json:"stopReason"`
	} `json:"update"`
	raw     json.RawMessage // the update's text, when the scanner read it
	content contentBlock    // what the scanner read of the update's content
}

// contentBlock is what contentText reads of a content block.
type contentBlock struct {
	typ, text, uri string
	read           bool // the scanner read them
}

// show is the text a content block shows in a transcript.
func (c contentBlock) show() string {
	switch c.typ {
	case "text":
		return c.text
	case "resource_link":
		return "[" + c.uri + "]"
	}
	return "[" + c.typ + "]"
}

// contentText is the text of the update's content.
func (u *update) contentText() string {
	if u.content.read {
		return u.content.show()
	}
	return contentText(u.Update.Content)
}

// judge applies the rules of notifications.
func (in *Inspector) judge(c *connState, f Frame, i int, env envelope, u *update, method string) {
	e := in.entries.at(i)
	if e.Kind != "notification" {
		return
	}
	if e.Verdict == "invalid" {
		// Not in the session's views; the v1 plan in v2 is named still.
		if method == "session/update" && c.dialect.version() >= 2 && u.Update.Tag == "plan" {
			in.addFinding(i, "agent.plan.v2-no-v1-plan", "a v2 agent sent the v1 plan update")
		}
		return
	}
	s := c.session(e.Session)
	if s == nil {
		return
	}
	switch {
	case method == "session/cancel" && f.From == FromClient:
		if s.turnOpen || (c.dialect.version() >= 2 && !s.lastIdle) {
			s.cancelled, s.cancelSeq = true, e.Seq
		}
	case method == "session/update" && f.From == FromAgent:
		in.sessionUpdate(c, s, i, u, env.Params)
	}
}

// sessionUpdate adds an update to its session's views and judges it.
func (in *Inspector) sessionUpdate(c *connState, s *session, i int, u *update, params json.RawMessage) {
	e := in.entries.at(i)
	tag := u.Update.Tag
	v := c.dialect.version()
	if v == 1 && s.turnEnded && !s.turnOpen && !s.loading {
		rule := "agent.prompt.v1-updates-in-turn"
		if s.cancelled {
			rule = "agent.cancel.no-late-update"
		}
		in.addFinding(i, rule, fmt.Sprintf("a %s update came after the session's last session/prompt was answered", tag))
	}
	if v >= 2 && s.lastIdle && s.cancelled && tag != "state_update" {
		in.addFinding(i, "agent.cancel.no-late-update", fmt.Sprintf("a %s update came after the cancelled turn ended", tag))
	}
	if !strings.HasSuffix(tag, "_chunk") {
		s.split = true
	}
	switch tag {
	case "user_message_chunk", "user_message":
		s.say("user", u.Update.MessageID, u.contentText(), e.Seq)
	case "agent_message_chunk", "agent_message":
		s.say("agent", u.Update.MessageID, u.contentText(), e.Seq)
	case "agent_thought_chunk", "agent_thought":
		s.say("thought", u.Update.MessageID, u.contentText(), e.Seq)
	case "tool_call", "tool_call_update":
		s.toolSeen(u.Update.ToolCallID, e.Seq)
	case "state_update":
		raw := u.raw
		if raw == nil {
			var p struct {
				Update json.RawMessage `json:"update"`
			}
			json.Unmarshal(params, &p)
			raw = p.Update
		}
		s.states = append(s.states, StateChange{Seq: e.Seq, State: u.Update.State, Raw: raw})
		s.lastIdle = u.Update.State == "idle"
		if s.lastIdle && s.cancelled && u.Update.StopReason != "" && u.Update.StopReason != "cancelled" {
			in.addFinding(i, "agent.cancel.stop-reason", fmt.Sprintf("the client sent session/cancel (message %d) and the turn ended with stopReason %q", s.cancelSeq, u.Update.StopReason))
		}
		if u.Update.State == "running" {
			s.cancelled = false
		}
	case "plan_update", "plan_removed":
		if v == 1 && !c.planCap {
			in.addFinding(i, "agent.plan.v1-fallback", "a "+tag+" to a client that did not advertise the plan capability")
		}
	}
}
