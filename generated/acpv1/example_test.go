package acpv1_test

import (
	"encoding/json"
	"fmt"

	"github.com/acpgen/acpgen/generated/acpv1"
)

func Example() {
	params := []byte(`{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hello"}}}`)

	var n acpv1.SessionNotification
	if err := json.Unmarshal(params, &n); err != nil {
		panic(err)
	}
	switch u := n.Update.Value.(type) {
	case *acpv1.SessionUpdateAgentMessageChunk:
		if t, ok := u.Content.Value.(*acpv1.ContentBlockText); ok {
			fmt.Println("agent says:", t.Text)
		}
	case *acpv1.SessionUpdateToolCall:
		fmt.Println("tool call:", u.Title)
	case *acpv1.SessionUpdateOther:
		fmt.Printf("unknown update %q, kept as %s\n", u.Tag, u.Raw)
	}
	// Output: agent says: Hello
}

func Example_unknownVariant() {
	params := []byte(`{"sessionId":"s1","update":{"sessionUpdate":"_acme/progress","pct":42,"_meta":{"n":9007199254740993}}}`)

	var n acpv1.SessionNotification
	if err := json.Unmarshal(params, &n); err != nil {
		panic(err)
	}
	other := n.Update.Value.(*acpv1.SessionUpdateOther)
	out, _ := json.Marshal(n)
	fmt.Println(other.Tag, other.IsCustom())
	fmt.Println(string(out) == string(params))
	// Output:
	// _acme/progress true
	// true
}

// Example_textChunk streams one chunk of the agent's reply.
func Example_textChunk() {
	n := acpv1.SessionNotification{SessionID: "s1",
		Update: acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText("Hello"))}

	out, _ := n.MarshalJSON()
	fmt.Println(string(out))
	// Output: {"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hello"}}}
}

// Example_toolCallDiff reports a tool call that edits a file.
func Example_toolCallDiff() {
	update := acpv1.NewSessionUpdateToolCall(acpv1.ToolCall{ToolCallID: "call-1", Title: "Fix the greeting",
		Kind: acpv1.Ptr(acpv1.ToolKindEdit), Status: acpv1.Ptr(acpv1.ToolCallStatusCompleted),
		Content: []acpv1.ToolCallContent{acpv1.NewToolCallContentDiff("/src/main.go", "package main\n")}})

	out, _ := update.MarshalJSON()
	fmt.Println(string(out))
	// Output: {"sessionUpdate":"tool_call","toolCallId":"call-1","title":"Fix the greeting","kind":"edit","status":"completed","content":[{"type":"diff","path":"/src/main.go","newText":"package main\n"}]}
}

// Example_plan sends the agent's plan.
func Example_plan() {
	update := acpv1.NewSessionUpdatePlan([]acpv1.PlanEntry{
		{Content: "Read the code", Priority: acpv1.PlanEntryPriorityHigh, Status: acpv1.PlanEntryStatusCompleted},
		{Content: "Fix the bug", Priority: acpv1.PlanEntryPriorityHigh, Status: acpv1.PlanEntryStatusInProgress}})

	out, _ := update.MarshalJSON()
	fmt.Println(string(out))
	// Output: {"sessionUpdate":"plan","entries":[{"content":"Read the code","priority":"high","status":"completed"},{"content":"Fix the bug","priority":"high","status":"in_progress"}]}
}

// Example_permission answers a permission request with the option the user chose.
func Example_permission() {
	resp := acpv1.RequestPermissionResponse{Outcome: acpv1.NewRequestPermissionOutcomeSelected("allow-once")}

	out, _ := resp.MarshalJSON()
	fmt.Println(string(out))
	// Output: {"outcome":{"outcome":"selected","optionId":"allow-once"}}
}
