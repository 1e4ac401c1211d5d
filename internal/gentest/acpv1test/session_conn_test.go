package acpv1test

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/conntest"
)

// sessionAgent is an agent whose session/new and session/prompt run hooks.
type sessionAgent struct {
	conn     *acpv1.AgentSideConnection
	onNew    func(ctx context.Context, id acpv1.SessionID)
	onPrompt func(ctx context.Context, id acpv1.SessionID)
}

func (a *sessionAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

func (a *sessionAgent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	if a.onNew != nil {
		a.onNew(ctx, "s1")
	}
	return acpv1.NewNewSessionResponse("s1"), nil
}

func (a *sessionAgent) LoadSession(ctx context.Context, p *acpv1.LoadSessionRequest) (*acpv1.LoadSessionResponse, error) {
	if a.onNew != nil {
		a.onNew(ctx, p.SessionID)
	}
	return acpv1.NewLoadSessionResponse(), nil
}

func (a *sessionAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	if a.onPrompt != nil {
		a.onPrompt(ctx, p.SessionID)
	}
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

func (a *sessionAgent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error { return nil }

// routingClient is a client whose session updates a SessionRouter routes.
type routingClient struct{ acpv1.SessionRouter }

func (*routingClient) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}

// connect joins agent a and client c over pipes; the connections end with
// the test, or when hangUp is called.
func connect(t *testing.T, a *sessionAgent, c acpv1.Client) *acpv1.ClientSideConnection {
	conn, _ := connectHangUp(t, a, c)
	return conn
}

func connectHangUp(t *testing.T, a *sessionAgent, c acpv1.Client) (conn *acpv1.ClientSideConnection, hangUp func()) {
	a.conn, conn, hangUp = conntest.Link(t,
		func(w io.Writer, r io.Reader) *acpv1.AgentSideConnection {
			return acpv1.NewAgentSideConnection(a, w, r)
		},
		func(w io.Writer, r io.Reader) *acpv1.ClientSideConnection {
			return acpv1.NewClientSideConnection(c, w, r)
		})
	return conn, hangUp
}

func TestSessionRouter(t *testing.T) {
	ctx := conntest.Ctx(t)
	a := &sessionAgent{}
	a.onNew = func(ctx context.Context, id acpv1.SessionID) {
		// Sent before the result of session/new: kept for the session.
		a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(id, acpv1.NewSessionUpdateCurrentModeUpdate("code")))
		a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification("other", acpv1.NewSessionUpdateCurrentModeUpdate("ask")))
	}
	a.onPrompt = func(ctx context.Context, id acpv1.SessionID) {
		a.conn.SendPlan(ctx, id, acpv1.PlanState{Kind: acpv1.PlanKindItems, Entries: []acpv1.PlanEntry{{Content: "x", Priority: acpv1.PlanEntryPriorityHigh, Status: acpv1.PlanEntryStatusPending}}})
		a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(id, acpv1.NewSessionUpdateToolCall(acpv1.ToolCall{ToolCallID: "t", Title: "T"})))
		a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(id, acpv1.NewSessionUpdateToolCallUpdate(acpv1.ToolCallUpdate{ToolCallID: "t", Status: acpv1.Ptr(acpv1.ToolCallStatusCompleted)})))
	}
	client := &routingClient{}
	conn := connect(t, a, client)
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	s, res, err := client.NewSession(ctx, conn, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil || res.SessionID != "s1" || s.ID() != "s1" {
		t.Fatalf("NewSession = %v, %v, %v", s, res, err)
	}
	if _, err := s.Prompt(ctx, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")}); err != nil {
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
	if *snap.CurrentMode != "code" || len(snap.Plans) != 1 || *snap.ToolCalls[0].Status != acpv1.ToolCallStatusCompleted {
		t.Errorf("state = %+v", snap)
	}
	s.Close()
	if _, err := s.Next(ctx); !errors.Is(err, acpv1.ErrSessionClosed) {
		t.Errorf("Next after Close: %v, want ErrSessionClosed", err)
	}
}

// TestSessionRouterLoad checks that the history a session/load replays
// reaches the session, and that the end of the connection ends Next.
func TestSessionRouterLoad(t *testing.T) {
	ctx := conntest.Ctx(t)
	a := &sessionAgent{}
	a.onNew = func(ctx context.Context, id acpv1.SessionID) {
		a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(id, acpv1.NewSessionUpdatePlan([]acpv1.PlanEntry{})))
	}
	client := &routingClient{}
	conn, hangUp := connectHangUp(t, a, client)
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	s, _, err := client.LoadSession(ctx, conn, acpv1.NewLoadSessionRequest("old", "/", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.State().Plan(acpv1.PlanIDMain); !ok {
		t.Error("the replayed plan did not reach the loaded session before the result")
	}
	hangUp()
	if e, err := s.Next(ctx); err != nil || describe(e.Change) != "plan main" {
		t.Errorf("Next = %v, %v; want the replayed plan", e, err)
	}
	if _, err := s.Next(ctx); !errors.Is(err, acpv1.ErrSessionClosed) {
		t.Errorf("Next after the connection ended: %v, want ErrSessionClosed", err)
	}
}

// planClient records the session updates it receives.
type planClient struct{ updates chan acpv1.SessionUpdate }

func (c planClient) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	c.updates <- n.Update
	return nil
}

func (planClient) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}

// planPair connects an agent to a client that sent init in initialize, and
// returns the agent's connection and what the client receives.
func planPair(t *testing.T, init *acpv1.InitializeRequest) (*acpv1.AgentSideConnection, <-chan acpv1.SessionUpdate) {
	ctx := conntest.Ctx(t)
	a := &sessionAgent{}
	c := planClient{updates: make(chan acpv1.SessionUpdate, 8)}
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

var itemsPlan = acpv1.PlanState{ID: "p", Kind: acpv1.PlanKindItems, Entries: []acpv1.PlanEntry{{Content: "x", Priority: acpv1.PlanEntryPriorityLow, Status: acpv1.PlanEntryStatusPending}}}

// TestSendPlanWithoutPlanOperations: a client that did not advertise plan
// operations gets a v1 plan for an items plan and nothing for the others.
func TestSendPlanWithoutPlanOperations(t *testing.T) {
	ctx := conntest.Ctx(t)
	agent, updates := planPair(t, acpv1.NewInitializeRequest(1))
	for _, p := range []acpv1.PlanState{{ID: "m", Kind: acpv1.PlanKindMarkdown, Content: "# x"}, {ID: "f", Kind: acpv1.PlanKindFile, URI: "file:///p"}} {
		if err := agent.SendPlan(ctx, "s", p); !errors.Is(err, acpv1.ErrPlanNotRepresentable) {
			t.Errorf("SendPlan(%s) = %v, want ErrPlanNotRepresentable", p.Kind, err)
		}
	}
	if err := agent.RemovePlan(ctx, "s", "p"); !errors.Is(err, acpv1.ErrPlanNotRepresentable) {
		t.Errorf("RemovePlan = %v, want ErrPlanNotRepresentable", err)
	}
	if err := agent.SendPlan(ctx, "s", itemsPlan); err != nil {
		t.Fatal(err)
	}
	// The first update the client sees is the items plan: nothing was sent before.
	u, ok := conntest.Receive(t, updates, "session update").Value.(*acpv1.SessionUpdatePlan)
	if !ok || len(u.Entries) != 1 || u.Entries[0].Content != "x" {
		t.Errorf("client received %+v, want the v1 plan", u)
	}
}

// configAgent answers session/set_config_option with one boolean option.
type configAgent struct{ sessionAgent }

func (*configAgent) SetSessionConfigOption(ctx context.Context, p *acpv1.SetSessionConfigOptionRequest) (*acpv1.SetSessionConfigOptionResponse, error) {
	var r acpv1.SetSessionConfigOptionResponse
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
	acpv1.NewAgentSideConnectionFunc(func(conn *acpv1.AgentSideConnection) acpv1.Agent {
		a.conn = conn
		return a
	}, fromAgent, toAgent)
	conn := acpv1.NewClientSideConnection(client, fromClient, toClient)
	defer func() {
		fromClient.Close()
		fromAgent.Close()
		<-conn.Done()
		<-a.conn.Done()
	}()
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	s, _, err := client.NewSession(ctx, conn, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetConfigOption(ctx, acpv1.NewSetSessionConfigOptionRequest("ignored", "brave", &acpv1.SetSessionConfigOptionRequestBoolean{Value: true})); err != nil {
		t.Fatal(err)
	}
	if opts := s.State().Snapshot().ConfigOptions; len(opts) != 1 || opts[0].ID != "brave" {
		t.Errorf("config options = %+v, want the result's", opts)
	}
}
