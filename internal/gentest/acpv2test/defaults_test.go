package acpv2test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// TestDefaultObjectFilled: the member whose schema default is {} holds an
// empty value in what the constructor returns, so that a handler sets a
// capability without a nil check; left empty it is not written, set it is.
func TestDefaultObjectFilled(t *testing.T) {
	r := acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "a", Version: "1"})
	if r.Capabilities == nil {
		t.Fatal("NewInitializeResponse: Capabilities is nil")
	}
	got, err := r.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"protocolVersion":2,"info":{"name":"a","version":"1"}}`; string(got) != want {
		t.Errorf("empty default: %s, want %s", got, want)
	}
	r.Capabilities.Session = &acpv2.SessionCapabilities{Delete: &acpv2.SessionDeleteCapabilities{}}
	got, err = r.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"protocolVersion":2,"info":{"name":"a","version":"1"},"capabilities":{"session":{"delete":{}}}}`; string(got) != want {
		t.Errorf("a capability set: %s, want %s", got, want)
	}
	q := acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "c", Version: "1"})
	if q.Capabilities == nil {
		t.Fatal("NewInitializeRequest: Capabilities is nil")
	}
	// An empty object that was read, or set by hand, is written as it is.
	var back acpv2.InitializeRequest
	in := `{"protocolVersion":2,"info":{"name":"c","version":"1"},"capabilities":{}}`
	if err := back.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if got, _ := back.MarshalJSON(); string(got) != in {
		t.Errorf("decoded empty object: %s, want %s", got, in)
	}
	q.Capabilities = &acpv2.ClientCapabilities{}
	if got, _ := q.MarshalJSON(); string(got) != in {
		t.Errorf("empty object set by hand: %s, want %s", got, in)
	}
}

// TestNullable: Some and Null build the three states of a patch member.
func TestNullable(t *testing.T) {
	u := acpv2.ToolCallUpdate{ToolCallID: "c1", Title: acpv2.Some("Read a file"), Kind: acpv2.Null[acpv2.ToolKind]()}
	got, err := u.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"toolCallId":"c1","title":"Read a file","kind":null}`; string(got) != want {
		t.Errorf("%s, want %s", got, want)
	}
	if s := acpv2.Some(3); !s.Present || s.Null || s.Value != 3 {
		t.Errorf("Some(3) = %+v", s)
	}
	if n := acpv2.Null[string](); !n.Present || !n.Null {
		t.Errorf("Null() = %+v", n)
	}
}

// TestVariantConstructors covers the constructors of variants that are
// not objects, of unions with shared required members, and of unions
// inside unions.
func TestVariantConstructors(t *testing.T) {
	for _, c := range []struct {
		value interface{ MarshalJSON() ([]byte, error) }
		want  string
	}{
		{acpv2.NewRequestIDNumber(7), `7`},
		{acpv2.NewRequestIDStr("a"), `"a"`},
		{acpv2.NewAgentResponseIDNull(), `null`},
		{acpv2.NewElicitationContentValueStringArray([]string{"x"}), `["x"]`},
		{acpv2.NewSessionConfigOptionBoolean("fast", "Fast", true),
			`{"type":"boolean","currentValue":true,"configId":"fast","name":"Fast"}`},
		{acpv2.NewSessionUpdateStateUpdate(acpv2.NewStateUpdateIdle(acpv2.NewIdleStateUpdateEndTurn())),
			`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`},
		// The shortcuts for the messages every agent sends.
		{acpv2.StartToolCall("c1", "Fix the greeting", acpv2.ToolKindEdit),
			`{"sessionUpdate":"tool_call_update","toolCallId":"c1","title":"Fix the greeting","kind":"edit","status":"pending"}`},
		{acpv2.FinishToolCall("c1", acpv2.NewToolCallContentDiff([]acpv2.DiffChange{acpv2.NewDiffChangeModify("/src/main.go")})),
			`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"diff","changes":[{"operation":"modify","path":"/src/main.go"}]}]}`},
		{acpv2.FinishToolCall("c1"), `{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`},
		{acpv2.EndTurn(), `{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`},
		{acpv2.AgentMessageText("m1", "hi"),
			`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"hi"}}`},
		{acpv2.AgentThoughtText("m2", "hmm"),
			`{"sessionUpdate":"agent_thought_chunk","messageId":"m2","content":{"type":"text","text":"hmm"}}`},
		{acpv2.UpdatePlan("main", []acpv2.PlanEntry{{Content: "Fix", Priority: acpv2.PlanEntryPriorityHigh, Status: acpv2.PlanEntryStatusPending}}),
			`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"main","entries":[{"content":"Fix","priority":"high","status":"pending"}]}}`},
	} {
		got, err := c.value.MarshalJSON()
		if err != nil {
			t.Errorf("%T: %v", c.value, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("%T: %s, want %s", c.value, got, c.want)
		}
	}
}
