package convert_test

import (
	"context"
	"fmt"
	"io"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// echoV2 is a v2 agent that echoes each prompt and ends the turn.
type echoV2 struct{ conn *acpv2.AgentSideConnection }

func (a *echoV2) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "echo", Version: "1.0"}), nil
}

func (a *echoV2) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return acpv2.NewNewSessionResponse("session-1"), nil
}

func (a *echoV2) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
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

func (a *echoV2) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	return nil
}

// echoV1 is a v1 agent, which knows nothing of v2.
type echoV1 struct{}

func (echoV1) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

func (echoV1) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse("session-1"), nil
}

func (echoV1) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

func (echoV1) Cancel(ctx context.Context, p *acpv1.CancelNotification) error { return nil }

// textV1 is a v1 client that prints the agent's text.
type textV1 struct{}

func (textV1) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	if c, ok := n.Update.Value.(*acpv1.SessionUpdateAgentMessageChunk); ok {
		if t, ok := c.Content.Value.(*acpv1.ContentBlockText); ok {
			fmt.Println("agent:", t.Text)
		}
	}
	return nil
}

func (textV1) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}

// textV2 is the same client in v2.
type textV2 struct{}

func (textV2) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	return nil
}

func (textV2) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeCancelled()), nil
}

// stdio returns the two ends of an in-memory stdio between an agent and
// a client.
func stdio() (agentOut io.WriteCloser, agentIn io.ReadCloser, clientOut io.WriteCloser, clientIn io.ReadCloser) {
	clientIn, agentOut = io.Pipe()
	agentIn, clientOut = io.Pipe()
	return agentOut, agentIn, clientOut, clientIn
}

// A v2 agent serves a v1 client through the bridge: the agent sees a v2
// client, the client a v1 agent. The v2 turn's chunks reach the client as
// v1 chunks, and the idle state update that ends the turn answers the v1
// prompt with its stop reason.
func ExampleNewBridgeFunc() {
	agentOut, agentIn, clientOut, clientIn := stdio()
	bridge := convert.NewBridgeFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
		return &echoV2{conn: c}
	}, agentOut, agentIn, convert.BridgeOptions{})

	client := acpv1.NewClientSideConnection(textV1{}, clientOut, clientIn)
	ctx := context.Background()
	init, err := client.Initialize(ctx, acpv1.NewInitializeRequest(1))
	if err != nil {
		panic(err)
	}
	fmt.Println("agent:", init.AgentInfo.Name, "protocol", init.ProtocolVersion)
	s, err := client.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		panic(err)
	}
	r, err := client.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("hello")}))
	if err != nil {
		panic(err)
	}
	fmt.Println("stop:", r.StopReason)

	clientOut.Close()
	<-bridge.Done()
	client.Close()
	// Output:
	// agent: echo protocol 1
	// agent: hello
	// stop: end_turn
}

// A client for both versions: Negotiate offers v2 and, when the agent
// answers with protocol version 1, goes on in v1 with the v1 initialize.
func ExampleNegotiate() {
	agentOut, agentIn, clientOut, clientIn := stdio()
	agent := acpv1.NewAgentSideConnection(echoV1{}, agentOut, agentIn)

	ctx := context.Background()
	n, err := convert.Negotiate(ctx, clientOut, clientIn, convert.Offer{
		V2: acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "editor", Version: "1.0"}), V2Client: textV2{},
		V1: acpv1.NewInitializeRequest(1), V1Client: textV1{},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("version:", n.Version)
	if n.Version == 1 {
		s, err := n.V1.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
		if err != nil {
			panic(err)
		}
		fmt.Println("session:", s.SessionID)
	}

	clientOut.Close()
	<-agent.Done()
	n.V1.Close()
	// Output:
	// version: 1
	// session: session-1
}

// A v1 plan converts to a v2 plan_update of the plan "main", and back.
func ExamplePlanToV2() {
	v1 := acpv1.Plan{Entries: []acpv1.PlanEntry{
		{Content: "Fix the bug", Priority: acpv1.PlanEntryPriorityHigh, Status: acpv1.PlanEntryStatusInProgress}}}

	v2 := convert.PlanToV2(v1)
	out, _ := v2.MarshalJSON()
	fmt.Println(string(out))
	back, err := convert.PlanToV1(v2)
	fmt.Println(back.Entries[0].Content, err)
	// Output:
	// {"plan":{"type":"items","planId":"main","entries":[{"content":"Fix the bug","priority":"high","status":"in_progress"}]}}
	// Fix the bug <nil>
}
