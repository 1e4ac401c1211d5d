package acpv1_test

import (
	"context"
	"fmt"
	"io"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// echoAgent answers each prompt with its own text, as agent message
// chunks, and asks for a permission first when the prompt says "edit".
type echoAgent struct{ conn *acpv1.AgentSideConnection }

func (a *echoAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

func (a *echoAgent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse("session-1"), nil
}

func (a *echoAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	for _, block := range p.Prompt {
		if t, ok := block.Value.(*acpv1.ContentBlockText); ok && t.Text == "edit" {
			call := acpv1.ToolCallUpdate{ToolCallID: "call-1", Title: acpv1.Ptr("Edit main.go")}
			r, err := a.conn.RequestPermission(ctx, acpv1.NewRequestPermissionRequest(p.SessionID, call, []acpv1.PermissionOption{
				{OptionID: "allow", Name: "Allow", Kind: acpv1.PermissionOptionKindAllowOnce},
				{OptionID: "reject", Name: "Reject", Kind: acpv1.PermissionOptionKindRejectOnce}}))
			if err != nil {
				return nil, err
			}
			if _, ok := r.Outcome.Value.(*acpv1.RequestPermissionOutcomeSelected); !ok {
				return acpv1.NewPromptResponse(acpv1.StopReasonCancelled), nil
			}
		}
		if err := a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(p.SessionID, acpv1.NewSessionUpdateAgentMessageChunk(block))); err != nil {
			return nil, err
		}
	}
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

func (a *echoAgent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error { return nil }

// printer is a client that prints the agent's text and allows what it asks.
type printer struct{}

func (printer) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	if c, ok := n.Update.Value.(*acpv1.SessionUpdateAgentMessageChunk); ok {
		if t, ok := c.Content.Value.(*acpv1.ContentBlockText); ok {
			fmt.Println("agent:", t.Text)
		}
	}
	return nil
}

func (printer) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	fmt.Printf("permission for %q: %d options\n", *p.ToolCall.Title, len(p.Options))
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected(p.Options[0].OptionID)), nil
}

// pipes returns the two ends of an in-memory stdio: what a client writes
// the agent reads, and back.
func pipes() (agentOut io.WriteCloser, agentIn io.ReadCloser, clientOut io.WriteCloser, clientIn io.ReadCloser) {
	clientIn, agentOut = io.Pipe()
	agentIn, clientOut = io.Pipe()
	return agentOut, agentIn, clientOut, clientIn
}

// An agent: NewAgentSideConnectionFunc serves it over a writer and a
// reader (os.Stdout and os.Stdin in a program a client starts), and hands
// it its connection before any message is read, so that its handlers can
// call the client. Here a client drives it over pipes.
func ExampleNewAgentSideConnectionFunc() {
	agentOut, agentIn, clientOut, clientIn := pipes()
	agent := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		return &echoAgent{conn: c}
	}, agentOut, agentIn)

	client := acpv1.NewClientSideConnection(printer{}, clientOut, clientIn)
	ctx := context.Background()
	if _, err := client.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		panic(err)
	}
	s, err := client.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		panic(err)
	}
	r, err := client.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("hello")}))
	if err != nil {
		panic(err)
	}
	fmt.Println("stop:", r.StopReason)

	clientOut.Close() // the agent reads the end of its input
	<-agent.Done()
	client.Close()
	// Output:
	// agent: hello
	// stop: end_turn
}

// A client: NewClientSideConnection serves the Client's handlers (session
// updates, permission requests) and calls the agent, over the agent's
// standard input and output in a program that starts one. Notifications
// are handled in order, before the result of the prompt they belong to.
func ExampleNewClientSideConnection() {
	agentOut, agentIn, clientOut, clientIn := pipes()
	agent := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		return &echoAgent{conn: c}
	}, agentOut, agentIn)

	client := acpv1.NewClientSideConnection(printer{}, clientOut, clientIn)
	ctx := context.Background()
	if _, err := client.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		panic(err)
	}
	s, err := client.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		panic(err)
	}
	prompt := []acpv1.ContentBlock{acpv1.NewContentBlockText("edit"), acpv1.NewContentBlockText("done")}
	r, err := client.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, prompt))
	if err != nil {
		panic(err)
	}
	fmt.Println("stop:", r.StopReason)

	clientOut.Close()
	<-agent.Done()
	client.Close()
	// Output:
	// permission for "Edit main.go": 2 options
	// agent: edit
	// agent: done
	// stop: end_turn
}
