package acpv2test

import (
	"flag"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/jsontest"
	"github.com/acpgen/acpgen/internal/sessiontest"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata")

// definitions holds the constructors of the schema definitions the session,
// plan and union tests decode, by schema name: the generated table of them all
// (definitions_test.go) is internal to the package.
var definitions = jsontest.Definitions{
	"ContentBlock":                   func() any { return new(acpv2.ContentBlock) },
	"ElicitationContentValue":        func() any { return new(acpv2.ElicitationContentValue) },
	"EmbeddedResourceResource":       func() any { return new(acpv2.EmbeddedResourceData) },
	"Error":                          func() any { return new(acpv2.Error) },
	"RequestId":                      func() any { return new(acpv2.RequestID) },
	"ToolCallContent":                func() any { return new(acpv2.ToolCallContent) },
	"PlanUpdateContent":              func() any { return new(acpv2.PlanUpdateContent) },
	"SessionUpdate":                  func() any { return new(acpv2.SessionUpdate) },
	"SetSessionConfigOptionResponse": func() any { return new(acpv2.SetSessionConfigOptionResponse) },
	"ToolCallUpdate":                 func() any { return new(acpv2.ToolCallUpdate) },
	"UpdateSessionNotification":      func() any { return new(acpv2.UpdateSessionNotification) },
}

// describe writes out a change for the golden file and the tests.
func describe(c acpv2.SessionChange) string { return sessiontest.Describe(c) }

// TestSessionCorpus replays the session updates of the corpus's stable
// pages into session states: testdata/session_corpus.golden holds what
// each changed and where each session ends.
func TestSessionCorpus(t *testing.T) {
	newState := func(id string) any { return acpv2.NewSessionState(acpv2.SessionID(id)) }
	sessiontest.Corpus(t, "v2", definitions, "UpdateSessionNotification", newState, "testdata/session_corpus.golden", *updateGolden)
}

func decodeUpdate(t *testing.T, update string) acpv2.SessionUpdate {
	t.Helper()
	return jsontest.Decode[acpv2.SessionUpdate](t, update)
}

func TestSessionStatePlans(t *testing.T) {
	s := acpv2.NewSessionState("s")
	sessiontest.RunSteps(t, sessiontest.NewState(definitions, s), [][2]string{
		{`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"b","entries":[{"content":"a","priority":"high","status":"pending"}]}}`, "plan b"},
		{`{"sessionUpdate":"plan_update","plan":{"type":"_outline","planId":"a","nodes":[1,2]}}`, "plan a"},
		{`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"b","entries":[]}}`, "plan b"},
	})
	snap := s.Snapshot()
	if len(snap.Plans) != 2 || snap.Plans[0].ID != "b" || snap.Plans[1].ID != "a" {
		t.Fatalf("plans = %+v, want b then a", snap.Plans)
	}
	if p := snap.Plans[0]; p.Kind != acpv2.PlanKindItems || len(p.Entries) != 0 {
		t.Errorf("plan b = %+v, want its second content (no entries)", p)
	}
	if p := snap.Plans[1]; p.Kind != "_outline" || string(p.Raw) != `{"type":"_outline","planId":"a","nodes":[1,2]}` {
		t.Errorf("plan a = %+v, want the unknown kind kept raw", p)
	}
}

func TestSessionStateToolCalls(t *testing.T) {
	s := acpv2.NewSessionState("s")
	c := s.Apply(decodeUpdate(t, `{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"Read","content":[{"type":"content","content":{"type":"text","text":"x"}}],"_meta":{"a":1,"b":2}}`))
	if got := describe(c); got != "tool call t1" {
		t.Errorf("change = %s", got)
	}
	call, _ := s.ToolCall("t1")
	if call.Kind != acpv2.ToolKindOther || call.Status != acpv2.ToolCallStatusPending || *call.Title != "Read" || call.Name != nil {
		t.Errorf("new call = %+v, want the protocol defaults and its title", call)
	}
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"tool_call_update","toolCallId":"t1","kind":"read","status":"in_progress","_meta":{"b":null,"c":{"d":1}},"capabilities":{"cancel":{}}}`))
	call, _ = s.ToolCall("t1")
	if call.Kind != acpv2.ToolKindRead || call.Status != acpv2.ToolCallStatusInProgress || *call.Title != "Read" || len(call.Content) != 1 ||
		string(call.Meta) != `{"a":1,"c":{"d":1}}` || call.Capabilities == nil {
		t.Errorf("patched call = %+v (meta %s)", call, call.Meta)
	}
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"tool_call_content_chunk","toolCallId":"t1","content":{"type":"content","content":{"type":"text","text":"y"}}}`))
	if call, _ = s.ToolCall("t1"); len(call.Content) != 2 {
		t.Errorf("after a content chunk: %d content items, want 2", len(call.Content))
	}
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"tool_call_update","toolCallId":"t1","kind":null,"status":null,"title":null,"content":[],"_meta":null,"capabilities":null}`))
	call, _ = s.ToolCall("t1")
	want := acpv2.ToolCallState{ToolCallID: "t1", Kind: acpv2.ToolKindOther, Status: acpv2.ToolCallStatusPending}
	if !reflect.DeepEqual(call, want) {
		t.Errorf("cleared call = %+v, want %+v", call, want)
	}
}

// TestSessionStateToolCallTitleStatus: the title and status a session
// state gives alone are those of its copy of the call.
func TestSessionStateToolCallTitleStatus(t *testing.T) {
	s := acpv2.NewSessionState("s")
	if _, _, ok := s.ToolCallTitleStatus("t1"); ok {
		t.Fatal("a call never seen is found")
	}
	for _, u := range []string{
		`{"sessionUpdate":"tool_call_update","toolCallId":"t1","kind":"read"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"Read","status":"in_progress"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":null,"status":"completed"}`,
	} {
		s.Apply(decodeUpdate(t, u))
		call, _ := s.ToolCall("t1")
		title := ""
		if call.Title != nil {
			title = *call.Title
		}
		gotTitle, got, ok := s.ToolCallTitleStatus("t1")
		if !ok || gotTitle != title || got != call.Status {
			t.Errorf("after %s: %q %q %v, want %q %q", u, gotTitle, got, ok, title, call.Status)
		}
	}
}

// TestSessionStateApplyOwned: an update handed over gives the state a
// copy of it gives.
func TestSessionStateApplyOwned(t *testing.T) {
	copied, owned := acpv2.NewSessionState("s"), acpv2.NewSessionState("s")
	for _, u := range []string{
		`{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"Read","content":[{"type":"content","content":{"type":"text","text":"x"}}],"_meta":{"a":1}}`,
		`{"sessionUpdate":"tool_call_content_chunk","toolCallId":"t1","content":{"type":"content","content":{"type":"text","text":"y"}}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}`,
		`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"c","description":"d"}]}`,
	} {
		a, b := copied.Apply(decodeUpdate(t, u)), owned.ApplyOwned(decodeUpdate(t, u))
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: change %+v, handed over %+v", u, a, b)
		}
	}
	if a, b := copied.Snapshot(), owned.Snapshot(); !reflect.DeepEqual(a, b) {
		t.Errorf("state %+v, handed over %+v", a, b)
	}
}

// TestToolCallPatchCoversEveryMember sets each member of a tool call update
// alone and checks that the patch carries it into the tool call.
func TestToolCallPatchCoversEveryMember(t *testing.T) {
	values := map[string]string{
		"capabilities": `{"cancel":{}}`,
	}
	newState := func() any { return acpv2.NewSessionState("s") }
	sessiontest.PatchCoversEveryMember(t, definitions, newState, `{"sessionUpdate":"tool_call_update","toolCallId":"t"}`, values)
}

func TestSessionStateOthers(t *testing.T) {
	s := acpv2.NewSessionState("s")
	sessiontest.RunSteps(t, sessiontest.NewState(definitions, s), [][2]string{
		{`{"sessionUpdate":"available_commands_update","availableCommands":[{"type":"command","name":"web","description":"search"}]}`, "commands"},
		{`{"sessionUpdate":"session_info_update","title":"First","updatedAt":"2025-01-01T00:00:00Z"}`, "info"},
		{`{"sessionUpdate":"usage_update","used":10,"size":100}`, "usage"},
		{`{"sessionUpdate":"config_option_update","configOptions":[]}`, "config options"},
		{`{"sessionUpdate":"state_update","state":"running","background":[{"type":"tool_call","toolCallId":"t"}]}`, "state"},
		{`{"sessionUpdate":"agent_message_chunk","messageId":"m","content":{"type":"text","text":"hi"}}`, "nothing"},
		{`{"sessionUpdate":"_custom","x":1}`, "nothing"},
	})
	snap := s.Snapshot()
	if len(snap.AvailableCommands) != 1 || snap.Title == nil || *snap.Title != "First" || snap.Usage == nil ||
		snap.ConfigOptions == nil || snap.State == nil || snap.State.Tag() != "running" || len(snap.Background) != 1 {
		t.Errorf("snapshot = %+v", snap)
	}
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn","background":[]}`))
	if snap := s.Snapshot(); snap.Background == nil || len(snap.Background) != 0 {
		t.Errorf("background = %#v, want none running ([])", snap.Background)
	}
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"state_update","state":"running"}`))
	if snap := s.Snapshot(); snap.Background != nil {
		t.Errorf("background = %#v, want not reported (nil)", snap.Background)
	}
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"session_info_update","title":null}`))
	if snap := s.Snapshot(); snap.Title != nil || snap.UpdatedAt == nil {
		t.Errorf("after title null: title %v, updatedAt %v; want the title cleared only", snap.Title, snap.UpdatedAt)
	}
}

func TestSessionSnapshotIsACopy(t *testing.T) {
	s := acpv2.NewSessionState("s")
	u := decodeUpdate(t, `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[{"content":"a","priority":"high","status":"pending"}]}}`)
	s.Apply(u)
	u.Value.(*acpv2.SessionUpdatePlanUpdate).Plan.Value.(*acpv2.PlanUpdateContentItems).Entries[0].Content = "changed"
	snap := s.Snapshot()
	snap.Plans[0].Entries[0].Content = "changed too"
	if p, _ := s.Plan("p"); p.Entries[0].Content != "a" {
		t.Errorf("the state changed with its snapshot or its input: %+v", p)
	}
}

func TestSessionStateConcurrent(t *testing.T) {
	sessiontest.Concurrent(t, sessiontest.NewState(definitions, acpv2.NewSessionState("s")), func(i, j int) string {
		return fmt.Sprintf(`{"sessionUpdate":"tool_call_update","toolCallId":"%d-%d"}`, i, j)
	})
}

// model is the rules of plans and tool calls, kept as simply as can be:
// plans as their JSON content by id, tool calls as their members by id.
type model struct {
	planOrder []string
	plans     map[string]string // id → kind
	callOrder []string
	calls     map[string]map[string]string
}

func (m *model) plan(id, kind string) {
	if _, ok := m.plans[id]; !ok {
		m.planOrder = append(m.planOrder, id)
	}
	m.plans[id] = kind
}

func (m *model) removePlan(id string) {
	if _, ok := m.plans[id]; !ok {
		return
	}
	delete(m.plans, id)
	for i, p := range m.planOrder {
		if p == id {
			m.planOrder = append(m.planOrder[:i:i], m.planOrder[i+1:]...)
		}
	}
}

// patch applies one member: absent leaves, null clears (to the default),
// a value replaces.
func (m *model) patch(id string, members map[string]string) {
	c, ok := m.calls[id]
	if !ok {
		c = map[string]string{"kind": "other", "status": "pending"}
		m.calls[id] = c
		m.callOrder = append(m.callOrder, id)
	}
	defaults := map[string]string{"kind": "other", "status": "pending"}
	for k, v := range members {
		switch {
		case v == "null" || v == "[]":
			if d, ok := defaults[k]; ok {
				c[k] = d
			} else {
				delete(c, k)
			}
		default:
			c[k] = strings.Trim(v, `"`)
		}
	}
}

// TestSessionStateProperty applies random sequences of plan and tool call
// updates to a state and to the model, and compares them after each step.
func TestSessionStateProperty(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	ids := []string{"a", "b", "c"}
	memberValues := map[string][]string{
		"title":   {`"one"`, `"two"`, "null"},
		"kind":    {`"read"`, `"edit"`, "null"},
		"status":  {`"in_progress"`, `"completed"`, "null"},
		"content": {`[{"type":"content","content":{"type":"text","text":"x"}}]`, "[]", "null"},
	}
	for seq := 0; seq < 200; seq++ {
		s := acpv2.NewSessionState("s")
		m := &model{plans: map[string]string{}, calls: map[string]map[string]string{}}
		for step := 0; step < 30; step++ {
			id := ids[r.Intn(len(ids))]
			var update string
			switch r.Intn(4) {
			case 0:
				kind := []string{"items", "markdown", "_custom"}[r.Intn(3)]
				update = fmt.Sprintf(`{"sessionUpdate":"plan_update","plan":{"type":%q,"planId":%q,"entries":[],"content":"c","uri":"u"}}`, kind, id)
				m.plan(id, kind)
			case 1:
				update = fmt.Sprintf(`{"sessionUpdate":"plan_removed","planId":%q}`, id)
				if planOpsBuild {
					m.removePlan(id)
				}
			default:
				members := map[string]string{}
				var parts []string
				for name, values := range memberValues {
					if r.Intn(2) == 0 {
						members[name] = values[r.Intn(len(values))]
						parts = append(parts, fmt.Sprintf(",%q:%s", name, members[name]))
					}
				}
				update = fmt.Sprintf(`{"sessionUpdate":"tool_call_update","toolCallId":%q%s}`, id, strings.Join(parts, ""))
				m.patch(id, members)
			}
			s.Apply(decodeUpdate(t, update))
			if err := compare(s.Snapshot(), m); err != "" {
				t.Fatalf("sequence %d, step %d, after %s: %s", seq, step, update, err)
			}
		}
	}
}

// compare says how snapshot differs from the model, "" when it does not.
func compare(snap acpv2.SessionSnapshot, m *model) string {
	var plans []string
	for _, p := range snap.Plans {
		plans = append(plans, p.ID+"="+string(p.Kind))
	}
	var want []string
	for _, id := range m.planOrder {
		want = append(want, id+"="+m.plans[id])
	}
	if fmt.Sprint(plans) != fmt.Sprint(want) {
		return fmt.Sprintf("plans %v, model %v", plans, want)
	}
	if len(snap.ToolCalls) != len(m.callOrder) {
		return fmt.Sprintf("%d tool calls, model %d", len(snap.ToolCalls), len(m.callOrder))
	}
	for i, c := range snap.ToolCalls {
		w := m.calls[m.callOrder[i]]
		got := map[string]string{"kind": string(c.Kind), "status": string(c.Status)}
		if c.Title != nil {
			got["title"] = *c.Title
		}
		if c.Content != nil {
			got["content"] = `[{"type":"content","content":{"type":"text","text":"x"}}]`
		}
		if string(c.ToolCallID) != m.callOrder[i] || !reflect.DeepEqual(got, w) {
			return fmt.Sprintf("tool call %s = %v, model %s = %v", c.ToolCallID, got, m.callOrder[i], w)
		}
	}
	return ""
}
