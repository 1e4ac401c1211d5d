package acpcheck

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
)

// fakeAgent is a hand-written agent speaking raw JSON-RPC, v1 and v2,
// right in every respect the kit checks unless fault names one rule to
// break. The tests run it as the test binary with ACPCHECK_FAKE_AGENT set.
type fakeAgent struct {
	fault   string
	out     io.Writer
	mu      sync.Mutex // guards writes and the fields below
	version int
	planCap bool
	nextID  int
	waiting map[string]chan json.RawMessage // permission requests by id
	cancel  map[string]bool                 // sessions cancelled during their turn
	running map[string]bool
	history map[string][]map[string]any // v1: the updates of each session's turns, to replay
	nsess   int
	turns   sync.WaitGroup
}

func runFakeAgent(fault string, in io.Reader, out io.Writer) {
	a := &fakeAgent{fault: fault, out: out, waiting: map[string]chan json.RawMessage{},
		cancel: map[string]bool{}, running: map[string]bool{}, history: map[string][]map[string]any{}}
	switch fault {
	case "framing":
		fmt.Fprintln(out, "starting fake agent")
	case "exit":
		return
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		a.handle(sc.Bytes())
	}
	a.turns.Wait()
	if fault == "eof" {
		time.Sleep(time.Hour)
	}
}

func (a *fakeAgent) write(v any) {
	b, _ := json.Marshal(v)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.out.Write(append(b, '\n'))
}

func (a *fakeAgent) result(id json.RawMessage, r any) {
	a.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": r})
}

func (a *fakeAgent) error(id json.RawMessage, code int, text string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	a.write(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": text}})
}

func (a *fakeAgent) update(sid string, u map[string]any) {
	a.write(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": sid, "update": u}})
}

type fakeMsg struct {
	ID     json.RawMessage `json:"id"`
	Method any             `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func (a *fakeAgent) handle(line []byte) {
	var m fakeMsg
	if err := json.Unmarshal(line, &m); err != nil {
		if a.fault != "parse-error" {
			a.error(nil, -32700, "parse error")
		}
		return
	}
	method, ok := m.Method.(string)
	if m.Method != nil && !ok {
		a.error(m.ID, -32600, "invalid request")
		return
	}
	if method == "" {
		a.mu.Lock()
		ch := a.waiting[string(m.ID)]
		delete(a.waiting, string(m.ID))
		a.mu.Unlock()
		if ch != nil {
			ch <- m.Result
		}
		return
	}
	if m.ID == nil {
		a.notification(method, m.Params)
		return
	}
	if a.fault == "id-string" && m.ID[0] == '"' {
		m.ID = json.RawMessage("null")
	}
	a.request(m.ID, method, m.Params)
}

func (a *fakeAgent) notification(method string, params json.RawMessage) {
	if a.fault == "notification-answer" {
		a.write(map[string]any{"jsonrpc": "2.0", "error": map[string]any{"code": -32601, "message": "unknown"}})
	}
	if method == "session/cancel" && a.fault != "cancel" {
		var p struct{ SessionID string }
		json.Unmarshal(params, &p)
		a.mu.Lock()
		if a.running[p.SessionID] {
			a.cancel[p.SessionID] = true
		}
		a.mu.Unlock()
	}
}

func (a *fakeAgent) request(id json.RawMessage, method string, params json.RawMessage) {
	var p struct {
		ProtocolVersion    int             `json:"protocolVersion"`
		SessionID          string          `json:"sessionId"`
		Cwd                any             `json:"cwd"`
		ClientCapabilities json.RawMessage `json:"clientCapabilities"`
		Prompt             []struct{ Text string }
		ReplayFrom         *struct{ Type string }
	}
	json.Unmarshal(params, &p)
	switch method {
	case "initialize":
		a.initialize(id, p.ProtocolVersion, p.ClientCapabilities)
	case "session/new":
		if a.fault == "auth" {
			a.error(id, -32000, "Authentication required")
			return
		}
		if _, ok := p.Cwd.(string); !ok {
			a.error(id, -32602, "cwd must be a string")
			return
		}
		a.mu.Lock()
		a.nsess++
		sid := "fake_" + strconv.Itoa(a.nsess)
		a.mu.Unlock()
		a.result(id, map[string]any{"sessionId": sid})
	case "session/list":
		if a.fault == "v2-required" {
			a.error(id, -32601, "method not found")
			return
		}
		a.mu.Lock()
		var list []any
		for i := 1; i <= a.nsess; i++ {
			list = append(list, map[string]any{"sessionId": "fake_" + strconv.Itoa(i), "cwd": os.TempDir()})
		}
		a.mu.Unlock()
		a.result(id, map[string]any{"sessions": list})
	case "session/resume":
		a.mu.Lock()
		v := a.version
		a.mu.Unlock()
		// It retains no history: replayFrom start replays nothing, unless
		// the fault refuses it; another cursor is refused, unless the fault
		// ignores it.
		if r := p.ReplayFrom; v == 2 && r != nil && (r.Type == "start" && a.fault == "v2-replay-start" || r.Type != "start" && a.fault != "v2-replay-cursor") {
			a.error(id, -32602, "unsupported replayFrom")
			return
		}
		if v == 2 && a.fault != "v2-resume-state" {
			a.update(p.SessionID, map[string]any{"sessionUpdate": "state_update", "state": "idle"})
		}
		a.result(id, map[string]any{})
	case "session/load":
		a.load(id, p.SessionID)
	case "session/close", "session/delete":
		a.result(id, map[string]any{})
	case "session/prompt":
		if len(p.SessionID) < 5 || p.SessionID[:5] != "fake_" {
			a.error(id, -32602, "unknown session")
			return
		}
		a.mu.Lock()
		a.running[p.SessionID] = true
		a.mu.Unlock()
		for _, b := range p.Prompt {
			a.remember(p.SessionID, map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": b.Text}})
		}
		a.turns.Add(1)
		go a.turn(id, p.SessionID)
	default:
		code := -32601
		if a.fault == "method-not-found" {
			code = -32603
		}
		a.error(id, code, "method not found")
	}
}

func (a *fakeAgent) initialize(id json.RawMessage, asked int, caps json.RawMessage) {
	v := min(asked, 2)
	if a.fault == "version" {
		v = asked
	}
	var c struct{ Plan json.RawMessage }
	json.Unmarshal(caps, &c)
	a.mu.Lock()
	a.version, a.planCap = v, c.Plan != nil
	a.mu.Unlock()
	info := map[string]any{"name": "fake", "version": "1.0.0"}
	if v == 2 {
		a.result(id, map[string]any{"protocolVersion": v, "info": info,
			"capabilities": map[string]any{"session": map[string]any{"delete": map[string]any{}}}, "authMethods": []any{}})
		return
	}
	caps1 := map[string]any{"loadSession": true}
	if a.fault == "schema" {
		caps1["loadSession"] = "yes"
	}
	a.result(id, map[string]any{"protocolVersion": v, "agentInfo": info, "agentCapabilities": caps1, "authMethods": []any{}})
}

// ask sends a permission request and waits for its answer.
func (a *fakeAgent) ask(sid string) string {
	a.mu.Lock()
	a.nextID++
	id := strconv.Itoa(a.nextID)
	ch := make(chan json.RawMessage, 1)
	a.waiting[id] = ch
	a.mu.Unlock()
	call := map[string]any{"toolCallId": "call_1", "title": "echo"}
	if a.version == 2 {
		a.update(sid, map[string]any{"sessionUpdate": "state_update", "state": "requires_action"})
	}
	params := map[string]any{"sessionId": sid, "toolCall": call, "options": []any{
		map[string]any{"optionId": "allow", "name": "Allow", "kind": "allow_once"}}}
	if a.version == 2 {
		delete(params, "toolCall")
		params["title"] = "echo"
	}
	a.write(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": "session/request_permission", "params": params})
	select {
	case r := <-ch:
		if a.version == 2 {
			a.update(sid, map[string]any{"sessionUpdate": "state_update", "state": "running"})
		}
		var out struct{ Outcome struct{ Outcome string } }
		json.Unmarshal(r, &out)
		return out.Outcome.Outcome
	case <-time.After(5 * time.Second):
		return "timeout"
	}
}

func (a *fakeAgent) turn(id json.RawMessage, sid string) {
	defer a.turns.Done()
	a.mu.Lock()
	v, planCap := a.version, a.planCap
	a.mu.Unlock()
	if v == 2 {
		a.turnV2(id, sid)
		return
	}
	if a.fault == "utf8" {
		a.mu.Lock()
		fmt.Fprintf(a.out, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hello `+"\xff"+`"}}}}`+"\n", sid)
		a.mu.Unlock()
	} else {
		hello := map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "hello"}}
		a.remember(sid, hello)
		a.update(sid, hello)
	}
	entries := []any{map[string]any{"content": "check", "priority": "medium", "status": "pending"}}
	if planCap || a.fault == "plan-fallback" {
		a.update(sid, map[string]any{"sessionUpdate": "plan_update", "plan": map[string]any{"type": "items", "planId": "main", "entries": entries}})
	} else {
		a.update(sid, map[string]any{"sessionUpdate": "plan", "entries": entries})
	}
	a.ask(sid)
	a.mu.Lock()
	cancelled := a.cancel[sid]
	delete(a.cancel, sid)
	delete(a.running, sid)
	a.mu.Unlock()
	stop := "end_turn"
	switch {
	case cancelled:
		stop = "cancelled"
	case a.fault == "stop-reason":
		stop = "done"
	}
	a.result(id, map[string]any{"stopReason": stop})
	if a.fault == "late-update" {
		a.update(sid, map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "late"}})
	}
}

func (a *fakeAgent) turnV2(id json.RawMessage, sid string) {
	msgID := "m_" + string(id)
	a.result(id, map[string]any{"messageId": msgID})
	if a.fault != "v2-user-message" {
		a.update(sid, map[string]any{"sessionUpdate": "user_message", "messageId": msgID, "content": []any{map[string]any{"type": "text", "text": "hi"}}})
	}
	if a.fault != "v2-running" {
		a.update(sid, map[string]any{"sessionUpdate": "state_update", "state": "running"})
	}
	entries := []any{map[string]any{"content": "check", "priority": "medium", "status": "pending"}}
	switch a.fault {
	case "v2-v1-plan":
		a.update(sid, map[string]any{"sessionUpdate": "plan", "entries": entries})
	case "v2-plan-no-id":
		a.update(sid, map[string]any{"sessionUpdate": "plan_update", "plan": map[string]any{"type": "items", "entries": entries}})
	default:
		a.update(sid, map[string]any{"sessionUpdate": "plan_update", "plan": map[string]any{"type": "items", "planId": "main", "entries": entries}})
	}
	a.ask(sid)
	a.mu.Lock()
	cancelled := a.cancel[sid]
	delete(a.cancel, sid)
	delete(a.running, sid)
	a.mu.Unlock()
	stop := "end_turn"
	if cancelled {
		stop = "cancelled"
	}
	a.update(sid, map[string]any{"sessionUpdate": "state_update", "state": "idle", "stopReason": stop})
}

// remember keeps an update of a session's conversation for session/load.
func (a *fakeAgent) remember(sid string, u map[string]any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.history[sid] = append(a.history[sid], u)
}

// load answers session/load after replaying the session's conversation,
// unless the fault is load-no-replay (no replay) or load-replay-after
// (the replay after the answer).
func (a *fakeAgent) load(id json.RawMessage, sid string) {
	a.mu.Lock()
	known := len(sid) > 5 && sid[:5] == "fake_"
	history := append([]map[string]any(nil), a.history[sid]...)
	a.mu.Unlock()
	if !known {
		a.error(id, -32602, "unknown session")
		return
	}
	if a.fault == "load-replay-after" {
		a.result(id, map[string]any{})
	}
	if a.fault != "load-no-replay" {
		for _, u := range history {
			a.update(sid, u)
		}
	}
	if a.fault != "load-replay-after" {
		a.result(id, map[string]any{})
	}
}
