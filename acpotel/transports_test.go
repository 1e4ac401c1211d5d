package acpotel_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/convert"
)

// TestThroughRouter traces an agent served by a version router: what the
// router answers before initialize is none of the connection's, and has
// no span; the connection's calls from initialize on have theirs.
func TestThroughRouter(t *testing.T) {
	tel := newTelemetry()
	agent := &agentV1{}
	rt, err := acprouter.New(acprouter.NewRoute(1, func(w io.Writer, r io.Reader) *acpv1.AgentSideConnection {
		return acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent { agent.conn = c; return agent },
			w, r, acpv1.WithMiddleware(tel.middleware()))
	}, convert.InitializeForV1))
	if err != nil {
		t.Fatal(err)
	}
	ar, cw := io.Pipe()
	cr, aw := io.Pipe()
	served := make(chan acprouter.Conn, 1)
	go func() {
		c, _ := rt.Serve(aw, ar)
		served <- c
	}()
	defer func() {
		cw.Close()
		if c := <-served; c != nil {
			<-c.Done()
		}
	}()
	// A request before initialize, which the router refuses: the client
	// connection reads its answer as one to no call of its own.
	cc := acpv1.NewClientSideConnection(clientV1{}, cw, cr, acpv1.WithMiddleware(tel.middleware()))
	defer cc.Close()
	ctx := context.Background()
	if _, err := cc.NewSession(ctx, &acpv1.NewSessionRequest{Cwd: "/", MCPServers: []acpv1.MCPServer{}}); err == nil {
		t.Fatal("a session/new before initialize was answered")
	}
	if _, err := cc.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.NewSession(ctx, &acpv1.NewSessionRequest{Cwd: "/", MCPServers: []acpv1.MCPServer{}}); err != nil {
		t.Fatal(err)
	}
	childOf(t, tel.find(t, "initialize", trace.SpanKindServer), tel.find(t, "initialize", trace.SpanKindClient))
	// One session/new reached the agent: the router refused the first.
	newSession := tel.find(t, "session/new", trace.SpanKindServer)
	if attr(newSession, "jsonrpc.request.id") != "3" {
		t.Errorf("the agent's session/new span has id %s, want 3", attr(newSession, "jsonrpc.request.id"))
	}
}

// TestThroughHTTP traces a client and an agent joined by acphttp over
// Streamable HTTP: the trace crosses the network in _meta.
func TestThroughHTTP(t *testing.T) {
	tel := newTelemetry()
	srv := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		agent := &agentV1{}
		return acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent { agent.conn = c; return agent },
			out, in, acpv1.WithMiddleware(tel.middleware())), nil
	}, nil)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer srv.Shutdown(context.Background())
	ctx := context.Background()
	tr, err := acphttp.Dial(ctx, hs.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	cc := acpv1.NewClientSideConnection(clientV1{}, tr, tr, acpv1.WithMiddleware(tel.middleware()))
	defer cc.Close()
	if _, err := cc.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1,
		ClientCapabilities: &acpv1.ClientCapabilities{Fs: &acpv1.FileSystemCapabilities{ReadTextFile: acpv1.Ptr(true)}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.NewSession(ctx, &acpv1.NewSessionRequest{Cwd: "/", MCPServers: []acpv1.MCPServer{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.Prompt(ctx, &acpv1.PromptRequest{SessionID: "s1", Prompt: []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")}}); err != nil {
		t.Fatal(err)
	}
	agentPrompt := tel.find(t, "session/prompt", trace.SpanKindServer)
	childOf(t, agentPrompt, tel.find(t, "session/prompt", trace.SpanKindClient))
	read := tel.find(t, "fs/read_text_file", trace.SpanKindClient)
	childOf(t, read, agentPrompt)
	childOf(t, tel.find(t, "fs/read_text_file", trace.SpanKindServer), read)
	if !strings.Contains(tel.names(), "session/new/server") {
		t.Errorf("no span of session/new on the agent: %s", tel.names())
	}
}
