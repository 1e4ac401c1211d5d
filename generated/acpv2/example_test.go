package acpv2_test

import (
	"fmt"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// Example reads a session update and switches on its variant.
func Example() {
	params := []byte(`{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Hello"}}}`)

	var n acpv2.UpdateSessionNotification
	if err := n.UnmarshalJSON(params); err != nil {
		panic(err)
	}
	fmt.Println(n.Update.Tag())
	switch u := n.Update.Value.(type) {
	case *acpv2.SessionUpdateAgentMessageChunk:
		if t, ok := u.Content.Value.(*acpv2.ContentBlockText); ok {
			fmt.Println("agent says:", t.Text)
		}
	case *acpv2.SessionUpdateOther:
		fmt.Printf("unknown update %q, kept as %s\n", u.Tag, u.Raw)
	}
	// Output:
	// agent_message_chunk
	// agent says: Hello
}

// Example_textChunk streams one chunk of the agent's reply.
func Example_textChunk() {
	n := acpv2.UpdateSessionNotification{SessionID: "s1",
		Update: acpv2.NewSessionUpdateAgentMessageChunk("m1", acpv2.NewContentBlockText("Hello"))}

	out, _ := n.MarshalJSON()
	fmt.Println(string(out))
	// Output: {"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Hello"}}}
}

// Example_toolCallDiff reports that a tool call modified a file.
func Example_toolCallDiff() {
	update := acpv2.NewSessionUpdateToolCallContentChunk("call-1",
		acpv2.NewToolCallContentDiff([]acpv2.DiffChange{acpv2.NewDiffChangeModify("/src/main.go")}))

	out, _ := update.MarshalJSON()
	fmt.Println(string(out))
	// Output: {"sessionUpdate":"tool_call_content_chunk","toolCallId":"call-1","content":{"type":"diff","changes":[{"operation":"modify","path":"/src/main.go"}]}}
}

// Example_plan sends the agent's plan.
func Example_plan() {
	update := acpv2.NewSessionUpdatePlanUpdate(acpv2.NewPlanUpdateContentItems("main", []acpv2.PlanEntry{
		{Content: "Read the code", Priority: acpv2.PlanEntryPriorityHigh, Status: acpv2.PlanEntryStatusCompleted},
		{Content: "Fix the bug", Priority: acpv2.PlanEntryPriorityHigh, Status: acpv2.PlanEntryStatusInProgress}}))

	out, _ := update.MarshalJSON()
	fmt.Println(string(out))
	// Output: {"sessionUpdate":"plan_update","plan":{"type":"items","planId":"main","entries":[{"content":"Read the code","priority":"high","status":"completed"},{"content":"Fix the bug","priority":"high","status":"in_progress"}]}}
}
