package acpinspect

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpcheck"
)

// script is a conversation, one frame per line: "c " for the client's,
// "a " for the agent's.
func feed(t testing.TB, in Recorder, script string) {
	t.Helper()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, line := range strings.Split(strings.TrimSpace(script), "\n") {
		line = strings.TrimSpace(line)
		from := FromClient
		switch {
		case strings.HasPrefix(line, "a "):
			from = FromAgent
		case !strings.HasPrefix(line, "c "):
			t.Fatalf("bad script line %q", line)
		}
		now = now.Add(time.Millisecond)
		in.Record(Frame{Conn: 1, Time: now, From: from, Data: []byte(line[2:])})
	}
}

const goodStart = `
c {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}
a {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"fake","version":"1"}}}
c {"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}
a {"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}
c {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hello"}]}}
a {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hel"}}}}
a {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"lo!"}}}}
a {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":"look","priority":"high","status":"in_progress"},{"content":"fix","priority":"low","status":"pending"}]}}}
a {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"read","status":"pending"}}}
a {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"in_progress"}}}
a {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}}}
a {"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t1","title":"read"},"options":[{"optionId":"yes","name":"Yes","kind":"allow_once"},{"optionId":"no","name":"No","kind":"reject_once"}]}}
c {"jsonrpc":"2.0","id":0,"result":{"outcome":{"outcome":"selected","optionId":"yes"}}}
a {"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}
`

// TestCleanConversation: a conversation that breaks no rule gives no
// finding, every message decodes, requests and responses are paired, and
// the session view holds the transcript, the plan, the tool call's history
// and the permission's outcome.
func TestCleanConversation(t *testing.T) {
	in := NewInspector()
	feed(t, in, goodStart)
	if f := in.Findings(); len(f) != 0 {
		t.Fatalf("findings in a clean conversation: %+v", f)
	}
	for _, e := range in.Entries(1, 100) {
		if e.Verdict != "ok" {
			t.Errorf("message %d (%s): verdict %s: %s %v", e.Seq, e.Method, e.Verdict, e.Problem, e.Unknown)
		}
		if e.Type == "" {
			t.Errorf("message %d has no Go type", e.Seq)
		}
	}
	e, _, _ := in.Entry(5)
	if e.Pair != 14 || e.LatencyMS == nil || *e.LatencyMS != 9 {
		t.Errorf("the prompt request: pair %d latency %v, want 14 and 9 ms", e.Pair, e.LatencyMS)
	}
	if e, _, _ := in.Entry(6); e.Type != "acpv1.SessionNotification (SessionUpdateAgentMessageChunk)" {
		t.Errorf("type of a chunk: %q", e.Type)
	}
	ss := in.Sessions()
	if len(ss) != 1 {
		t.Fatalf("%d sessions", len(ss))
	}
	s := ss[0]
	if len(s.Transcript) != 2 || s.Transcript[0].Text != "hello" || s.Transcript[1].Text != "Hello!" {
		t.Errorf("transcript: %+v", s.Transcript)
	}
	if len(s.State.Plans) != 1 || len(s.State.Plans[0].Entries) != 2 || s.State.Plans[0].Entries[0].Status != "in_progress" {
		t.Errorf("plans: %+v", s.State.Plans)
	}
	if len(s.ToolCalls) != 1 || len(s.ToolCalls[0].History) != 3 || s.ToolCalls[0].Status != "completed" {
		t.Errorf("tool calls: %+v", s.ToolCalls)
	}
	if len(s.Permissions) != 1 || s.Permissions[0].Outcome != "yes" {
		t.Errorf("permissions: %+v", s.Permissions)
	}
	st := in.Stats()
	i := slices.IndexFunc(st, func(m MethodStats) bool { return m.Method == "session/prompt" })
	if i < 0 || st[i].Count != 1 || st[i].Answered != 1 || st[i].P50MS != 9 || st[i].P99MS != 9 {
		t.Errorf("stats: %+v", st)
	}
}

// TestPlantedFaults: each planted fault gets its verdict and finding, on
// the message that carries it.
func TestPlantedFaults(t *testing.T) {
	cases := []struct {
		name, line string
		verdict    string
		rule       string
		text       string // in the problem or the unknown list
	}{
		{"invalid params", `c {"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"sessionId":"s1","prompt":"hi"}}`,
			"invalid", "client.schema.decodes", "prompt"},
		{"late update", `a {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"late"}}}}`,
			"finding", "agent.prompt.v1-updates-in-turn", ""},
		{"wrong response id", `a {"jsonrpc":"2.0","id":77,"result":{}}`,
			"finding", "agent.rpc.id-integer", ""},
		{"wrong string response id", `c {"jsonrpc":"2.0","id":"x","result":{}}`,
			"finding", "client.rpc.id-string", ""},
		{"unknown variant", `c {"jsonrpc":"2.0","id":10,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"hologram","data":1}]}}`,
			"unknown", "", `prompt[0]: unknown variant "hologram"`},
		{"unknown member", `c {"jsonrpc":"2.0","id":11,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[],"colour":"red"}}`,
			"unknown", "", "colour: unknown member"},
		{"nested unknown member", `c {"jsonrpc":"2.0","id":12,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"a"},{"type":"text","text":"b","tint":1}]}}`,
			"unknown", "", "prompt[1].tint: unknown member"},
		{"not JSON", `a Starting agent...`, "invalid", "agent.stdio.framing", "not a JSON-RPC message"},
		{"not JSON-RPC", `a {"jsonrpc":"2.0","method":5}`, "invalid", "agent.schema.decodes", "not a JSON-RPC message"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := NewInspector()
			feed(t, in, goodStart+c.line)
			e, _, _ := in.Entry(int64(in.Len()))
			if e.Verdict != c.verdict {
				t.Errorf("verdict %q, want %q (%s %v)", e.Verdict, c.verdict, e.Problem, e.Unknown)
			}
			all := e.Problem + " " + e.Path + " " + strings.Join(e.Unknown, " ")
			if c.text != "" && !strings.Contains(all, c.text) {
				t.Errorf("%q does not say %q", all, c.text)
			}
			fs := in.Findings()
			if c.rule == "" {
				if len(fs) != 0 {
					t.Errorf("findings: %+v", fs)
				}
				return
			}
			if len(fs) != 1 || fs[0].Rule != c.rule || fs[0].Seq != e.Seq || len(e.Findings) != 1 {
				t.Fatalf("findings %+v, want one %s on message %d", fs, c.rule, e.Seq)
			}
			if fs[0].Text == "" || fs[0].Tier == "" {
				t.Errorf("the finding lacks its requirement: %+v", fs[0])
			}
		})
	}
}

// TestCancelRules: after session/cancel the turn must end cancelled and
// the pending permission be answered cancelled.
func TestCancelRules(t *testing.T) {
	in := NewInspector()
	feed(t, in, `
c {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}
a {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}
c {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}
a {"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t1"},"options":[{"optionId":"yes","name":"Yes","kind":"allow_once"}]}}
c {"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}
c {"jsonrpc":"2.0","id":0,"result":{"outcome":{"outcome":"selected","optionId":"maybe"}}}
a {"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}
`)
	var rules []string
	for _, f := range in.Findings() {
		rules = append(rules, f.Rule)
	}
	want := []string{"client.permission.answer", "client.permission.cancelled", "agent.cancel.stop-reason"}
	if !slices.Equal(rules, want) {
		t.Errorf("findings %v, want %v", rules, want)
	}
}

// TestVersionRules: a v2 connection decodes with acpv2, flags the v1 plan
// update, and an agent that answers a higher version than asked is
// flagged.
func TestVersionRules(t *testing.T) {
	in := NewInspector()
	feed(t, in, `
c {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}
a {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"a","version":"1"}}}
a {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[]}}}
`)
	if c := in.Conns(); len(c) != 1 || c[0].Version != 2 {
		t.Fatalf("conns: %+v", c)
	}
	e, _, _ := in.Entry(2)
	if !strings.HasPrefix(e.Type, "acpv2.") {
		t.Errorf("the initialize response decoded as %q", e.Type)
	}
	if e, _, _ := in.Entry(1); e.Verdict != "ok" {
		t.Errorf("v2 initialize: %s %s", e.Verdict, e.Problem)
	}
	if e, _, _ := in.Entry(3); e.Verdict != "invalid" {
		t.Errorf("v1 plan in v2: verdict %q", e.Verdict)
	}
	if f := in.Findings(); len(f) == 0 || f[len(f)-1].Rule != "agent.plan.v2-no-v1-plan" {
		t.Errorf("findings: %+v", f)
	}

	in = NewInspector()
	feed(t, in, `
c {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}
a {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2}}
c {"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}
`)
	if f := in.Findings(); len(f) != 1 || f[0].Rule != "agent.init.version-echo" || f[0].Seq != 2 {
		t.Errorf("findings: %+v", f)
	}
}

// TestFirstMessage: a client that does not begin with initialize.
func TestFirstMessage(t *testing.T) {
	in := NewInspector()
	feed(t, in, `c {"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`)
	if f := in.Findings(); len(f) != 1 || f[0].Rule != "client.init.first" {
		t.Errorf("findings: %+v", f)
	}
}

// TestPassiveRulesExist: every rule an Inspector judges is one of
// acpcheck's requirements.
func TestPassiveRulesExist(t *testing.T) {
	for _, id := range PassiveRules() {
		if _, ok := acpcheck.ParseID(id); !ok {
			t.Errorf("acpcheck has no requirement %q", id)
		}
	}
}
