package acpinspect

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// echoer is a v1 agent that says its prompt back.
type echoer struct{ conn *acpv1.AgentSideConnection }

func (a *echoer) Initialize(context.Context, *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return &acpv1.InitializeResponse{ProtocolVersion: 1}, nil
}
func (a *echoer) Cancel(context.Context, *acpv1.CancelNotification) error { return nil }
func (a *echoer) NewSession(context.Context, *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse("s1"), nil
}
func (a *echoer) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	for _, b := range p.Prompt {
		if t, ok := b.Value.(*acpv1.ContentBlockText); ok {
			if err := a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(p.SessionID,
				acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText("echo: "+t.Text)))); err != nil {
				return nil, err
			}
		}
	}
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

type quietClient struct{}

func (quietClient) RequestPermission(context.Context, *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}
func (quietClient) SessionUpdate(context.Context, *acpv1.SessionNotification) error { return nil }

// TestProxy runs a turn through the proxy for each pair of profiles, the
// client's to the proxy and the proxy's to the agent, and finds it whole
// in the inspector.
func TestProxy(t *testing.T) {
	agent := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		return acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent { return &echoer{conn: c} }, out, in), nil
	}, nil)
	target := httptest.NewServer(agent)
	defer target.Close()
	defer agent.Shutdown(context.Background())
	for _, c := range []struct{ client, target string }{{"http", "http"}, {"ws", "ws"}, {"ws", "http"}, {"http", "ws"}} {
		t.Run(c.client+"->"+c.target, func(t *testing.T) {
			in := NewInspector()
			p, err := NewProxy(ProxyOptions{Target: c.target + strings.TrimPrefix(target.URL, "http"), Recorder: in})
			if err != nil {
				t.Fatal(err)
			}
			front := httptest.NewServer(p)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			tr, err := acphttp.Dial(ctx, c.client+strings.TrimPrefix(front.URL, "http"), nil)
			if err != nil {
				t.Fatal(err)
			}
			conn := acpv1.NewClientSideConnection(quietClient{}, tr, tr)
			if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
				t.Fatal(err)
			}
			s, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest("/tmp", []acpv1.MCPServer{}))
			if err != nil {
				t.Fatal(err)
			}
			r, err := conn.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")}))
			if err != nil || r.StopReason != acpv1.StopReasonEndTurn {
				t.Fatalf("prompt: %v %v", r, err)
			}
			tr.Close()
			p.Shutdown(ctx)
			front.Close()
			p.Close()
			if in.Len() != 7 || len(in.Findings()) != 0 {
				t.Errorf("%d messages, findings %+v; want 7 and none", in.Len(), in.Findings())
			}
			ss := in.Sessions()
			if len(ss) != 1 || len(ss[0].Transcript) != 2 || ss[0].Transcript[1].Text != "echo: hi" {
				t.Errorf("sessions: %+v", ss)
			}
		})
	}
	if _, err := NewProxy(ProxyOptions{Target: "ftp://x"}); err == nil {
		t.Error("NewProxy of an ftp URL did not fail")
	}
}
