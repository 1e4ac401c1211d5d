package acpv2_test

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// echoAgent answers each prompt with its own text, as chunks of the
// message "reply-1", and ends the turn with a state update.
type echoAgent struct{ conn *acpv2.AgentSideConnection }

func (a *echoAgent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "echo", Version: "1.0"}), nil
}

func (a *echoAgent) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return acpv2.NewNewSessionResponse("session-1"), nil
}

func (a *echoAgent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	for _, block := range p.Prompt {
		update := acpv2.NewSessionUpdateAgentMessageChunk("reply-1", block)
		if err := a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(p.SessionID, update)); err != nil {
			return nil, err
		}
	}
	if err := a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(p.SessionID, acpv2.EndTurn())); err != nil {
		return nil, err
	}
	return acpv2.NewPromptResponse("prompt-1"), nil
}

func (a *echoAgent) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	return nil
}

// printer is a client that prints the agent's text and tells when the
// turn is over.
type printer struct{ idle chan string }

func (p printer) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	switch u := n.Update.Value.(type) {
	case *acpv2.SessionUpdateAgentMessageChunk:
		if t, ok := u.Content.Value.(*acpv2.ContentBlockText); ok {
			fmt.Printf("agent (%s): %s\n", u.MessageID, t.Text)
		}
	case *acpv2.SessionUpdateStateUpdate:
		if idle, ok := u.Value.(*acpv2.StateUpdateIdle); ok {
			p.idle <- idle.StopReason()
		}
	}
	return nil
}

func (printer) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeCancelled()), nil
}

// pipes returns the two ends of an in-memory stdio: what a client writes
// the agent reads, and back.
func pipes() (agentOut io.WriteCloser, agentIn io.ReadCloser, clientOut io.WriteCloser, clientIn io.ReadCloser) {
	clientIn, agentOut = io.Pipe()
	agentIn, clientOut = io.Pipe()
	return agentOut, agentIn, clientOut, clientIn
}

// A v2 agent and client: the agent streams the chunks of its message and
// ends the turn with an idle state update; the prompt's result is the id
// of the user's message. NewAgentSideConnectionFunc hands the agent its
// connection before any message is read.
func ExampleNewAgentSideConnectionFunc() {
	agentOut, agentIn, clientOut, clientIn := pipes()
	agent := acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
		return &echoAgent{conn: c}
	}, agentOut, agentIn)

	p := printer{idle: make(chan string, 1)}
	client := acpv2.NewClientSideConnection(p, clientOut, clientIn)
	ctx := context.Background()
	init, err := client.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "editor", Version: "1.0"}))
	if err != nil {
		panic(err)
	}
	fmt.Println("agent:", init.Info.Name, "protocol", init.ProtocolVersion)
	s, err := client.NewSession(ctx, acpv2.NewNewSessionRequest("/"))
	if err != nil {
		panic(err)
	}
	r, err := client.Prompt(ctx, acpv2.NewPromptRequest(s.SessionID, []acpv2.ContentBlock{acpv2.NewContentBlockText("hello")}))
	if err != nil {
		panic(err)
	}
	fmt.Println("user message:", r.MessageID, "stop:", <-p.idle)

	clientOut.Close() // the agent reads the end of its input
	<-agent.Done()
	client.Close()
	// Output:
	// agent: echo protocol 2
	// agent (reply-1): hello
	// user message: prompt-1 stop: end_turn
}

// A SessionState keeps what a client knows of a v2 session: plans by id,
// tool calls patched by their updates (members are Nullable: absent leaves,
// null clears, a value replaces), and the session's state.
func ExampleSessionState() {
	state := acpv2.NewSessionState("s1")
	state.Apply(acpv2.UpdatePlan("main", []acpv2.PlanEntry{
		{Content: "Fix the bug", Priority: acpv2.PlanEntryPriorityHigh, Status: acpv2.PlanEntryStatusInProgress}}))
	state.Apply(acpv2.StartToolCall("call-1", "Fix the greeting", acpv2.ToolKindEdit))
	change := state.Apply(acpv2.NewSessionUpdateToolCallUpdate(acpv2.ToolCallUpdate{
		ToolCallID: "call-1", Title: acpv2.Some("Fixed the greeting"), Kind: acpv2.Null[acpv2.ToolKind]()}))

	plan, _ := state.Plan("main")
	call, _ := state.ToolCall("call-1")
	fmt.Println(plan.Entries[0].Content, plan.Entries[0].Status)
	fmt.Println(change.ToolCalls, *call.Title, call.Kind, call.Status)
	// Output:
	// Fix the bug in_progress
	// [call-1] Fixed the greeting other pending
}

// An agent sends its plan with SendPlan, in the shape the client reads:
// a v2 client always gets plan_update, the plan's content whole.
func ExampleAgentSideConnection_SendPlan() {
	conn := acpv2.NewAgentSideConnection(agent{}, os.Stdout, fromClient())
	plan := acpv2.PlanState{ID: acpv2.PlanIDMain, Kind: acpv2.PlanKindItems, Entries: []acpv2.PlanEntry{
		{Content: "Fix the bug", Priority: acpv2.PlanEntryPriorityHigh, Status: acpv2.PlanEntryStatusInProgress}}}

	err := conn.SendPlan(context.Background(), "s1", plan)

	conn.Close() // the line goes out before Close returns
	fmt.Println(err)
	// Output:
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"main","entries":[{"content":"Fix the bug","priority":"high","status":"in_progress"}]}}}}
	// <nil>
}
