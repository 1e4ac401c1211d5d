package acpv2test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/conntest"
)

var testInfo = acpv2.Implementation{Name: "test", Version: "1"}

// sessionAgent is an agent whose session/new and session/prompt run hooks.
type sessionAgent struct {
	conn     *acpv2.AgentSideConnection
	onNew    func(ctx context.Context, id acpv2.SessionID)
	onPrompt func(ctx context.Context, id acpv2.SessionID)
}

func (a *sessionAgent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return acpv2.NewInitializeResponse(2, testInfo), nil
}

func (a *sessionAgent) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	if a.onNew != nil {
		a.onNew(ctx, "s1")
	}
	r := acpv2.NewNewSessionResponse("s1")
	r.ConfigOptions = []acpv2.SessionConfigOption{}
	return r, nil
}

func (a *sessionAgent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	if a.onPrompt != nil {
		a.onPrompt(ctx, p.SessionID)
	}
	return acpv2.NewPromptResponse("m1"), nil
}

func (a *sessionAgent) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	return nil
}

// routingClient is a client whose session updates a SessionRouter routes.
type routingClient struct{ acpv2.SessionRouter }

func (*routingClient) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeCancelled()), nil
}

// connect joins agent a and client c over pipes; the connections end with
// the test.
func connect(t *testing.T, a *sessionAgent, c acpv2.Client) *acpv2.ClientSideConnection {
	var conn *acpv2.ClientSideConnection
	a.conn, conn, _ = conntest.Link(t,
		func(w io.Writer, r io.Reader) *acpv2.AgentSideConnection {
			return acpv2.NewAgentSideConnection(a, w, r)
		},
		func(w io.Writer, r io.Reader) *acpv2.ClientSideConnection {
			return acpv2.NewClientSideConnection(c, w, r)
		})
	return conn
}

func TestSessionRouter(t *testing.T) {
	ctx := conntest.Ctx(t)
	a := &sessionAgent{}
	a.onNew = func(ctx context.Context, id acpv2.SessionID) {
		a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(id, acpv2.NewSessionUpdateUsageUpdate(1, 10)))
	}
	a.onPrompt = func(ctx context.Context, id acpv2.SessionID) {
		a.conn.SendPlan(ctx, id, acpv2.PlanState{ID: "p", Kind: acpv2.PlanKindItems, Entries: []acpv2.PlanEntry{}})
		a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(id, acpv2.NewSessionUpdateToolCallUpdate(acpv2.ToolCallUpdate{ToolCallID: "t"})))
		a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(id, acpv2.NewSessionUpdateConfigOptionUpdate([]acpv2.SessionConfigOption{})))
	}
	client := &routingClient{}
	conn := connect(t, a, client)
	if _, err := conn.Initialize(ctx, acpv2.NewInitializeRequest(2, testInfo)); err != nil {
		t.Fatal(err)
	}
	s, _, err := client.NewSession(ctx, conn, acpv2.NewNewSessionRequest("/"))
	if err != nil {
		t.Fatal(err)
	}
	if s.State().Snapshot().ConfigOptions == nil {
		t.Error("the config options of the session/new result are not in the state")
	}
	if _, err := s.Prompt(ctx, []acpv2.ContentBlock{acpv2.NewContentBlockText("hi")}); err != nil {
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
	if _, err := s.Next(ctx); !errors.Is(err, acpv2.ErrSessionClosed) {
		t.Errorf("Next after Close: %v, want ErrSessionClosed", err)
	}
}

// planClient records the session updates it receives.
type planClient struct{ updates chan acpv2.SessionUpdate }

func (c planClient) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	c.updates <- n.Update
	return nil
}

func (planClient) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeCancelled()), nil
}

// TestSendPlanV2: a v2 client gets every plan as plan_update; markdown,
// file and removal need the plan operations' build tag.
func TestSendPlanV2(t *testing.T) {
	ctx := conntest.Ctx(t)
	a := &sessionAgent{}
	c := planClient{updates: make(chan acpv2.SessionUpdate, 8)}
	conn := connect(t, a, c)
	if _, err := conn.Initialize(ctx, acpv2.NewInitializeRequest(2, testInfo)); err != nil {
		t.Fatal(err)
	}
	if got := a.conn.ClientInitialize(); got == nil || got.Info.Name != "test" {
		t.Fatalf("ClientInitialize = %+v", got)
	}
	client := acpv2.NewSessionState("s")
	for _, p := range []acpv2.PlanState{
		{ID: "m", Kind: acpv2.PlanKindMarkdown, Content: "# x"},
		{ID: "f", Kind: acpv2.PlanKindFile, URI: "file:///p"},
		{ID: "p", Kind: acpv2.PlanKindItems, Entries: []acpv2.PlanEntry{{Content: "x", Priority: acpv2.PlanEntryPriorityLow, Status: acpv2.PlanEntryStatusPending}}},
	} {
		err := a.conn.SendPlan(ctx, "s", p)
		if p.Kind != acpv2.PlanKindItems && !planOpsBuild {
			if !errors.Is(err, acpv2.ErrPlanNotRepresentable) {
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
	} else if !errors.Is(err, acpv2.ErrPlanNotRepresentable) {
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
	s := acpv2.NewSessionState("sess_abc123def456")
	var changes []string
	for _, m := range conformance.Messages(t, "v2") {
		if m.Page != "v2_draft_agent-plan" || m.Method != acpv2.MethodUpdateSession {
			continue
		}
		var n acpv2.UpdateSessionNotification
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
