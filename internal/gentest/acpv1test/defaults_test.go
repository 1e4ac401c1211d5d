package acpv1test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// TestDefaultObjectFilled: the members whose schema default is an object
// hold empty values in what the constructors return, nested ones included,
// and are left out while empty, as peers that never set them write them.
func TestDefaultObjectFilled(t *testing.T) {
	r := acpv1.NewInitializeResponse(1)
	r.AgentCapabilities.PromptCapabilities.Image = acpv1.Ptr(true)
	got, err := r.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"protocolVersion":1,"agentCapabilities":{"promptCapabilities":{"image":true}}}`; string(got) != want {
		t.Errorf("%s, want %s", got, want)
	}
	q := acpv1.NewInitializeRequest(1)
	q.ClientCapabilities.Fs.ReadTextFile = acpv1.Ptr(true)
	got, err = q.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true}}}`; string(got) != want {
		t.Errorf("%s, want %s", got, want)
	}
	if got, _ := acpv1.NewInitializeRequest(1).MarshalJSON(); string(got) != `{"protocolVersion":1}` {
		t.Errorf("empty defaults: %s", got)
	}
}

// TestShortcuts: the helpers for the messages every agent sends.
func TestShortcuts(t *testing.T) {
	for _, c := range []struct {
		value acpv1.SessionUpdate
		want  string
	}{
		{acpv1.StartToolCall("c1", "Fix the greeting", acpv1.ToolKindEdit),
			`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Fix the greeting","kind":"edit","status":"pending"}`},
		{acpv1.FinishToolCall("c1", acpv1.NewToolCallContentDiff("/src/main.go", "package main")),
			`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"diff","path":"/src/main.go","newText":"package main"}]}`},
		{acpv1.FinishToolCall("c1"), `{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`},
		{acpv1.AgentMessageText("hi"), `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}`},
		{acpv1.AgentThoughtText("hmm"), `{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hmm"}}`},
		{acpv1.UpdatePlan([]acpv1.PlanEntry{{Content: "Fix", Priority: acpv1.PlanEntryPriorityHigh, Status: acpv1.PlanEntryStatusPending}}),
			`{"sessionUpdate":"plan","entries":[{"content":"Fix","priority":"high","status":"pending"}]}`},
	} {
		got, err := c.value.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%s, want %s", got, c.want)
		}
	}
}
