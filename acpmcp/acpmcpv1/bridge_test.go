//go:build unstable_mcp_over_acp || unstable

package acpmcpv1

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/acpmcp/internal/mcptest"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// withHeader adds one header to each request.
type withHeader struct {
	name, value string
}

func (h withHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// bridged returns the http declaration the bridge makes of a registered
// server, through the agent's view of a session's mcpServers.
func bridged(t *testing.T, p *pair, reg *acpmcp.Registration, opts *acpmcp.BridgeOptions) (*Bridge, *acpv1.MCPServerHTTP) {
	t.Helper()
	b := NewBridge(p.caller, p.agentCon, opts)
	t.Cleanup(func() { b.Close() })
	stdio := acpv1.NewMCPServerStdioVariant("local", "/bin/true", nil, nil)
	servers, err := b.AdaptServers([]acpv1.MCPServer{Declaration(reg), stdio})
	if err != nil {
		t.Fatal(err)
	}
	if servers[1].Value != stdio.Value {
		t.Error("a stdio entry was rewritten")
	}
	h, ok := servers[0].Value.(*acpv1.MCPServerHTTPVariant)
	if !ok || h.Name != reg.Name() || !strings.HasPrefix(h.URL, "http://127.0.0.1:") || len(h.Headers) != 1 || h.Headers[0].Name != "Authorization" {
		t.Fatalf("the acp entry became %+v", servers[0].Value)
	}
	if strings.Contains(h.URL, strings.TrimPrefix(h.Headers[0].Value, "Bearer ")) {
		t.Error("the token is in the URL")
	}
	return b, &h.MCPServerHTTP
}

func TestBridgeServesStockHTTPClient(t *testing.T) {
	p := newPair(t)
	reg, err := p.provider.RegisterServer("tools", mcptest.EchoServer(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, h := bridged(t, p, reg, nil)
	var mu sync.Mutex
	progress := 0
	client := mcp.NewClient(&mcp.Implementation{Name: "url-agent", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress++
			mu.Unlock()
		},
	})
	transport := &mcp.StreamableClientTransport{Endpoint: h.URL, HTTPClient: &http.Client{Transport: withHeader{"Authorization", h.Headers[0].Value}}}
	cs, err := client.Connect(mcptest.Timeout(t), transport, nil)
	if err != nil {
		t.Fatalf("connecting over HTTP: %v", err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(mcptest.Timeout(t), nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "echo" {
		t.Fatalf("tools/list over HTTP: %v %+v", err, tools)
	}
	params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "over http"}}
	params.SetProgressToken("p")
	res, err := cs.CallTool(mcptest.Timeout(t), params)
	if err != nil || res.Content[0].(*mcp.TextContent).Text != "echo: over http" {
		t.Fatalf("tools/call over HTTP: %v %+v", err, res)
	}
	// The MCP client handles notifications apart from responses: the
	// progress may be seen a moment after the result.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		n := progress
		mu.Unlock()
		if n == 1 || time.Now().After(deadline) {
			if n != 1 {
				t.Errorf("%d progress notifications over the event stream, want 1", n)
			}
			break
		}
	}
}

// post sends one raw MCP request to the bridge.
func post(t *testing.T, url string, header map[string]string, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", acpmcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", "tools/list")
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

const listBody = `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

func TestBridgeRefusals(t *testing.T) {
	p := newPair(t)
	reg, started, ended, release := mcptest.Blocking(t, p.provider.Provider, 0)
	_, h := bridged(t, p, reg, &acpmcp.BridgeOptions{MaxActiveRequests: 1, MaxRequestBodyBytes: 1024})
	auth := h.Headers[0].Value
	other, _ := p.provider.Register("other", func(context.Context, *acpmcp.Request) (acpmcp.Outcome, error) {
		return acpmcp.Outcome{Result: json.RawMessage(`{}`)}, nil
	}, nil)
	_, otherHTTP := bridged(t, p, other, nil)
	for _, c := range []struct {
		name   string
		url    string
		header map[string]string
		body   string
		status int
		code   string
	}{
		{"no token", h.URL, nil, listBody, 401, "-32600"},
		{"a token of another server", h.URL, map[string]string{"Authorization": otherHTTP.Headers[0].Value}, listBody, 401, "-32600"},
		{"a bad token", h.URL, map[string]string{"Authorization": auth + "x"}, listBody, 401, "-32600"},
		{"a foreign host", h.URL, map[string]string{"Authorization": auth, "Host": "evil.example:80"}, listBody, 403, "-32600"},
		{"a foreign origin", h.URL, map[string]string{"Authorization": auth, "Origin": "http://evil.example"}, listBody, 403, "-32600"},
		{"an unknown route", h.URL + "x", map[string]string{"Authorization": auth}, listBody, 404, "-32601"},
		{"a body past the limit", h.URL, map[string]string{"Authorization": auth}, strings.Repeat(" ", 2048) + listBody, 413, "-33000"},
		{"a wrong method header", h.URL, map[string]string{"Authorization": auth, "Mcp-Method": "x"}, listBody, 400, "-32020"},
		{"a batch", h.URL, map[string]string{"Authorization": auth}, "[" + listBody + "]", 400, "-32600"},
		{"initialize", h.URL, map[string]string{"Authorization": auth, "Mcp-Method": "initialize"},
			strings.Replace(listBody, "tools/list", "initialize", 1), 404, "-32601"},
	} {
		resp, body := post(t, c.url, c.header, c.body)
		if resp.StatusCode != c.status || !strings.Contains(body, `"code":`+c.code) {
			t.Errorf("%s: %d %s, want %d with code %s", c.name, resp.StatusCode, body, c.status, c.code)
		}
	}
	// One request active: the next one is refused 429, -33000.
	done := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, strings.NewReader(listBody))
		req.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"},
			"Mcp-Protocol-Version": {acpmcp.ProtocolVersion}, "Mcp-Method": {"tools/list"}, "Authorization": {auth}}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		done <- string(b)
	}()
	<-started
	resp, body := post(t, h.URL, map[string]string{"Authorization": auth}, listBody)
	if resp.StatusCode != 429 || !strings.Contains(body, `"code":-33000`) {
		t.Errorf("past the limit: %d %s", resp.StatusCode, body)
	}
	// Dropping the HTTP request cancels its ACP request.
	cancel()
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the dropped request's handler ended with %v", err)
	}
	<-done
	close(release)
	// The dropped request's place is given back when the bridge's handler
	// of it returns, which the client that dropped it does not wait for:
	// a 429 until then is right, past a few seconds it is not.
	deadline := time.Now().Add(5 * time.Second)
	resp, body = post(t, h.URL, map[string]string{"Authorization": auth}, listBody)
	for resp.StatusCode == 429 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		resp, body = post(t, h.URL, map[string]string{"Authorization": auth}, listBody)
	}
	if resp.StatusCode != 200 || body != `{"id":7,"jsonrpc":"2.0","result":{}}` {
		t.Fatalf("after the refusals: %d %s", resp.StatusCode, body)
	}
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the request after the refusals did not reach the handler")
	}
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the request after the refusals did not end")
	}
}

func TestBridgeClosesWithConnection(t *testing.T) {
	p := newPair(t)
	reg, err := p.provider.RegisterServer("tools", mcptest.EchoServer(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, h := bridged(t, p, reg, nil)
	p.Cut()
	<-p.agentCon.Done()
	deadline := time.Now().Add(5 * time.Second)
	for {
		req, _ := http.NewRequest(http.MethodPost, h.URL, strings.NewReader(listBody))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			break
		}
		resp.Body.Close()
		if time.Now().After(deadline) {
			t.Fatal("the bridge still listens after its connection ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestBridgeBufferOverflow(t *testing.T) {
	p := newPair(t)
	ended := make(chan error, 1)
	reg, err := p.provider.Register("chatty", func(ctx context.Context, req *acpmcp.Request) (acpmcp.Outcome, error) {
		big, _ := json.Marshal(map[string]string{"message": strings.Repeat("x", 200)})
		if err := req.Notify(ctx, "notifications/message", big); err != nil {
			return acpmcp.Outcome{}, err
		}
		<-ctx.Done()
		ended <- ctx.Err()
		return acpmcp.Outcome{}, ctx.Err()
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, h := bridged(t, p, reg, &acpmcp.BridgeOptions{MaxBufferedResponseBytes: 100})
	resp, body := post(t, h.URL, map[string]string{"Authorization": h.Headers[0].Value}, listBody)
	if resp.Header.Get("Content-Type") != "text/event-stream" ||
		!strings.Contains(body, `"code":-33000,"message":"MCP notification buffer overflow"`) || strings.Contains(body, "xxx") {
		t.Errorf("past the buffer limit: %d %s %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the overflowing request ended with %v, want cancelled", err)
	}
}
