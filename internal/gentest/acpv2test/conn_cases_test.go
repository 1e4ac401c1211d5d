package acpv2test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/conntest"
)

// The interop cases of the v1 examples, Go to Go over the v2 connection:
// caseAgent echoes each text block, asks permission for a tool call, reports
// the answer, and ends with a chunk that names the stop reason (a v2 prompt
// response carries none); caseClient answers as each session is told to.

type caseAgent struct {
	conn      *acpv2.AgentSideConnection
	mu        sync.Mutex
	sessions  int
	cancelled map[acpv2.SessionID]bool
}

func (a *caseAgent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return &acpv2.InitializeResponse{ProtocolVersion: 2, Info: acpv2.Implementation{Name: "a", Version: "1"}, AuthMethods: []acpv2.AuthMethod{}}, nil
}

func (a *caseAgent) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sessions++
	return &acpv2.NewSessionResponse{SessionID: acpv2.SessionID(fmt.Sprint("sess_", a.sessions))}, nil
}

func (a *caseAgent) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.cancelled[p.SessionID]; ok {
		a.cancelled[p.SessionID] = true
	}
	return nil
}

func (a *caseAgent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	a.mu.Lock()
	a.cancelled[p.SessionID] = false
	a.mu.Unlock()
	for _, b := range p.Prompt {
		if t, ok := b.Value.(*acpv2.ContentBlockText); ok {
			if err := a.conn.UpdateSession(ctx, chunk(p.SessionID, t.Text)); err != nil {
				return nil, err
			}
		}
	}
	answer, err := a.conn.RequestPermission(ctx, &acpv2.RequestPermissionRequest{
		SessionID: p.SessionID,
		Title:     "echo",
		Options: []acpv2.PermissionOption{
			{OptionID: "allow", Name: "Allow", Kind: acpv2.PermissionOptionKindAllowOnce},
			{OptionID: "reject", Name: "Reject", Kind: acpv2.PermissionOptionKindRejectOnce},
		},
	})
	if err != nil {
		return nil, err
	}
	outcome := "cancelled"
	if s, ok := answer.Outcome.Value.(*acpv2.RequestPermissionOutcomeSelected); ok {
		outcome = string(s.OptionID)
	}
	a.mu.Lock()
	stop := "end_turn"
	if a.cancelled[p.SessionID] {
		stop = "cancelled"
	}
	delete(a.cancelled, p.SessionID)
	a.mu.Unlock()
	for _, text := range []string{"permission: " + outcome, "stop: " + stop} {
		if err := a.conn.UpdateSession(ctx, chunk(p.SessionID, text)); err != nil {
			return nil, err
		}
	}
	return &acpv2.PromptResponse{MessageID: "m"}, nil
}

type caseClient struct {
	conn    *acpv2.ClientSideConnection
	mu      sync.Mutex
	chunks  map[acpv2.SessionID][]string
	answers map[acpv2.SessionID]string
}

func (c *caseClient) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	if u, ok := n.Update.Value.(*acpv2.SessionUpdateAgentMessageChunk); ok {
		if t, ok := u.Content.Value.(*acpv2.ContentBlockText); ok {
			c.mu.Lock()
			c.chunks[n.SessionID] = append(c.chunks[n.SessionID], t.Text)
			c.mu.Unlock()
		}
	}
	return nil
}

func (c *caseClient) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	c.mu.Lock()
	answer := c.answers[p.SessionID]
	c.mu.Unlock()
	if answer == "cancel" {
		// The cancellation goes out before the answer, and is seen first.
		if err := c.conn.CancelSession(ctx, &acpv2.CancelSessionNotification{SessionID: p.SessionID}); err != nil {
			return nil, err
		}
		return &acpv2.RequestPermissionResponse{Outcome: acpv2.RequestPermissionOutcome{Value: &acpv2.RequestPermissionOutcomeCancelled{}}}, nil
	}
	return &acpv2.RequestPermissionResponse{Outcome: acpv2.RequestPermissionOutcome{Value: &acpv2.RequestPermissionOutcomeSelected{
		SelectedPermissionOutcome: acpv2.SelectedPermissionOutcome{OptionID: acpv2.PermissionOptionID(answer)}}}}, nil
}

func (c *caseClient) prompt(ctx context.Context, text, answer string) (string, error) {
	s, err := c.conn.NewSession(ctx, &acpv2.NewSessionRequest{Cwd: "/w"})
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	c.answers[s.SessionID] = answer
	c.mu.Unlock()
	if _, err := c.conn.Prompt(ctx, &acpv2.PromptRequest{SessionID: s.SessionID, Prompt: []acpv2.ContentBlock{{Value: &acpv2.ContentBlockText{TextContent: acpv2.TextContent{Text: text}}}}}); err != nil {
		return "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.chunks[s.SessionID], "|"), nil
}

func TestConnInteropCases(t *testing.T) {
	agentIn, toAgent := io.Pipe()
	clientIn, toClient := io.Pipe()
	a := &caseAgent{cancelled: map[acpv2.SessionID]bool{}}
	acpv2.NewAgentSideConnectionFunc(func(conn *acpv2.AgentSideConnection) acpv2.Agent {
		a.conn = conn
		return a
	}, toClient, agentIn)
	c := &caseClient{chunks: map[acpv2.SessionID][]string{}, answers: map[acpv2.SessionID]string{}}
	acpv2.NewClientSideConnectionFunc(func(conn *acpv2.ClientSideConnection) acpv2.Client {
		c.conn = conn
		return c
	}, toAgent, clientIn)
	defer func() { toAgent.Close(); toClient.Close(); <-a.conn.Done(); <-c.conn.Done() }()
	ctx := conntest.Ctx(t)

	if _, err := c.conn.Initialize(ctx, &acpv2.InitializeRequest{ProtocolVersion: 2, Info: acpv2.Implementation{Name: "c", Version: "1"}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ text, answer, want string }{
		{"hello", "allow", "hello|permission: allow|stop: end_turn"},
		{"reject me", "reject", "reject me|permission: reject|stop: end_turn"},
		{"cancel me", "cancel", "cancel me|permission: cancelled|stop: cancelled"},
	} {
		got, err := c.prompt(ctx, tc.text, tc.answer)
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.answer, got, err, tc.want)
		}
	}

	for _, tc := range []struct {
		method string
		params any
		want   string
	}{
		{"session/unknown", map[string]string{}, `{"code":-32601,"message":"Method not found","data":{"method":"session/unknown"}}`},
		{acpv2.MethodNewSession, map[string]int{"cwd": 7}, `{"code":-32602,"message":"Invalid params","data":{"details":"json: cannot unmarshal number into Go struct field .cwd of type acpv2.AbsolutePath","path":"cwd"}}`},
	} {
		_, err := c.conn.ExtMethod(ctx, tc.method, tc.params)
		var rpcErr *acpv2.Error
		if !errors.As(err, &rpcErr) {
			t.Errorf("%s: %v", tc.method, err)
			continue
		}
		if got, _ := json.Marshal(rpcErr); string(got) != tc.want {
			t.Errorf("%s: %s, want %s", tc.method, got, tc.want)
		}
	}

	// Two sessions prompting at once.
	var wg sync.WaitGroup
	got := make([]string, 2)
	for i, answer := range []string{"allow", "reject"} {
		wg.Add(1)
		go func(i int, answer string) {
			defer wg.Done()
			var err error
			if got[i], err = c.prompt(ctx, fmt.Sprint("turn ", i), answer); err != nil {
				t.Error(err)
			}
		}(i, answer)
	}
	wg.Wait()
	if got[0] != "turn 0|permission: allow|stop: end_turn" || got[1] != "turn 1|permission: reject|stop: end_turn" {
		t.Errorf("two sessions at once: %q", got)
	}
}

func chunk(id acpv2.SessionID, text string) *acpv2.UpdateSessionNotification {
	return &acpv2.UpdateSessionNotification{SessionID: id, Update: acpv2.SessionUpdate{Value: &acpv2.SessionUpdateAgentMessageChunk{
		ContentChunk: acpv2.ContentChunk{Content: acpv2.ContentBlock{Value: &acpv2.ContentBlockText{TextContent: acpv2.TextContent{Text: text}}}}}}}
}
