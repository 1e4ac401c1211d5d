package acphttp_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// echoAgentV2 is an ACP v2 agent that echoes the text of a prompt.
type echoAgentV2 struct{ conn *acpv2.AgentSideConnection }

func (a *echoAgentV2) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "echo", Version: "1"}), nil
}

func (a *echoAgentV2) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return acpv2.NewNewSessionResponse("s1"), nil
}

func (a *echoAgentV2) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	return nil
}

func (a *echoAgentV2) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	for _, block := range p.Prompt {
		update := acpv2.NewSessionUpdateAgentMessageChunk("m1", block)
		if err := a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(p.SessionID, update)); err != nil {
			return nil, err
		}
	}
	return acpv2.NewPromptResponse("m1"), nil
}

// recorderV2 keeps the text of the agent's message chunks.
type recorderV2 struct {
	mu   sync.Mutex
	text []string
}

func (r *recorderV2) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	if c, ok := n.Update.Value.(*acpv2.SessionUpdateAgentMessageChunk); ok {
		if t, ok := c.Content.Value.(*acpv2.ContentBlockText); ok {
			r.mu.Lock()
			r.text = append(r.text, t.Text)
			r.mu.Unlock()
		}
	}
	return nil
}

func (r *recorderV2) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return nil, acpv2.NewMethodNotFoundError("session/request_permission")
}

// TestV2 runs an acpv2 agent and client over both profiles: the package
// serves any protocol version's connections.
func TestV2(t *testing.T) {
	s := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		a := &echoAgentV2{}
		acpv2.NewAgentSideConnectionFunc(func(conn *acpv2.AgentSideConnection) acpv2.Agent {
			a.conn = conn
			return a
		}, out, in)
		return a.conn, nil
	}, nil)
	url := serveHandler(t, s)
	for _, u := range []string{url, profileURL(url, "ws")} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		tr, err := acphttp.Dial(ctx, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorderV2{}
		conn := acpv2.NewClientSideConnection(rec, tr, tr)
		if _, err := conn.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "test", Version: "1"})); err != nil {
			t.Fatal(err)
		}
		sess, err := conn.NewSession(ctx, acpv2.NewNewSessionRequest("/"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Prompt(ctx, acpv2.NewPromptRequest(sess.SessionID, []acpv2.ContentBlock{acpv2.NewContentBlockText("hello v2")})); err != nil {
			t.Fatal(err)
		}
		rec.mu.Lock()
		if got := strings.Join(rec.text, "|"); got != "hello v2" {
			t.Errorf("%s: said %q", u, got)
		}
		rec.mu.Unlock()
		tr.Close()
	}
}
