package acpv2_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

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

// Example_textChunk streams one chunk of the agent's reply; the connection
// writes it as a JSON-RPC line.
func Example_textChunk() {
	conn := acpv2.NewAgentSideConnection(agent{}, os.Stdout, fromClient())
	ctx, id := context.Background(), acpv2.SessionID("s1")

	err := conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(id,
		acpv2.NewSessionUpdateAgentMessageChunk("m1", acpv2.NewContentBlockText("Hello"))))

	conn.Close() // the line goes out before Close returns
	fmt.Println(err)
	// Output:
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Hello"}}}}
	// <nil>
}

// Example_toolCallDiff reports that a tool call modified a file.
func Example_toolCallDiff() {
	conn := acpv2.NewAgentSideConnection(agent{}, os.Stdout, fromClient())
	ctx, id := context.Background(), acpv2.SessionID("s1")

	err := conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(id, acpv2.NewSessionUpdateToolCallContentChunk("call-1",
		acpv2.NewToolCallContentDiff([]acpv2.DiffChange{acpv2.NewDiffChangeModify("/src/main.go")}))))

	conn.Close() // the line goes out before Close returns
	fmt.Println(err)
	// Output:
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_content_chunk","toolCallId":"call-1","content":{"type":"diff","changes":[{"operation":"modify","path":"/src/main.go"}]}}}}
	// <nil>
}

// Example_plan sends the agent's plan.
func Example_plan() {
	conn := acpv2.NewAgentSideConnection(agent{}, os.Stdout, fromClient())
	ctx, id := context.Background(), acpv2.SessionID("s1")

	err := conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(id, acpv2.NewSessionUpdatePlanUpdate(
		acpv2.NewPlanUpdateContentItems("main", []acpv2.PlanEntry{
			{Content: "Fix the bug", Priority: acpv2.PlanEntryPriorityHigh, Status: acpv2.PlanEntryStatusInProgress}}))))

	conn.Close() // the line goes out before Close returns
	fmt.Println(err)
	// Output:
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"main","entries":[{"content":"Fix the bug","priority":"high","status":"in_progress"}]}}}}
	// <nil>
}

// Example_prompt builds the params of a prompt request and sets an optional
// field on them.
func Example_prompt() {
	req := acpv2.NewPromptRequest("s1", []acpv2.ContentBlock{acpv2.NewContentBlockText("Fix the bug")})
	req.Meta = json.RawMessage(`{"trace":"t1"}`)

	out, _ := req.MarshalJSON()
	fmt.Println(string(out))
	// Output: {"sessionId":"s1","prompt":[{"type":"text","text":"Fix the bug"}],"_meta":{"trace":"t1"}}
}

// fromClient returns what an example's connection reads: nothing, ever.
func fromClient() io.Reader {
	r, _ := io.Pipe()
	return r
}

// agent is the smallest Agent; the examples only send notifications.
type agent struct{}

func (agent) Initialize(context.Context, *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "example", Version: "1.0"}), nil
}

func (agent) NewSession(context.Context, *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return acpv2.NewNewSessionResponse("s1"), nil
}

func (agent) Prompt(context.Context, *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	return acpv2.NewPromptResponse("m1"), nil
}

func (agent) CancelSession(context.Context, *acpv2.CancelSessionNotification) error { return nil }
