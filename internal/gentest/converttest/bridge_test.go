package converttest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// turnAgent is a v2 agent whose turn sends a chunk, a tool call created
// and updated, a plan of items, an update v1 has no form of, asks for
// permission, and goes idle.
type turnAgent struct {
	conn *acpv2.AgentSideConnection

	mu        sync.Mutex
	cancelled bool
}

func (a *turnAgent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	r := acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "v2-agent", Version: "2.0"})
	r.Capabilities = &acpv2.AgentCapabilities{Session: &acpv2.SessionCapabilities{Prompt: &acpv2.PromptCapabilities{Image: &acpv2.PromptImageCapabilities{}}}}
	r.AuthMethods = []acpv2.AuthMethod{}
	if p.Info.Name != "v1-client" {
		return nil, acpv2.NewInvalidParamsError(map[string]string{"details": "info " + p.Info.Name})
	}
	return r, nil
}

func (a *turnAgent) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	if err := stdioServers(p.MCPServers); err != nil {
		return nil, err
	}
	var r acpv2.NewSessionResponse
	err := r.UnmarshalJSON([]byte(`{"sessionId":"s1","availableCommands":[{"type":"command","name":"test","description":"Run the tests"}]}`))
	return &r, err
}

// ListSessions lists no session: an agent that advertises
// capabilities.session serves session/list (acpv2.SessionAgent).
func (a *turnAgent) ListSessions(ctx context.Context, p *acpv2.ListSessionsRequest) (*acpv2.ListSessionsResponse, error) {
	return acpv2.NewListSessionsResponse([]acpv2.SessionInfo{}), nil
}

func (a *turnAgent) ResumeSession(ctx context.Context, p *acpv2.ResumeSessionRequest) (*acpv2.ResumeSessionResponse, error) {
	if err := stdioServers(p.MCPServers); err != nil {
		return nil, err
	}
	return acpv2.NewResumeSessionResponse(), nil
}

func (a *turnAgent) SetSessionConfigOption(ctx context.Context, p *acpv2.SetSessionConfigOptionRequest) (*acpv2.SetSessionConfigOptionResponse, error) {
	if v, ok := p.Value.(*acpv2.SetSessionConfigOptionRequestID); !ok || v.Value != "fast" || p.ConfigID != "mode" {
		return nil, acpv2.NewInvalidParamsError(map[string]string{"details": "want mode fast"})
	}
	return acpv2.NewSetSessionConfigOptionResponse([]acpv2.SessionConfigOption{}), nil
}

func (a *turnAgent) CloseSession(ctx context.Context, p *acpv2.CloseSessionRequest) (*acpv2.CloseSessionResponse, error) {
	if p.SessionID != "s1" {
		return nil, acpv2.NewResourceNotFoundError(string(p.SessionID))
	}
	return acpv2.NewCloseSessionResponse(), nil
}

func (a *turnAgent) DeleteSession(ctx context.Context, p *acpv2.DeleteSessionRequest) (*acpv2.DeleteSessionResponse, error) {
	return nil, acpv2.NewResourceNotFoundError(string(p.SessionID))
}

// stdioServers checks that the MCP servers, if any, are one stdio server.
func stdioServers(servers []acpv2.MCPServer) error {
	if len(servers) == 0 {
		return nil
	}
	if _, ok := servers[0].Value.(*acpv2.MCPServerStdioVariant); len(servers) != 1 || !ok {
		return acpv2.NewInvalidParamsError(map[string]string{"details": "want one stdio server"})
	}
	return nil
}

func (a *turnAgent) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	a.mu.Lock()
	a.cancelled = true
	a.mu.Unlock()
	return nil
}

func (a *turnAgent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	go func() {
		<-ctx.Done() // the answer is written
		a.turn(p)
	}()
	return acpv2.NewPromptResponse("m1"), nil
}

func (a *turnAgent) turn(p *acpv2.PromptRequest) {
	ctx := context.Background()
	send := func(u acpv2.SessionUpdate) {
		_ = a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(p.SessionID, u))
	}
	text := p.Prompt[0].Value.(*acpv2.ContentBlockText).Text
	if text == "elicit" {
		_ = a.conn.CompleteElicitation(ctx, acpv2.NewCompleteElicitationNotification("e1"))
	}
	send(acpv2.NewSessionUpdateAgentMessageChunk("r1", acpv2.NewContentBlockText(text)))
	send(acpv2.NewSessionUpdateToolCallUpdate(acpv2.ToolCallUpdate{ToolCallID: "t1", Title: acpv2.Nullable[string]{Present: true, Value: "run"}}))
	send(acpv2.NewSessionUpdateToolCallUpdate(acpv2.ToolCallUpdate{ToolCallID: "t1",
		Status: acpv2.Nullable[acpv2.ToolCallStatus]{Present: true, Value: acpv2.ToolCallStatusCompleted}}))
	send(acpv2.NewSessionUpdatePlanUpdate(acpv2.NewPlanUpdateContentItems("p7", []acpv2.PlanEntry{
		{Content: "step", Priority: acpv2.PlanEntryPriorityHigh, Status: acpv2.PlanEntryStatusPending}})))
	send(acpv2.SessionUpdate{Value: &acpv2.SessionUpdateOther{Tag: "_draft", Raw: []byte(`{"sessionUpdate":"_draft"}`)}})
	answer, err := a.conn.RequestPermission(ctx, acpv2.NewRequestPermissionRequest(p.SessionID, "may I?",
		[]acpv2.PermissionOption{{OptionID: "yes", Name: "Yes", Kind: acpv2.PermissionOptionKindAllowOnce}}))
	stop := acpv2.NewIdleStateUpdateEndTurn()
	a.mu.Lock()
	if err != nil || a.cancelled {
		stop = acpv2.NewIdleStateUpdateCancelled()
	}
	a.cancelled = false
	a.mu.Unlock()
	if s, ok := answer.Outcome.Value.(*acpv2.RequestPermissionOutcomeSelected); err == nil && ok {
		send(acpv2.NewSessionUpdateAgentMessageChunk("r1", acpv2.NewContentBlockText("answer "+string(s.OptionID))))
	}
	send(acpv2.SessionUpdate{Value: &acpv2.SessionUpdateStateUpdate{StateUpdate: acpv2.StateUpdate{
		Value: &acpv2.StateUpdateIdle{IdleStateUpdate: stop}}}})
}

// recorder is a v1 client that records the updates it gets and answers
// permission requests with the first option, cancelling first when asked.
type recorder struct {
	conn   *acpv1.ClientSideConnection
	cancel bool

	mu          sync.Mutex
	updates     []acpv1.SessionUpdate
	permissions []*acpv1.RequestPermissionRequest
	completed   []acpv1.ElicitationID
}

func (r *recorder) CompleteElicitation(ctx context.Context, n *acpv1.CompleteElicitationNotification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.completed = append(r.completed, n.ElicitationID)
	return nil
}

func (r *recorder) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, n.Update)
	return nil
}

func (r *recorder) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	r.mu.Lock()
	r.permissions = append(r.permissions, p)
	r.mu.Unlock()
	if r.cancel {
		if err := r.conn.Cancel(ctx, acpv1.NewCancelNotification(p.SessionID)); err != nil {
			return nil, err
		}
		return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
	}
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected(p.Options[0].OptionID)), nil
}

// startBridge runs a v1 client against turnAgent through a Bridge.
func startBridge(t *testing.T, undeliverable func(*acpv2.UpdateSessionNotification, error)) (*recorder, *convert.Bridge) {
	return startBridgeWith(t, &turnAgent{}, undeliverable)
}

// bridgedAgent is a v2 agent that takes its connection.
type bridgedAgent interface {
	acpv2.Agent
	setConn(*acpv2.AgentSideConnection)
}

func (a *turnAgent) setConn(c *acpv2.AgentSideConnection) { a.conn = c }

// startBridgeWith runs a v1 client against agent through a Bridge.
func startBridgeWith(t *testing.T, a bridgedAgent, undeliverable func(*acpv2.UpdateSessionNotification, error)) (*recorder, *convert.Bridge) {
	t.Helper()
	p := newPipes(t)
	b := convert.NewBridge(a, p.agentW, p.agentR, convert.BridgeOptions{Undeliverable: undeliverable})
	a.setConn(b.V2())
	rec := &recorder{}
	acpv1.NewClientSideConnectionFunc(func(conn *acpv1.ClientSideConnection) acpv1.Client {
		rec.conn = conn
		return rec
	}, p.clientW, p.clientR)
	t.Cleanup(func() {
		p.clientW.Close()
		select {
		case <-b.Done():
		case <-time.After(10 * time.Second):
			t.Error("the bridge did not end after the client left")
		}
	})
	return rec, b
}

func TestBridgeServesV1Client(t *testing.T) {
	var mu sync.Mutex
	var dropped []string
	rec, _ := startBridge(t, func(n *acpv2.UpdateSessionNotification, err error) {
		mu.Lock()
		defer mu.Unlock()
		dropped = append(dropped, n.Update.Tag()+": "+err.Error())
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	init := acpv1.NewInitializeRequest(1)
	init.ClientInfo = &acpv1.Implementation{Name: "v1-client", Version: "1"}
	res, err := rec.conn.Initialize(ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	if res.ProtocolVersion != 1 || res.AgentInfo == nil || res.AgentInfo.Name != "v2-agent" ||
		res.AgentCapabilities == nil || res.AgentCapabilities.PromptCapabilities == nil ||
		res.AgentCapabilities.PromptCapabilities.Image == nil || !*res.AgentCapabilities.PromptCapabilities.Image {
		t.Errorf("initialize: %+v", res)
	}
	s, err := rec.conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil || s.SessionID != "s1" {
		t.Fatalf("session/new: %+v %v", s, err)
	}
	r, err := rec.conn.Prompt(ctx, acpv1.NewPromptRequest("s1", []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")}))
	if err != nil || r.StopReason != acpv1.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	// The commands are announced once session/new is answered, which may
	// be after the turn began.
	var turn []acpv1.SessionUpdate
	commands := 0
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		rec.mu.Lock()
		n := len(rec.updates)
		rec.mu.Unlock()
		if n == 6 {
			break
		}
	}
	rec.mu.Lock()
	for _, u := range rec.updates {
		if u.Tag() == "available_commands_update" {
			commands++
			continue
		}
		turn = append(turn, u)
	}
	perm := rec.permissions[0]
	rec.mu.Unlock()
	var tags []string
	for _, u := range turn {
		tags = append(tags, u.Tag())
	}
	want := []string{"agent_message_chunk", "tool_call", "tool_call_update", "plan", "agent_message_chunk"}
	if commands != 1 || !slices.Equal(tags, want) {
		t.Fatalf("updates %q and %d available_commands_update, want %q and 1", tags, commands, want)
	}
	plan := turn[3].Value.(*acpv1.SessionUpdatePlan)
	call := turn[1].Value.(*acpv1.SessionUpdateToolCall)
	last := turn[4].Value.(*acpv1.SessionUpdateAgentMessageChunk).Content.Value.(*acpv1.ContentBlockText)
	if len(plan.Entries) != 1 || plan.Entries[0].Content != "step" {
		t.Errorf("plan: %+v", plan)
	}
	if call.ToolCallID != "t1" || call.Title != "run" {
		t.Errorf("tool call: %+v", call)
	}
	if last.Text != "answer yes" {
		t.Errorf("last chunk %q", last.Text)
	}
	if perm.ToolCall.Title == nil || *perm.ToolCall.Title != "may I?" || perm.Options[0].OptionID != "yes" {
		t.Errorf("permission request: %+v", perm)
	}
	mu.Lock()
	if len(dropped) != 1 {
		t.Errorf("undeliverable: %q", dropped)
	}
	mu.Unlock()
}

func TestBridgeCancelAndMissingMethods(t *testing.T) {
	rec, _ := startBridge(t, nil)
	rec.cancel = true
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	init := acpv1.NewInitializeRequest(1)
	init.ClientInfo = &acpv1.Implementation{Name: "v1-client", Version: "1"}
	if _, err := rec.conn.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	r, err := rec.conn.Prompt(ctx, acpv1.NewPromptRequest("s1", []acpv1.ContentBlock{acpv1.NewContentBlockText("stop")}))
	if err != nil || r.StopReason != acpv1.StopReasonCancelled {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	// A v1 method without a v2 counterpart.
	var e *acpv1.Error
	if _, err := rec.conn.SetSessionMode(ctx, acpv1.NewSetSessionModeRequest("s1", "fast")); !errors.As(err, &e) || e.Code != -32601 {
		t.Errorf("got %v, want -32601", err)
	}
	if l, err := rec.conn.ListSessions(ctx, acpv1.NewListSessionsRequest()); err != nil || len(l.Sessions) != 0 {
		t.Errorf("session/list: %+v %v", l, err)
	}
}

// TestBridgeSessionsAndElicitation checks the MCP servers of session/new and
// session/resume (v1's stdio server, without "type"), a config option set
// by value id, an elicitation completed by the agent, and session/close and
// session/delete, an error of the agent included.
func TestBridgeSessionsAndElicitation(t *testing.T) {
	rec, _ := startBridge(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	init := acpv1.NewInitializeRequest(1)
	init.ClientInfo = &acpv1.Implementation{Name: "v1-client", Version: "1"}
	if _, err := rec.conn.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	var servers []acpv1.MCPServer
	if err := json.Unmarshal([]byte(`[{"name":"fs","command":"/bin/fs","args":[],"env":[]}]`), &servers); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", servers)); err != nil {
		t.Fatalf("session/new: %v", err)
	}
	resume := acpv1.NewResumeSessionRequest("s1", "/")
	resume.MCPServers = servers
	if _, err := rec.conn.ResumeSession(ctx, resume); err != nil {
		t.Fatalf("session/resume: %v", err)
	}
	set := acpv1.NewSetSessionConfigOptionRequest("s1", "mode", &acpv1.SetSessionConfigOptionRequestValueID{Value: "fast"})
	if r, err := rec.conn.SetSessionConfigOption(ctx, set); err != nil || r.ConfigOptions == nil {
		t.Fatalf("session/set_config_option: %+v %v", r, err)
	}
	if _, err := rec.conn.Prompt(ctx, acpv1.NewPromptRequest("s1", []acpv1.ContentBlock{acpv1.NewContentBlockText("elicit")})); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.conn.CloseSession(ctx, acpv1.NewCloseSessionRequest("s1")); err != nil {
		t.Errorf("session/close: %v", err)
	}
	var e *acpv1.Error
	if _, err := rec.conn.DeleteSession(ctx, acpv1.NewDeleteSessionRequest("s9")); !errors.As(err, &e) || e.Code != -32002 {
		t.Errorf("session/delete of an unknown session: %v", err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.completed) != 1 || rec.completed[0] != "e1" {
		t.Errorf("elicitations completed: %q", rec.completed)
	}
}
