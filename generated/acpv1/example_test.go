package acpv1_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

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

// Example_textChunk streams one chunk of the agent's reply; the connection
// writes it as a JSON-RPC line.
func Example_textChunk() {
	conn := acpv1.NewAgentSideConnection(agent{}, os.Stdout, fromClient())
	ctx, id := context.Background(), acpv1.SessionID("s1")

	err := conn.SessionUpdate(ctx, acpv1.NewSessionNotification(id,
		acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText("Hello"))))

	conn.Close() // the line goes out before Close returns
	fmt.Println(err)
	// Output:
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hello"}}}}
	// <nil>
}

// Example_toolCallDiff reports a tool call that edited a file.
func Example_toolCallDiff() {
	conn := acpv1.NewAgentSideConnection(agent{}, os.Stdout, fromClient())
	ctx, id := context.Background(), acpv1.SessionID("s1")

	err := conn.SessionUpdate(ctx, acpv1.NewSessionNotification(id, acpv1.NewSessionUpdateToolCall(acpv1.ToolCall{
		ToolCallID: "call-1", Title: "Fix the greeting", Kind: acpv1.Ptr(acpv1.ToolKindEdit),
		Content: []acpv1.ToolCallContent{acpv1.NewToolCallContentDiff("/src/main.go", "package main\n")}})))

	conn.Close() // the line goes out before Close returns
	fmt.Println(err)
	// Output:
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call-1","title":"Fix the greeting","kind":"edit","content":[{"type":"diff","path":"/src/main.go","newText":"package main\n"}]}}}
	// <nil>
}

// Example_plan sends the agent's plan.
func Example_plan() {
	conn := acpv1.NewAgentSideConnection(agent{}, os.Stdout, fromClient())
	ctx, id := context.Background(), acpv1.SessionID("s1")

	err := conn.SessionUpdate(ctx, acpv1.NewSessionNotification(id, acpv1.NewSessionUpdatePlan([]acpv1.PlanEntry{
		{Content: "Read the code", Priority: acpv1.PlanEntryPriorityHigh, Status: acpv1.PlanEntryStatusCompleted},
		{Content: "Fix the bug", Priority: acpv1.PlanEntryPriorityHigh, Status: acpv1.PlanEntryStatusInProgress}})))

	conn.Close() // the line goes out before Close returns
	fmt.Println(err)
	// Output:
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":"Read the code","priority":"high","status":"completed"},{"content":"Fix the bug","priority":"high","status":"in_progress"}]}}}
	// <nil>
}

// Example_permission answers a permission request with the option the user chose.
func Example_permission() {
	resp := acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected("allow-once"))

	out, _ := resp.MarshalJSON()
	fmt.Println(string(out))
	// Output: {"outcome":{"outcome":"selected","optionId":"allow-once"}}
}

// Example_prompt builds the params of a prompt request and sets an optional
// field on them.
func Example_prompt() {
	req := acpv1.NewPromptRequest("s1", []acpv1.ContentBlock{acpv1.NewContentBlockText("Fix the bug")})
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

func (agent) Initialize(context.Context, *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

func (agent) NewSession(context.Context, *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse("s1"), nil
}

func (agent) Prompt(context.Context, *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

func (agent) Cancel(context.Context, *acpv1.CancelNotification) error { return nil }
