package acpv1

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/acpgen/acpgen/internal/conntest"
)

// sessionAgent is an agent whose session/new and session/prompt run hooks.
type sessionAgent struct {
	conn     *AgentSideConnection
	onNew    func(ctx context.Context, id SessionID)
	onPrompt func(ctx context.Context, id SessionID)
}

func (a *sessionAgent) Initialize(ctx context.Context, p *InitializeRequest) (*InitializeResponse, error) {
	return NewInitializeResponse(1), nil
}

func (a *sessionAgent) NewSession(ctx context.Context, p *NewSessionRequest) (*NewSessionResponse, error) {
	if a.onNew != nil {
		a.onNew(ctx, "s1")
	}
	return NewNewSessionResponse("s1"), nil
}

func (a *sessionAgent) LoadSession(ctx context.Context, p *LoadSessionRequest) (*LoadSessionResponse, error) {
	if a.onNew != nil {
		a.onNew(ctx, p.SessionID)
	}
	return NewLoadSessionResponse(), nil
}

func (a *sessionAgent) Prompt(ctx context.Context, p *PromptRequest) (*PromptResponse, error) {
	if a.onPrompt != nil {
		a.onPrompt(ctx, p.SessionID)
	}
	return NewPromptResponse(StopReasonEndTurn), nil
}

func (a *sessionAgent) Cancel(ctx context.Context, p *CancelNotification) error { return nil }

// routingClient is a client whose session updates a SessionRouter routes.
type routingClient struct{ SessionRouter }

func (*routingClient) RequestPermission(ctx context.Context, p *RequestPermissionRequest) (*RequestPermissionResponse, error) {
	return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled()), nil
}

// connect joins agent a and client c over pipes; the connections end with
// the test, or when hangUp is called.
func connect(t *testing.T, a *sessionAgent, c Client) *ClientSideConnection {
	conn, _ := connectHangUp(t, a, c)
	return conn
}

func connectHangUp(t *testing.T, a *sessionAgent, c Client) (conn *ClientSideConnection, hangUp func()) {
	a.conn, conn, hangUp = conntest.Link(t,
		func(w io.Writer, r io.Reader) *AgentSideConnection { return NewAgentSideConnection(a, w, r) },
		func(w io.Writer, r io.Reader) *ClientSideConnection { return NewClientSideConnection(c, w, r) })
	return conn, hangUp
}

func TestSessionRouter(t *testing.T) {
	ctx := conntest.Ctx(t)
	a := &sessionAgent{}
	a.onNew = func(ctx context.Context, id SessionID) {
		// Sent before the result of session/new: kept for the session.
		a.conn.SessionUpdate(ctx, NewSessionNotification(id, NewSessionUpdateCurrentModeUpdate("code")))
		a.conn.SessionUpdate(ctx, NewSessionNotification("other", NewSessionUpdateCurrentModeUpdate("ask")))
	}
	a.onPrompt = func(ctx context.Context, id SessionID) {
		a.conn.SendPlan(ctx, id, PlanState{Kind: PlanKindItems, Entries: []PlanEntry{{Content: "x", Priority: PlanEntryPriorityHigh, Status: PlanEntryStatusPending}}})
		a.conn.SessionUpdate(ctx, NewSessionNotification(id, NewSessionUpdateToolCall(ToolCall{ToolCallID: "t", Title: "T"})))
		a.conn.SessionUpdate(ctx, NewSessionNotification(id, NewSessionUpdateToolCallUpdate(ToolCallUpdate{ToolCallID: "t", Status: Ptr(ToolCallStatusCompleted)})))
	}
	client := &routingClient{}
	conn := connect(t, a, client)
	if _, err := conn.Initialize(ctx, NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	s, res, err := client.NewSession(ctx, conn, NewNewSessionRequest("/", []MCPServer{}))
	if err != nil || res.SessionID != "s1" || s.ID() != "s1" {
		t.Fatalf("NewSession = %v, %v, %v", s, res, err)
	}
	if _, err := s.Prompt(ctx, []ContentBlock{NewContentBlockText("hi")}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := 0; i < 4; i++ {
		e, err := s.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if e.Notification.SessionID != "s1" {
			t.Errorf("update of session %s routed to s1", e.Notification.SessionID)
		}
		got = append(got, describe(e.Change))
	}
	want := []string{"mode", "plan main", "tool call t", "tool call t"}
	if !slices.Equal(got, want) {
		t.Errorf("changes = %q, want %q", got, want)
	}
	snap := s.State().Snapshot()
	if *snap.CurrentMode != "code" || len(snap.Plans) != 1 || *snap.ToolCalls[0].Status != ToolCallStatusCompleted {
		t.Errorf("state = %+v", snap)
	}
	s.Close()
	if _, err := s.Next(ctx); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Next after Close: %v, want ErrSessionClosed", err)
	}
}

// TestSessionRouterLoad checks that the history a session/load replays
// reaches the session, and that the end of the connection ends Next.
func TestSessionRouterLoad(t *testing.T) {
	ctx := conntest.Ctx(t)
	a := &sessionAgent{}
	a.onNew = func(ctx context.Context, id SessionID) {
		a.conn.SessionUpdate(ctx, NewSessionNotification(id, NewSessionUpdatePlan([]PlanEntry{})))
	}
	client := &routingClient{}
	conn, hangUp := connectHangUp(t, a, client)
	if _, err := conn.Initialize(ctx, NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	s, _, err := client.LoadSession(ctx, conn, NewLoadSessionRequest("old", "/", []MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.State().Plan(PlanIDMain); !ok {
		t.Error("the replayed plan did not reach the loaded session before the result")
	}
	hangUp()
	if e, err := s.Next(ctx); err != nil || describe(e.Change) != "plan main" {
		t.Errorf("Next = %v, %v; want the replayed plan", e, err)
	}
	if _, err := s.Next(ctx); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Next after the connection ended: %v, want ErrSessionClosed", err)
	}
}

// planClient records the session updates it receives.
type planClient struct{ updates chan SessionUpdate }

func (c planClient) SessionUpdate(ctx context.Context, n *SessionNotification) error {
	c.updates <- n.Update
	return nil
}

func (planClient) RequestPermission(ctx context.Context, p *RequestPermissionRequest) (*RequestPermissionResponse, error) {
	return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled()), nil
}

// planPair connects an agent to a client that sent init in initialize, and
// returns the agent's connection and what the client receives.
func planPair(t *testing.T, init *InitializeRequest) (*AgentSideConnection, <-chan SessionUpdate) {
	ctx := conntest.Ctx(t)
	a := &sessionAgent{}
	c := planClient{updates: make(chan SessionUpdate, 8)}
	conn := connect(t, a, c)
	if a.conn.ClientInitialize() != nil {
		t.Error("ClientInitialize before initialize is not nil")
	}
	if _, err := conn.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	if got := a.conn.ClientInitialize(); got == nil || got.ProtocolVersion != init.ProtocolVersion {
		t.Fatalf("ClientInitialize = %+v", got)
	}
	return a.conn, c.updates
}

var itemsPlan = PlanState{ID: "p", Kind: PlanKindItems, Entries: []PlanEntry{{Content: "x", Priority: PlanEntryPriorityLow, Status: PlanEntryStatusPending}}}

// TestSendPlanWithoutPlanOperations: a client that did not advertise plan
// operations gets a v1 plan for an items plan and nothing for the others.
func TestSendPlanWithoutPlanOperations(t *testing.T) {
	ctx := conntest.Ctx(t)
	agent, updates := planPair(t, NewInitializeRequest(1))
	for _, p := range []PlanState{{ID: "m", Kind: PlanKindMarkdown, Content: "# x"}, {ID: "f", Kind: PlanKindFile, URI: "file:///p"}} {
		if err := agent.SendPlan(ctx, "s", p); !errors.Is(err, ErrPlanNotRepresentable) {
			t.Errorf("SendPlan(%s) = %v, want ErrPlanNotRepresentable", p.Kind, err)
		}
	}
	if err := agent.RemovePlan(ctx, "s", "p"); !errors.Is(err, ErrPlanNotRepresentable) {
		t.Errorf("RemovePlan = %v, want ErrPlanNotRepresentable", err)
	}
	if err := agent.SendPlan(ctx, "s", itemsPlan); err != nil {
		t.Fatal(err)
	}
	// The first update the client sees is the items plan: nothing was sent before.
	u, ok := conntest.Receive(t, updates, "session update").Value.(*SessionUpdatePlan)
	if !ok || len(u.Entries) != 1 || u.Entries[0].Content != "x" {
		t.Errorf("client received %+v, want the v1 plan", u)
	}
}

// configAgent answers session/set_config_option with one boolean option.
type configAgent struct{ sessionAgent }

func (*configAgent) SetSessionConfigOption(ctx context.Context, p *SetSessionConfigOptionRequest) (*SetSessionConfigOptionResponse, error) {
	var r SetSessionConfigOptionResponse
	err := r.UnmarshalJSON([]byte(`{"configOptions":[{"id":"brave","name":"Brave","type":"boolean","currentValue":true}]}`))
	return &r, err
}

// TestActiveSessionSetConfigOption checks that the whole list of a
// session/set_config_option result replaces the session's config options.
func TestActiveSessionSetConfigOption(t *testing.T) {
	ctx := conntest.Ctx(t)
	a := &configAgent{}
	client := &routingClient{}
	toAgent, fromClient := io.Pipe()
	toClient, fromAgent := io.Pipe()
	a.conn = NewAgentSideConnection(a, fromAgent, toAgent)
	conn := NewClientSideConnection(client, fromClient, toClient)
	defer func() {
		fromClient.Close()
		fromAgent.Close()
		<-conn.Done()
		<-a.conn.Done()
	}()
	if _, err := conn.Initialize(ctx, NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	s, _, err := client.NewSession(ctx, conn, NewNewSessionRequest("/", []MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetConfigOption(ctx, NewSetSessionConfigOptionRequest("ignored", "brave", &SetSessionConfigOptionRequestBoolean{Value: true})); err != nil {
		t.Fatal(err)
	}
	if opts := s.State().Snapshot().ConfigOptions; len(opts) != 1 || opts[0].ID != "brave" {
		t.Errorf("config options = %+v, want the result's", opts)
	}
}
