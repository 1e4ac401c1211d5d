package acpv1_test

import (
	"context"
	"fmt"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// turnAgent is an agent on the turn runtime: the embedded TurnRunner
// serves the sessions, session/load among them.
type turnAgent struct{ *acpv1.TurnRunner }

func (turnAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	r := acpv1.NewInitializeResponse(1)
	r.AgentCapabilities = &acpv1.AgentCapabilities{LoadSession: acpv1.Ptr(true)}
	return r, nil
}

// A v1 agent on TurnRunner: the TurnFunc does one turn's work; the runner
// answers the prompt with the stop reason and keeps the session's history,
// which session/load replays, the user's prompt first, before its answer.
func ExampleTurnRunner() {
	agentOut, agentIn, clientOut, clientIn := pipes()
	agent := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		return turnAgent{acpv1.NewTurnRunner(c, func(ctx context.Context, t *acpv1.Turn) error {
			return t.Say(ctx, "hello")
		}, nil)}
	}, agentOut, agentIn)

	c, ctx := &sessionClient{}, context.Background()
	conn := acpv1.NewClientSideConnection(c, clientOut, clientIn)
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		panic(err)
	}
	s, _, err := c.NewSession(ctx, conn, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		panic(err)
	}
	res, err := s.Prompt(ctx, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")})
	if err != nil {
		panic(err)
	}
	fmt.Println("stop:", res.StopReason)
	s.Close()

	// The session loaded again: its history comes before the answer.
	loaded, _, err := c.LoadSession(ctx, conn, acpv1.NewLoadSessionRequest(s.ID(), "/", []acpv1.MCPServer{}))
	if err != nil {
		panic(err)
	}
	loaded.Close() // Next returns an error once the updates before Close are read
	for e, err := loaded.Next(ctx); err == nil; e, err = loaded.Next(ctx) {
		switch u := e.Notification.Update.Value.(type) {
		case *acpv1.SessionUpdateUserMessageChunk:
			fmt.Println("user:", u.Content.Value.(*acpv1.ContentBlockText).Text)
		case *acpv1.SessionUpdateAgentMessageChunk:
			fmt.Println("agent:", u.Content.Value.(*acpv1.ContentBlockText).Text)
		}
	}

	clientOut.Close()
	<-agent.Done()
	conn.Close()
	// Output:
	// stop: end_turn
	// user: hi
	// agent: hello
}
