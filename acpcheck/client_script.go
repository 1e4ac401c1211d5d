package acpcheck

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// prompt plays the scripted turn: updates of every kind, the probes of
// JSON-RPC hygiene, a file read where advertised, a permission request,
// and the turn's end.
func (r *clientRun) prompt(m *msg) {
	var p struct {
		SessionID string `json:"sessionId"`
		Prompt    []struct {
			Type string `json:"type"`
		} `json:"prompt"`
	}
	_ = json.Unmarshal(m.Params, &p)
	r.prompts++
	if r.prompts > 1 {
		r.endTurn(m, p.SessionID, "end_turn") // later prompts: an empty turn
		return
	}
	var bad []string
	for _, b := range p.Prompt {
		if !slices.Contains(allowedBlocks, b.Type) {
			bad = append(bad, b.Type)
		}
	}
	if len(bad) > 0 {
		r.verdict(ClientPromptContent, Fail, "prompt blocks the agent did not allow: %s", strings.Join(bad, ", "))
	} else {
		r.verdict(ClientPromptContent, Pass, "%d blocks, all allowed", len(p.Prompt))
	}
	sid := p.SessionID
	r.c.onNotification = func(n *msg) {
		if n.Method == "session/cancel" {
			r.cancelled[sid] = true
		}
	}
	msgID := "acpcheck_msg_1"
	if r.version == 2 {
		_ = r.c.p.respond(m.ID, map[string]any{"messageId": msgID})
		r.update(sid, map[string]any{"sessionUpdate": "user_message", "messageId": msgID, "content": []any{}})
		r.update(sid, map[string]any{"sessionUpdate": "state_update", "state": "running"})
	}
	r.sendUpdates(sid)
	r.probe()
	r.readFile(sid)
	r.writeFile(sid)
	r.terminal(sid)
	r.permission(sid)
	stop := "end_turn"
	if r.cancelled[sid] {
		stop = "cancelled"
	}
	if r.version == 2 {
		r.update(sid, map[string]any{"sessionUpdate": "state_update", "state": "idle", "stopReason": stop})
		return
	}
	r.endTurn(m, sid, stop)
}

func (r *clientRun) endTurn(m *msg, sid, stop string) {
	if r.version == 2 {
		_ = r.c.p.respond(m.ID, map[string]any{"messageId": fmt.Sprintf("acpcheck_msg_%d", r.prompts)})
		r.update(sid, map[string]any{"sessionUpdate": "state_update", "state": "idle", "stopReason": stop})
		return
	}
	_ = r.c.p.respond(m.ID, map[string]any{"stopReason": stop})
}

func (r *clientRun) update(sid string, u map[string]any) {
	_ = r.c.p.notify("session/update", map[string]any{"sessionId": sid, "update": u})
}

func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

// sendUpdates sends a session update of every kind the version has, plans
// in each shape the client reads, and unknown and custom updates.
func (r *clientRun) sendUpdates(sid string) {
	entries := []any{map[string]any{"content": "check the client", "priority": "high", "status": "in_progress"}}
	chunk := func(kind string, s string) map[string]any {
		u := map[string]any{"sessionUpdate": kind, "content": text(s)}
		if r.version == 2 {
			u["messageId"] = "acpcheck_reply_1"
		}
		return u
	}
	updates := []map[string]any{
		chunk("agent_message_chunk", "acpcheck: "),
		chunk("agent_thought_chunk", "thinking"),
		{"sessionUpdate": "available_commands_update", "availableCommands": []any{}},
	}
	if r.version == 2 {
		updates = append(updates,
			map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "acpcheck_call_1", "title": "check", "status": "in_progress"},
			map[string]any{"sessionUpdate": "plan_update", "plan": map[string]any{"type": "items", "planId": "acpcheck", "entries": entries}})
	} else {
		updates = append(updates,
			map[string]any{"sessionUpdate": "tool_call", "toolCallId": "acpcheck_call_1", "title": "check", "kind": "other", "status": "pending"},
			map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "acpcheck_call_1", "status": "completed"},
			map[string]any{"sessionUpdate": "plan", "entries": entries})
		if present(r.caps["plan"]) {
			updates = append(updates,
				map[string]any{"sessionUpdate": "plan_update", "plan": map[string]any{"type": "items", "planId": "acpcheck", "entries": entries}},
				map[string]any{"sessionUpdate": "plan_update", "plan": map[string]any{"type": "markdown", "planId": "notes", "content": "- check"}},
				map[string]any{"sessionUpdate": "plan_removed", "planId": "notes"})
		}
	}
	// What a newer or extended agent sends: unknown members, _meta, an
	// update kind from a future version and a custom one.
	known := chunk("agent_message_chunk", "unknown members follow")
	known["_meta"] = map[string]any{"acpcheck": true}
	known["futureMember"] = map[string]any{"x": 1}
	updates = append(updates, known,
		map[string]any{"sessionUpdate": "future_update_kind", "value": 1},
		map[string]any{"sessionUpdate": "_acpcheck_custom", "value": 1})
	for _, u := range updates {
		r.update(sid, u)
	}
	_ = r.c.p.notify("_acpcheck/notice", map[string]any{"n": 1})
	r.unknown = true
}

// probe checks the client's answers to a method it does not know, with an
// integer id (ids of the kit's own requests are integers).
func (r *clientRun) probe() {
	res, err := r.c.call("acpcheck/no_such_method", map[string]any{})
	req := ClientUpdatesUnknownV1
	if r.version == 2 {
		req = ClientUpdatesUnknownV2
	}
	if err != nil {
		r.verdict(req, Fail, "no answer after the unknown updates: %v", err)
		r.verdict(ClientRPCMethodNotFound, Fail, "%v", err)
		r.verdict(ClientRPCIDInteger, Fail, "%v", err)
		return
	}
	r.verdict(req, Pass, "the client answered after them")
	r.verdict(ClientRPCIDInteger, Pass, "id echoed")
	if res.Error != nil && res.Error.Code == -32601 {
		r.verdict(ClientRPCMethodNotFound, Pass, "answered -32601")
	} else {
		r.verdict(ClientRPCMethodNotFound, Fail, "answered %s, not -32601", errText(res, nil))
	}
}

// readFile asks for a file the client may or may not have, where the
// client advertised fs.readTextFile.
func (r *clientRun) readFile(sid string) {
	if !r.fsCaps().ReadTextFile {
		return
	}
	res, err := r.c.call("fs/read_text_file", map[string]any{"sessionId": sid, "path": "/acpcheck-no-such-file.txt"})
	if err != nil {
		r.verdict(ClientFSRead, Fail, "fs/read_text_file: %v", err)
		return
	}
	r.verdict(ClientFSRead, Pass, "answered (%s)", errText(res, nil))
}

// permission asks for permission with a string id and judges the answer.
func (r *clientRun) permission(sid string) {
	params := map[string]any{"sessionId": sid, "options": []any{
		map[string]any{"optionId": "allow", "name": "Allow", "kind": "allow_once"},
		map[string]any{"optionId": "reject", "name": "Reject", "kind": "reject_once"}}}
	if r.version == 2 {
		params["title"] = "acpcheck asks"
		r.update(sid, map[string]any{"sessionUpdate": "state_update", "state": "requires_action"})
	} else {
		params["toolCall"] = map[string]any{"toolCallId": "acpcheck_call_2", "title": "acpcheck asks"}
	}
	const id = `"acpcheck-permission-1"`
	if err := r.c.p.requestID(id, "session/request_permission", params); err != nil {
		r.verdict(ClientPermissionAnswer, Fail, "%v", err)
		return
	}
	res, err := r.c.await(id, r.opts.PermissionTimeout)
	if err != nil {
		r.verdict(ClientRPCIDString, Fail, "no answer with id %s: %v", id, err)
		r.verdict(ClientPermissionAnswer, Fail, "no answer: %v", err)
		return
	}
	r.verdict(ClientRPCIDString, Pass, "id %s echoed", id)
	var out struct {
		Outcome struct {
			Outcome  string `json:"outcome"`
			OptionID string `json:"optionId"`
		} `json:"outcome"`
	}
	_ = json.Unmarshal(res.Result, &out)
	o := out.Outcome
	switch {
	case res.Error != nil:
		r.verdict(ClientPermissionAnswer, Fail, "answered %s", errText(res, nil))
	case o.Outcome == "cancelled", o.Outcome == "selected" && (o.OptionID == "allow" || o.OptionID == "reject"):
		r.verdict(ClientPermissionAnswer, Pass, "outcome %s %s", o.Outcome, o.OptionID)
	default:
		r.verdict(ClientPermissionAnswer, Fail, "outcome %q option %q is none offered", o.Outcome, o.OptionID)
	}
	if r.cancelled[sid] {
		if o.Outcome == "cancelled" {
			r.verdict(ClientPermissionCancelled, Pass, "answered cancelled after session/cancel")
		} else {
			r.verdict(ClientPermissionCancelled, Fail, "answered %q after session/cancel", o.Outcome)
		}
	}
	if r.version == 2 {
		r.update(sid, map[string]any{"sessionUpdate": "state_update", "state": "running"})
	}
}

// terminal runs "true" in a terminal of a client that advertised
// terminals, waits for its exit and releases it.
func (r *clientRun) terminal(sid string) {
	var on bool
	if r.version == 2 || json.Unmarshal(r.caps["terminal"], &on) != nil || !on {
		return
	}
	res, err := r.c.call("terminal/create", map[string]any{"sessionId": sid, "command": "true"})
	if err != nil || res.Error != nil {
		r.verdict(ClientTerminal, Fail, "terminal/create: %s", errText(res, err))
		return
	}
	var t struct {
		TerminalID string `json:"terminalId"`
	}
	if json.Unmarshal(res.Result, &t) != nil || t.TerminalID == "" {
		r.verdict(ClientTerminal, Fail, "terminal/create answered no terminalId")
		return
	}
	for _, method := range []string{"terminal/wait_for_exit", "terminal/release"} {
		res, err := r.c.call(method, map[string]any{"sessionId": sid, "terminalId": t.TerminalID})
		if err != nil || res.Error != nil {
			r.verdict(ClientTerminal, Fail, "%s: %s", method, errText(res, err))
			return
		}
	}
	r.verdict(ClientTerminal, Pass, "terminal %s created, exited and released", t.TerminalID)
}
