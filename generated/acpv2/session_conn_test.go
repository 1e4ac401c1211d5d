package acpv2

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/conntest"
)

var testInfo = Implementation{Name: "test", Version: "1"}

// sessionAgent is an agent whose session/new and session/prompt run hooks.
type sessionAgent struct {
	conn     *AgentSideConnection
	onNew    func(ctx context.Context, id SessionID)
	onPrompt func(ctx context.Context, id SessionID)
}

func (a *sessionAgent) Initialize(ctx context.Context, p *InitializeRequest) (*InitializeResponse, error) {
	return NewInitializeResponse(2, testInfo), nil
}

func (a *sessionAgent) NewSession(ctx context.Context, p *NewSessionRequest) (*NewSessionResponse, error) {
	if a.onNew != nil {
		a.onNew(ctx, "s1")
	}
	r := NewNewSessionResponse("s1")
	r.ConfigOptions = []SessionConfigOption{}
	return r, nil
}

func (a *sessionAgent) Prompt(ctx context.Context, p *PromptRequest) (*PromptResponse, error) {
	if a.onPrompt != nil {
		a.onPrompt(ctx, p.SessionID)
	}
	return NewPromptResponse("m1"), nil
}

func (a *sessionAgent) CancelSession(ctx context.Context, p *CancelSessionNotification) error {
	return nil
}

// routingClient is a client whose session updates a SessionRouter routes.
type routingClient struct{ SessionRouter }

func (*routingClient) RequestPermission(ctx context.Context, p *RequestPermissionRequest) (*RequestPermissionResponse, error) {
	return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled()), nil
}

// connect joins agent a and client c over pipes; the connections end with
// the test.
func connect(t *testing.T, a *sessionAgent, c Client) *ClientSideConnection {
	var conn *ClientSideConnection
	a.conn, conn, _ = conntest.Link(t,
		func(w io.Writer, r io.Reader) *AgentSideConnection { return NewAgentSideConnection(a, w, r) },
		func(w io.Writer, r io.Reader) *ClientSideConnection { return NewClientSideConnection(c, w, r) })
	return conn
}

func TestSessionRouter(t *testing.T) {
	ctx := conntest.Ctx(t)
	a := &sessionAgent{}
	a.onNew = func(ctx context.Context, id SessionID) {
		a.conn.UpdateSession(ctx, NewUpdateSessionNotification(id, NewSessionUpdateUsageUpdate(1, 10)))
	}
	a.onPrompt = func(ctx context.Context, id SessionID) {
		a.conn.SendPlan(ctx, id, PlanState{ID: "p", Kind: PlanKindItems, Entries: []PlanEntry{}})
		a.conn.UpdateSession(ctx, NewUpdateSessionNotification(id, NewSessionUpdateToolCallUpdate(ToolCallUpdate{ToolCallID: "t"})))
		a.conn.UpdateSession(ctx, NewUpdateSessionNotification(id, NewSessionUpdateConfigOptionUpdate([]SessionConfigOption{})))
	}
	client := &routingClient{}
	conn := connect(t, a, client)
	if _, err := conn.Initialize(ctx, NewInitializeRequest(2, testInfo)); err != nil {
		t.Fatal(err)
	}
	s, _, err := client.NewSession(ctx, conn, NewNewSessionRequest("/"))
	if err != nil {
		t.Fatal(err)
	}
	if s.State().Snapshot().ConfigOptions == nil {
		t.Error("the config options of the session/new result are not in the state")
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
		got = append(got, describe(e.Change))
	}
	want := []string{"usage", "plan p", "tool call t", "config options"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("changes = %q, want %q", got, want)
	}
	s.Close()
	if _, err := s.Next(ctx); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Next after Close: %v, want ErrSessionClosed", err)
	}
}

// planClient records the session updates it receives.
type planClient struct{ updates chan SessionUpdate }

func (c planClient) UpdateSession(ctx context.Context, n *UpdateSessionNotification) error {
	c.updates <- n.Update
	return nil
}

func (planClient) RequestPermission(ctx context.Context, p *RequestPermissionRequest) (*RequestPermissionResponse, error) {
	return NewRequestPermissionResponse(NewRequestPermissionOutcomeCancelled()), nil
}

// TestSendPlanV2: a v2 client gets every plan as plan_update; markdown,
// file and removal need the plan operations' build tag.
func TestSendPlanV2(t *testing.T) {
	ctx := conntest.Ctx(t)
	a := &sessionAgent{}
	c := planClient{updates: make(chan SessionUpdate, 8)}
	conn := connect(t, a, c)
	if _, err := conn.Initialize(ctx, NewInitializeRequest(2, testInfo)); err != nil {
		t.Fatal(err)
	}
	if got := a.conn.ClientInitialize(); got == nil || got.Info.Name != "test" {
		t.Fatalf("ClientInitialize = %+v", got)
	}
	client := NewSessionState("s")
	for _, p := range []PlanState{
		{ID: "m", Kind: PlanKindMarkdown, Content: "# x"},
		{ID: "f", Kind: PlanKindFile, URI: "file:///p"},
		{ID: "p", Kind: PlanKindItems, Entries: []PlanEntry{{Content: "x", Priority: PlanEntryPriorityLow, Status: PlanEntryStatusPending}}},
	} {
		err := a.conn.SendPlan(ctx, "s", p)
		if p.Kind != PlanKindItems && !planOpsBuild {
			if !errors.Is(err, ErrPlanNotRepresentable) {
				t.Errorf("SendPlan(%s) = %v, want ErrPlanNotRepresentable", p.Kind, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		u := conntest.Receive(t, c.updates, "session update")
		if u.Tag() != "plan_update" {
			t.Errorf("%s plan sent as %q, want plan_update", p.Kind, u.Tag())
		}
		client.Apply(u)
	}
	err := a.conn.RemovePlan(ctx, "s", "m")
	if planOpsBuild {
		if err != nil {
			t.Fatal(err)
		}
		client.Apply(conntest.Receive(t, c.updates, "session update"))
	} else if !errors.Is(err, ErrPlanNotRepresentable) {
		t.Errorf("RemovePlan = %v, want ErrPlanNotRepresentable", err)
	}
	var ids []string
	for _, p := range client.Snapshot().Plans {
		ids = append(ids, p.ID)
	}
	want := []string{"p"}
	if planOpsBuild {
		want = []string{"f", "p"}
	}
	if fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Errorf("the client's plans = %q, want %q", ids, want)
	}
}

// TestSessionPlanOpsDrafts replays the plan operations examples of the
// corpus's draft plan page into one session: with the build tag, markdown
// and file plans are typed and plan_removed removes; without, they are
// kept raw and the removal is an update the state does not track.
func TestSessionPlanOpsDrafts(t *testing.T) {
	s := NewSessionState("sess_abc123def456")
	var changes []string
	for _, m := range conformance.Messages(t, "v2") {
		if m.Page != "v2_draft_agent-plan" || m.Method != MethodUpdateSession {
			continue
		}
		var n UpdateSessionNotification
		if err := n.UnmarshalJSON(m.Params); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		changes = append(changes, describe(s.Apply(n.Update)))
	}
	want := []string{"plan plan-1", "plan implementation-plan", "plan design-doc", "nothing"}
	if planOpsBuild {
		want[3] = "plan plan-1"
	}
	if fmt.Sprint(changes) != fmt.Sprint(want) {
		t.Errorf("changes = %q, want %q", changes, want)
	}
	var plans []string
	for _, p := range s.Snapshot().Plans {
		plans = append(plans, fmt.Sprintf("%s %s %q %q raw=%v", p.ID, p.Kind, p.Content, p.URI, p.Raw != nil))
	}
	wantPlans := []string{
		`implementation-plan markdown "" "" raw=true`,
		`design-doc file "" "" raw=true`,
	}
	if planOpsBuild {
		wantPlans = []string{
			`implementation-plan markdown "## Steps\n- [ ] Refactor module\n- [ ] Add tests" "" raw=false`,
			`design-doc file "" "file:///tmp/plan.md" raw=false`,
		}
	} else {
		wantPlans = append([]string{`plan-1 items "" "" raw=false`}, wantPlans...)
	}
	if fmt.Sprint(plans) != fmt.Sprint(wantPlans) {
		t.Errorf("plans = %q, want %q", plans, wantPlans)
	}
}
