package acpv1test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/jsontest"
	"github.com/acpgen/acpgen/internal/sessiontest"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata")

// definitions holds the constructors of the schema definitions the session,
// plan and union tests decode, by schema name: the generated table of them all
// (definitions_test.go) is internal to the package.
var definitions = jsontest.Definitions{
	"ContentBlock":                   func() any { return new(acpv1.ContentBlock) },
	"ElicitationContentValue":        func() any { return new(acpv1.ElicitationContentValue) },
	"EmbeddedResourceResource":       func() any { return new(acpv1.EmbeddedResourceData) },
	"Error":                          func() any { return new(acpv1.Error) },
	"RequestId":                      func() any { return new(acpv1.RequestID) },
	"ToolCallContent":                func() any { return new(acpv1.ToolCallContent) },
	"SessionNotification":            func() any { return new(acpv1.SessionNotification) },
	"SessionUpdate":                  func() any { return new(acpv1.SessionUpdate) },
	"SetSessionConfigOptionResponse": func() any { return new(acpv1.SetSessionConfigOptionResponse) },
	"ToolCallUpdate":                 func() any { return new(acpv1.ToolCallUpdate) },
}

// describe writes out a change for the golden file and the tests.
func describe(c acpv1.SessionChange) string { return sessiontest.Describe(c) }

// TestSessionCorpus replays the session updates of the corpus's stable
// pages into session states: testdata/session_corpus.golden holds what
// each changed and where each session ends.
func TestSessionCorpus(t *testing.T) {
	newState := func(id string) any { return acpv1.NewSessionState(acpv1.SessionID(id)) }
	sessiontest.Corpus(t, "v1", definitions, "SessionNotification", newState, "testdata/session_corpus.golden", *updateGolden)
}

func decodeUpdate(t *testing.T, update string) acpv1.SessionUpdate {
	t.Helper()
	return jsontest.Decode[acpv1.SessionUpdate](t, update)
}

func TestSessionStatePlan(t *testing.T) {
	s := acpv1.NewSessionState("s")
	c := s.Apply(decodeUpdate(t, `{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}`))
	if got := describe(c); got != "plan main" {
		t.Errorf("change = %s", got)
	}
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"plan","entries":[{"content":"b","priority":"low","status":"completed"},{"content":"c","priority":"low","status":"pending"}]}`))
	p, ok := s.Plan(acpv1.PlanIDMain)
	if !ok || p.Kind != acpv1.PlanKindItems || len(p.Entries) != 2 || p.Entries[0].Content != "b" {
		t.Errorf("plan main = %+v, %v; want the second plan whole", p, ok)
	}
	if snap := s.Snapshot(); len(snap.Plans) != 1 {
		t.Errorf("%d plans, want 1", len(snap.Plans))
	}
}

func TestSessionStateToolCalls(t *testing.T) {
	s := acpv1.NewSessionState("s")
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read","kind":"read","status":"pending","content":[{"type":"content","content":{"type":"text","text":"x"}}],"_meta":{"a":1}}`))
	c := s.Apply(decodeUpdate(t, `{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","locations":[{"path":"/a"}]}`))
	if got := describe(c); got != "tool call t1" {
		t.Errorf("change = %s", got)
	}
	call, _ := s.ToolCall("t1")
	if call.Title != "Read" || *call.Kind != acpv1.ToolKindRead || *call.Status != acpv1.ToolCallStatusCompleted ||
		len(call.Content) != 1 || len(call.Locations) != 1 || string(call.Meta) != `{"a":1}` {
		t.Errorf("patched call = %+v", call)
	}
	// A value replaces, a list replaces the whole list, null is read as absent (v1).
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"Read /a","content":[],"kind":null}`))
	call, _ = s.ToolCall("t1")
	if call.Title != "Read /a" || len(call.Content) != 0 || call.Kind == nil || *call.Kind != acpv1.ToolKindRead {
		t.Errorf("patched call = %+v", call)
	}
	// A tool call created by a later tool_call replaces it whole.
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Again"}`))
	call, _ = s.ToolCall("t1")
	if call.Title != "Again" || call.Kind != nil || call.Locations != nil {
		t.Errorf("replaced call = %+v", call)
	}
	// An update for an id never seen creates the call.
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"tool_call_update","toolCallId":"t0","status":"in_progress"}`))
	snap := s.Snapshot()
	if len(snap.ToolCalls) != 2 || snap.ToolCalls[0].ToolCallID != "t1" || snap.ToolCalls[1].ToolCallID != "t0" ||
		*snap.ToolCalls[1].Status != acpv1.ToolCallStatusInProgress {
		t.Errorf("tool calls = %+v, want t1 then t0 (in progress)", snap.ToolCalls)
	}
}

// TestSessionStateToolCallTitleStatus: the title and status a session
// state gives alone are those of its copy of the call, pending while no
// update has set the status.
func TestSessionStateToolCallTitleStatus(t *testing.T) {
	s := acpv1.NewSessionState("s")
	if _, _, ok := s.ToolCallTitleStatus("t1"); ok {
		t.Fatal("a call never seen is found")
	}
	for _, u := range []string{
		`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"in_progress"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"Read /a","status":"completed"}`,
	} {
		s.Apply(decodeUpdate(t, u))
		call, _ := s.ToolCall("t1")
		status := acpv1.ToolCallStatusPending
		if call.Status != nil {
			status = *call.Status
		}
		title, got, ok := s.ToolCallTitleStatus("t1")
		if !ok || title != call.Title || got != status {
			t.Errorf("after %s: %q %q %v, want %q %q", u, title, got, ok, call.Title, status)
		}
	}
}

// TestSessionStateApplyOwned: an update handed over gives the state a
// copy of it gives.
func TestSessionStateApplyOwned(t *testing.T) {
	copied, owned := acpv1.NewSessionState("s"), acpv1.NewSessionState("s")
	for _, u := range []string{
		`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read","kind":"read","status":"pending","content":[{"type":"content","content":{"type":"text","text":"x"}}],"_meta":{"a":1}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","locations":[{"path":"/a"}]}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"t2","title":"Edit","rawInput":{"a":[1]}}`,
		`{"sessionUpdate":"usage_update","used":5,"size":10}`,
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
	newState := func() any { return acpv1.NewSessionState("s") }
	sessiontest.PatchCoversEveryMember(t, definitions, newState, `{"sessionUpdate":"tool_call","toolCallId":"t","title":""}`, nil)
}

func TestSessionStateOthers(t *testing.T) {
	s := acpv1.NewSessionState("s")
	sessiontest.RunSteps(t, sessiontest.NewState(definitions, s), [][2]string{
		{`{"sessionUpdate":"current_mode_update","currentModeId":"code"}`, "mode"},
		{`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"web","description":"search"}]}`, "commands"},
		{`{"sessionUpdate":"session_info_update","title":"First"}`, "info"},
		{`{"sessionUpdate":"session_info_update","updatedAt":"2025-01-01T00:00:00Z"}`, "info"},
		{`{"sessionUpdate":"usage_update","used":10,"size":100}`, "usage"},
		{`{"sessionUpdate":"config_option_update","configOptions":[]}`, "config options"},
		{`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}`, "nothing"},
		{`{"sessionUpdate":"_custom","x":1}`, "nothing"},
	})
	snap := s.Snapshot()
	if snap.CurrentMode == nil || *snap.CurrentMode != "code" || len(snap.AvailableCommands) != 1 ||
		snap.Title == nil || *snap.Title != "First" || snap.UpdatedAt == nil || snap.Usage == nil || snap.Usage.Used != 10 ||
		snap.ConfigOptions == nil {
		t.Errorf("snapshot = %+v", snap)
	}
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"session_info_update","title":null}`))
	if snap := s.Snapshot(); snap.Title != nil || snap.UpdatedAt == nil {
		t.Errorf("after title null: title %v, updatedAt %v; want the title cleared only", snap.Title, snap.UpdatedAt)
	}
}

// TestSessionSnapshotIsACopy changes a snapshot and the update applied,
// and checks that the state did not change.
func TestSessionSnapshotIsACopy(t *testing.T) {
	s := acpv1.NewSessionState("s")
	u := decodeUpdate(t, `{"sessionUpdate":"tool_call","toolCallId":"t","title":"T","content":[{"type":"content","content":{"type":"text","text":"x"}}]}`)
	s.Apply(u)
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}`))
	u.Value.(*acpv1.SessionUpdateToolCall).Title = "changed"
	snap := s.Snapshot()
	snap.ToolCalls[0].Content[0].Value.(*acpv1.ToolCallContentData).Content.Content.Value.(*acpv1.ContentBlockText).Text = "changed"
	snap.Plans[0].Entries[0].Content = "changed"
	again := s.Snapshot()
	if again.ToolCalls[0].Title != "T" || again.Plans[0].Entries[0].Content != "a" ||
		again.ToolCalls[0].Content[0].Value.(*acpv1.ToolCallContentData).Content.Content.Value.(*acpv1.ContentBlockText).Text != "x" {
		t.Errorf("the state changed with its snapshot or its input: %+v", again)
	}
}

func TestSessionStateConcurrent(t *testing.T) {
	sessiontest.Concurrent(t, sessiontest.NewState(definitions, acpv1.NewSessionState("s")), func(i, j int) string {
		return fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":"%d-%d","title":"t"}`, i, j)
	})
}

// TestSessionStateKeepsRawJSON checks that free-form JSON comes out of the
// state as it went in: no HTML escaping, numbers and key order kept.
func TestSessionStateKeepsRawJSON(t *testing.T) {
	s := acpv1.NewSessionState("s")
	s.Apply(decodeUpdate(t, `{"sessionUpdate":"tool_call","toolCallId":"t","title":"T","rawInput":{"z":"<a&b>","a":9007199254740993}}`))
	if c, _ := s.ToolCall("t"); string(c.RawInput) != `{"z":"<a&b>","a":9007199254740993}` {
		t.Errorf("rawInput = %s", c.RawInput)
	}
}

// TestSessionStateProperty applies random sequences of plans, tool calls
// and tool call updates to a state and to a model of the v1 rules (a plan
// replaces the plan main whole; tool_call replaces a call; an update's
// present members replace the call's, absent and null ones leave them),
// comparing them after each step.
func TestSessionStateProperty(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	ids := []string{"a", "b", "c"}
	members := map[string][]string{
		"title":     {`"one"`, `"two"`, "null"},
		"status":    {`"in_progress"`, `"completed"`, "null"},
		"locations": {`[{"path":"/x"}]`, "[]", "null"},
	}
	for seq := 0; seq < 200; seq++ {
		s := acpv1.NewSessionState("s")
		planEntries := -1
		var order []string
		calls := map[string]map[string]string{}
		for step := 0; step < 30; step++ {
			id := ids[r.Intn(len(ids))]
			var update string
			switch r.Intn(3) {
			case 0:
				planEntries = r.Intn(3)
				entries := strings.TrimSuffix(strings.Repeat(`{"content":"x","priority":"low","status":"pending"},`, planEntries), ",")
				update = `{"sessionUpdate":"plan","entries":[` + entries + `]}`
			case 1:
				update = fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":%q,"title":"new"}`, id)
				if calls[id] == nil {
					order = append(order, id)
				}
				calls[id] = map[string]string{"title": `"new"`}
			default:
				var parts []string
				if calls[id] == nil {
					order = append(order, id)
					calls[id] = map[string]string{"title": `""`}
				}
				for name, values := range members {
					if r.Intn(2) == 0 {
						v := values[r.Intn(len(values))]
						parts = append(parts, fmt.Sprintf(",%q:%s", name, v))
						if v != "null" {
							calls[id][name] = v
						}
					}
				}
				update = fmt.Sprintf(`{"sessionUpdate":"tool_call_update","toolCallId":%q%s}`, id, strings.Join(parts, ""))
			}
			s.Apply(decodeUpdate(t, update))
			snap := s.Snapshot()
			if planEntries >= 0 && (len(snap.Plans) != 1 || len(snap.Plans[0].Entries) != planEntries) {
				t.Fatalf("sequence %d, step %d, after %s: plans %+v, model main with %d entries", seq, step, update, snap.Plans, planEntries)
			}
			if len(snap.ToolCalls) != len(order) {
				t.Fatalf("sequence %d, step %d, after %s: %d tool calls, model %d", seq, step, update, len(snap.ToolCalls), len(order))
			}
			for i, c := range snap.ToolCalls {
				got := map[string]string{"title": fmt.Sprintf("%q", c.Title)}
				if c.Status != nil {
					got["status"] = fmt.Sprintf("%q", *c.Status)
				}
				if c.Locations != nil {
					got["locations"], _ = marshalString(c.Locations)
				}
				if string(c.ToolCallID) != order[i] || !reflect.DeepEqual(got, calls[order[i]]) {
					t.Fatalf("sequence %d, step %d, after %s: tool call %s = %v, model %s = %v", seq, step, update, c.ToolCallID, got, order[i], calls[order[i]])
				}
			}
		}
	}
}

func marshalString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
