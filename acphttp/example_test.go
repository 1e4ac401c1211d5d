package acphttp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// exampleAgent is a v2 agent that echoes each prompt.
type exampleAgent struct{ conn *acpv2.AgentSideConnection }

func (a *exampleAgent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "echo", Version: "1.0"}), nil
}

func (a *exampleAgent) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return acpv2.NewNewSessionResponse("session-1"), nil
}

func (a *exampleAgent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	for _, block := range p.Prompt {
		update := acpv2.NewSessionUpdateAgentMessageChunk("reply-1", block)
		if err := a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(p.SessionID, update)); err != nil {
			return nil, err
		}
	}
	if err := a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(p.SessionID, acpv2.EndTurn())); err != nil {
		return nil, err
	}
	return acpv2.NewPromptResponse("prompt-1"), nil
}

func (a *exampleAgent) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	return nil
}

// examplePrinter is a v2 client that prints the agent's text and tells
// when the turn is over.
type examplePrinter struct{ idle chan string }

func (p examplePrinter) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	switch u := n.Update.Value.(type) {
	case *acpv2.SessionUpdateAgentMessageChunk:
		if t, ok := u.Content.Value.(*acpv2.ContentBlockText); ok {
			fmt.Println("agent:", t.Text)
		}
	case *acpv2.SessionUpdateStateUpdate:
		if idle, ok := u.Value.(*acpv2.StateUpdateIdle); ok {
			p.idle <- idle.StopReason()
		}
	}
	return nil
}

func (examplePrinter) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeCancelled()), nil
}

// An agent served over the network, and a client of each profile: the
// Server starts an agent's connection for each client that connects, over
// Streamable HTTP (an http:// URL) or WebSocket (ws://), on one path; Dial
// returns the reader and writer of the client's connection.
func ExampleNewServer() {
	acp := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		return acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
			return &exampleAgent{conn: c}
		}, out, in), nil
	}, nil)
	mux := http.NewServeMux()
	mux.Handle("/acp", acp)
	ts := httptest.NewServer(mux) // a program calls http.ListenAndServe
	defer ts.Close()
	defer acp.Shutdown(context.Background()) // before the http.Server's: it ends the streams

	ctx := context.Background()
	for _, url := range []string{ts.URL + "/acp", "ws" + strings.TrimPrefix(ts.URL, "http") + "/acp"} {
		t, err := acphttp.Dial(ctx, url, nil)
		if err != nil {
			panic(err)
		}
		p := examplePrinter{idle: make(chan string, 1)}
		conn := acpv2.NewClientSideConnection(p, t, t)
		if _, err := conn.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "editor", Version: "1.0"})); err != nil {
			panic(err)
		}
		s, err := conn.NewSession(ctx, acpv2.NewNewSessionRequest("/"))
		if err != nil {
			panic(err)
		}
		text := "hello over " + strings.SplitN(url, ":", 2)[0]
		if _, err := conn.Prompt(ctx, acpv2.NewPromptRequest(s.SessionID, []acpv2.ContentBlock{acpv2.NewContentBlockText(text)})); err != nil {
			panic(err)
		}
		fmt.Println("stop:", <-p.idle)
		t.Close()
		conn.Close()
	}
	// Output:
	// agent: hello over http
	// stop: end_turn
	// agent: hello over ws
	// stop: end_turn
}
