package acpv1_test

import (
	"context"
	"fmt"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// planAgent answers a prompt with a plan of two entries, sent as the
// client reads plans, and then reports the first entry done.
type planAgent struct{ echoAgent }

func (a *planAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	plan := acpv1.PlanState{ID: acpv1.PlanIDMain, Kind: acpv1.PlanKindItems, Entries: []acpv1.PlanEntry{
		{Content: "Read the code", Priority: acpv1.PlanEntryPriorityHigh, Status: acpv1.PlanEntryStatusInProgress},
		{Content: "Fix the bug", Priority: acpv1.PlanEntryPriorityMedium, Status: acpv1.PlanEntryStatusPending}}}
	if err := a.conn.SendPlan(ctx, p.SessionID, plan); err != nil {
		return nil, err
	}
	plan.Entries[0].Status = acpv1.PlanEntryStatusCompleted
	if err := a.conn.SendPlan(ctx, p.SessionID, plan); err != nil {
		return nil, err
	}
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

// sessionClient routes each session/update to the session it belongs to.
type sessionClient struct{ acpv1.SessionRouter }

func (*sessionClient) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}

// Sessions and plans, on the client's side: a SessionRouter embedded in
// the Client gives each session its updates in order, each applied to the
// session's state, which says what changed. On the agent's side, SendPlan
// sends a plan in the shape the client reads (here a v1 plan: the client
// did not advertise the plan operations).
func ExampleSessionRouter() {
	agentOut, agentIn, clientOut, clientIn := pipes()
	agent := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		return &planAgent{echoAgent{conn: c}}
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
	go func() {
		s.Prompt(ctx, []acpv1.ContentBlock{acpv1.NewContentBlockText("fix it")})
		s.Close() // Next returns an error once the updates before Close are read
	}()
	// Each event says what changed; the state already holds every update
	// received, which may be ahead of the event being read.
	for e, err := s.Next(ctx); err == nil; e, err = s.Next(ctx) {
		for _, id := range e.Change.Plans {
			fmt.Printf("plan %s changed\n", id)
		}
	}
	p, _ := s.State().Plan("main")
	fmt.Printf("plan main: %s %s, %s %s\n", p.Entries[0].Content, p.Entries[0].Status, p.Entries[1].Content, p.Entries[1].Status)

	clientOut.Close()
	<-agent.Done()
	conn.Close()
	// Output:
	// plan main changed
	// plan main changed
	// plan main: Read the code completed, Fix the bug pending
}

// A SessionState keeps what a client knows of a session by the protocol's
// rules: a tool call update patches the call it names, and Apply says what
// changed, so that a user interface redraws only that.
func ExampleSessionState() {
	state := acpv1.NewSessionState("s1")
	state.Apply(acpv1.StartToolCall("call-1", "Fix the greeting", acpv1.ToolKindEdit))
	change := state.Apply(acpv1.NewSessionUpdateToolCallUpdate(acpv1.ToolCallUpdate{
		ToolCallID: "call-1", Status: acpv1.Ptr(acpv1.ToolCallStatusCompleted)}))

	call, _ := state.ToolCall("call-1")
	fmt.Println(change.ToolCalls, call.Title, *call.Kind, *call.Status)
	// Output: [call-1] Fix the greeting edit completed
}
