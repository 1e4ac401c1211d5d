//go:build unstable_mcp_over_acp || unstable

package acpconductor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func init() {
	moreHelpers["mcpproxy"] = func([]string) { mcpProxy() }
	moreHelpers["mcpagent"] = func(args []string) { mcpAgent(args[0]) }
}

// greeterID is the server ID of the MCP server mcpProxy declares.
const greeterID = "greeter-1"

// greeter is an MCP server with one tool, "greet".
func greeter() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1"}, nil)
	type in struct {
		Name string `json:"name"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "greet", Description: "greets"}, func(ctx context.Context, req *mcp.CallToolRequest, args in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello, " + args.Name + ", from the proxy"}}}, nil, nil
	})
	return s
}

// mcpProxy is rawProxy adding the MCP server greeter, with "acp"
// transport, to every session/new, and serving its "mcp/message"
// requests.
func mcpProxy() {
	var w atomic.Pointer[wire] // rawProxy's, known at the first request
	provider := acpmcp.NewProvider(func(ctx context.Context, m acpmcp.Message) error {
		b, _ := json.Marshal(envelope{m.ServerID, m.RequestID, m.Method, m.Params, m.Meta})
		w.Load().send(`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"mcp/message","params":`, string(b), `}}`)
		return nil
	})
	if _, err := provider.RegisterServer("greeter", greeter(), &acpmcp.ServerOptions{ServerID: greeterID}); err != nil {
		fmt.Fprintln(os.Stderr, "proxy:", err)
		os.Exit(3)
	}
	rawProxy("", &proxyHooks{
		edit: func(method string, params json.RawMessage) json.RawMessage {
			if method != "session/new" {
				return params
			}
			var p map[string]json.RawMessage
			json.Unmarshal(params, &p)
			var servers []json.RawMessage
			json.Unmarshal(p["mcpServers"], &servers)
			servers = append(servers, json.RawMessage(`{"type":"acp","name":"greeter","serverId":"`+greeterID+`"}`))
			p["mcpServers"], _ = json.Marshal(servers)
			out, _ := json.Marshal(p)
			return out
		},
		serve: func(out *wire, id json.RawMessage, method string, params json.RawMessage) bool {
			if method != acpmcp.Method {
				return false
			}
			w.Store(out)
			var e envelope
			json.Unmarshal(params, &e)
			go func() {
				res, err := provider.Serve(context.Background(), acpmcp.Message{ServerID: e.ServerID, RequestID: e.RequestID, Method: e.Method, Params: e.Params, Meta: e.Meta})
				var ae *acpmcp.Error
				if errors.As(err, &ae) {
					msg, _ := json.Marshal(ae.Message)
					out.send(`{"jsonrpc":"2.0","id":`, string(id), `,"error":{"code":`, fmt.Sprint(ae.Code), `,"message":`, string(msg), `}}`)
					return
				}
				carrier, _ := res.MarshalCarrier()
				out.send(`{"jsonrpc":"2.0","id":`, string(id), `,"result":`, string(carrier), `}`)
			}()
			return true
		},
	})
}

// mcpAgent is an agent on raw JSON-RPC that calls the tool "greet" of
// the MCP servers of session/new and answers with the servers it got and
// what the tool said: mode "http" advertises only "http" MCP servers and
// calls the tool over HTTP with the Go MCP SDK's client; mode "acp"
// advertises "acp" ones too and calls the tool with "mcp/message".
func mcpAgent(mode string) {
	w := &wire{w: bufio.NewWriter(os.Stdout)}
	var mu sync.Mutex
	waiting := map[string]chan rawMsg{}
	readLines(func(m rawMsg, line []byte) {
		switch {
		case m.Method == "" && m.ID != nil:
			mu.Lock()
			ch := waiting[string(m.ID)]
			mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case m.Method == "initialize":
			caps := `{"http":true}`
			if mode == "acp" {
				caps = `{"http":true,"acp":true}`
			}
			w.send(`{"jsonrpc":"2.0","id":`, string(m.ID), `,"result":{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":`, caps, `}}}`)
		case m.Method == "session/new":
			var p struct{ MCPServers []json.RawMessage }
			json.Unmarshal(m.Params, &p)
			call := func(server json.RawMessage) string { return greetOverHTTP(server) }
			if mode == "acp" {
				call = func(server json.RawMessage) string {
					ch := make(chan rawMsg, 1)
					mu.Lock()
					waiting[`"mcp-1"`] = ch
					mu.Unlock()
					return greetOverACP(w, server, ch)
				}
			}
			go func() {
				said := "no tool"
				for _, s := range p.MCPServers {
					if strings.Contains(string(s), `"greeter"`) {
						said = call(s)
					}
				}
				servers, _ := json.Marshal(p.MCPServers)
				text, _ := json.Marshal(said)
				w.send(`{"jsonrpc":"2.0","id":`, string(m.ID), `,"result":{"sessionId":"s1","mcpServers":`, string(servers), `,"said":`, string(text), `}}`)
			}()
		case m.ID != nil:
			w.send(`{"jsonrpc":"2.0","id":`, string(m.ID), `,"result":null}`)
		}
	})
}

// headerTransport adds a header to each request.
type headerTransport struct{ name, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// greetOverHTTP calls the tool greet of an "http" MCP server entry with
// the Go MCP SDK's client.
func greetOverHTTP(entry json.RawMessage) string {
	var s struct {
		Type, URL string
		Headers   []struct{ Name, Value string }
	}
	json.Unmarshal(entry, &s)
	if s.Type != "http" || len(s.Headers) != 1 {
		return "not an http server: " + string(entry)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "url-agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   s.URL,
		HTTPClient: &http.Client{Transport: headerTransport{s.Headers[0].Name, s.Headers[0].Value}},
	}, nil)
	if err != nil {
		return "connect: " + err.Error()
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "agent"}})
	if err != nil {
		return "call: " + err.Error()
	}
	if t, ok := res.Content[0].(*mcp.TextContent); ok && len(res.Content) == 1 {
		return t.Text
	}
	return "unexpected content"
}

// greetOverACP calls the tool greet of an "acp" MCP server entry with
// "mcp/message"; its answer comes on answer.
func greetOverACP(w *wire, entry json.RawMessage, answer <-chan rawMsg) string {
	var s struct{ Type, ServerID string }
	json.Unmarshal(entry, &s)
	if s.Type != "acp" {
		return "not an acp server: " + string(entry)
	}
	params, _ := acpmcp.WithRequestMeta(json.RawMessage(`{"name":"greet","arguments":{"name":"agent"}}`),
		acpmcp.CallerMeta{ClientInfo: map[string]string{"name": "acp-agent", "version": "1"}})
	b, _ := json.Marshal(envelope{ServerID: s.ServerID, RequestID: "r1", Method: "tools/call", Params: params})
	w.send(`{"jsonrpc":"2.0","id":"mcp-1","method":"mcp/message","params":`, string(b), `}`)
	m := <-answer
	out, err := acpmcp.ParseOutcome(m.Result)
	if err != nil || out.Error != nil {
		return fmt.Sprintf("mcp/message: %s %s", m.Result, m.Error)
	}
	var r struct{ Content []struct{ Text string } }
	json.Unmarshal(out.Result, &r)
	if len(r.Content) != 1 {
		return "unexpected content"
	}
	return r.Content[0].Text
}

// checkGoroutines fails the test if it leaves goroutines behind, after a
// grace period for the ones ending.
func checkGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines left (%d before):\n%s", n-before, before, buf[:runtime.Stack(buf, true)])
		}
	})
}

// sessionWithGreeter runs a chain of mcpProxy in front of mcpAgent in
// mode, and returns the agent's answer to a session/new with a stdio
// server, and the client's end of the chain.
func sessionWithGreeter(t *testing.T, mode string) (answer struct {
	MCPServers []json.RawMessage
	Said       string
}, p *rawPeer, done <-chan struct{}) {
	var stderr strings.Builder
	p, done, _ = newRawPeer(t, []string{helper(t, "mcpproxy"), helper(t, "mcpagent", mode)}, &Options{Stderr: &lockedWriter{w: &stderr}})
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	if got := p.read(); !strings.Contains(got, `"mcpCapabilities"`) {
		t.Fatalf("initialize: %s", got)
	}
	p.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[{"type":"stdio","name":"local","command":"/bin/true","args":[],"env":[]}]}}`)
	var resp struct {
		ID     int
		Result json.RawMessage
	}
	line := p.read()
	if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.ID != 1 || json.Unmarshal(resp.Result, &answer) != nil {
		t.Fatalf("session/new: %s (standard error: %s)", line, stderr.String())
	}
	if len(answer.MCPServers) != 2 || string(answer.MCPServers[0]) != `{"type":"stdio","name":"local","command":"/bin/true","args":[],"env":[]}` {
		t.Fatalf("the agent got the servers %s", answer.MCPServers)
	}
	if want := "hello, agent, from the proxy"; answer.Said != want {
		t.Errorf("the tool said %q to the agent, want %q", answer.Said, want)
	}
	return answer, p, done
}

// TestMCPBridge: an agent that does not advertise "acp" MCP servers gets
// the server a proxy adds as an "http" server on a loopback URL, and its
// Go MCP SDK client calls the proxy's tool there; the listener is on the
// loopback interface only, and closes with the chain.
func TestMCPBridge(t *testing.T) {
	checkGoroutines(t)
	answer, p, done := sessionWithGreeter(t, "http")
	var s struct {
		Type, Name, URL string
		Headers         []struct{ Name, Value string }
	}
	json.Unmarshal(answer.MCPServers[1], &s)
	u, err := url.Parse(s.URL)
	if err != nil || s.Type != "http" || s.Name != "greeter" || u.Hostname() != "127.0.0.1" ||
		len(s.Headers) != 1 || s.Headers[0].Name != "Authorization" || !strings.HasPrefix(s.Headers[0].Value, "Bearer ") {
		t.Fatalf("the proxy's server reached the agent as %s", answer.MCPServers[1])
	}
	if ip := nonLoopback(); ip != nil {
		if c, err := net.DialTimeout("tcp", net.JoinHostPort(ip.String(), u.Port()), 5*time.Second); err == nil {
			c.Close()
			t.Errorf("the bridge answers on %s, not on the loopback interface only", ip)
		}
	}
	p.w.(io.Closer).Close()
	<-done
	if c, err := net.Dial("tcp", u.Host); err == nil {
		c.Close()
		t.Error("the bridge still listens after the chain ended")
	}
}

// TestMCPBridgeNotNeeded: an agent that advertises "acp" MCP servers gets
// the proxy's server as the proxy declared it, and its "mcp/message"
// reaches the proxy.
func TestMCPBridgeNotNeeded(t *testing.T) {
	answer, _, _ := sessionWithGreeter(t, "acp")
	if got, want := string(answer.MCPServers[1]), `{"type":"acp","name":"greeter","serverId":"`+greeterID+`"}`; got != want {
		t.Errorf("the proxy's server reached the agent as %s, want %s", got, want)
	}
}

// nonLoopback returns an address of this machine that is not a loopback
// one, or nil.
func nonLoopback() net.IP {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP
		}
	}
	return nil
}

// TestMCPBridgeToClient: with no proxy, the agent's MCP requests on the
// bridge reach the client that declared the server, as "mcp/message".
func TestMCPBridgeToClient(t *testing.T) {
	checkGoroutines(t)
	provider := acpmcp.NewProvider(nil)
	if _, err := provider.RegisterServer("greeter", greeter(), &acpmcp.ServerOptions{ServerID: greeterID}); err != nil {
		t.Fatal(err)
	}
	p, done, _ := newRawPeer(t, []string{helper(t, "mcpagent", "http")}, nil)
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	p.read()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[{"type":"acp","name":"greeter","serverId":"` + greeterID + `","_meta":{"k":1.50}}]}}`)
	calls := 0
	for {
		var m rawMsg
		line := p.read()
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m.Method == "" {
			var r struct{ MCPServers []json.RawMessage }
			json.Unmarshal(m.Result, &r)
			if !strings.Contains(line, `"said":"hello, agent, from the proxy"`) || len(r.MCPServers) != 1 || !strings.HasSuffix(string(r.MCPServers[0]), `,"_meta":{"k":1.50}}`) {
				t.Errorf("session/new: %s", line)
			}
			break
		}
		if m.Method != acpmcp.Method {
			t.Fatalf("the client got %s", line)
		}
		calls++
		var e envelope
		json.Unmarshal(m.Params, &e)
		out, err := provider.Serve(context.Background(), acpmcp.Message{ServerID: e.ServerID, RequestID: e.RequestID, Method: e.Method, Params: e.Params})
		if err != nil {
			t.Fatal(err)
		}
		carrier, _ := out.MarshalCarrier()
		p.send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + string(carrier) + `}`)
	}
	if calls == 0 {
		t.Error("no mcp/message reached the client")
	}
	p.w.(io.Closer).Close()
	<-done
}

// TestMCPBridgeReadsCapabilities: the agent takes "acp" servers when v1's
// agentCapabilities.mcpCapabilities.acp is true or v2's
// capabilities.session.mcp.acp is an object; only then do session
// requests pass unchanged.
func TestMCPBridgeReadsCapabilities(t *testing.T) {
	for _, c := range []struct {
		result string
		takes  bool
	}{
		{`{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"acp":true}}}`, true},
		{`{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"acp":false,"http":true}}}`, false},
		{`{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"acp":"yes"}}}`, false},
		{`{"protocolVersion":2,"capabilities":{"session":{"mcp":{"acp":{}}}}}`, true},
		{`{"protocolVersion":2,"capabilities":{"session":{"mcp":{"acp":null,"http":{}}}}}`, false},
		{`{"protocolVersion":2}`, false},
	} {
		b := newMCPBridge(&chain{opts: Options{Stderr: io.Discard}})
		b.initialized([]byte(c.result))
		params := []byte(`{"mcpServers":[{"type":"acp","name":"n","serverId":"s"}]}`)
		_, changed := b.adapt("session/new", params)
		b.close()
		if b.takes != c.takes || changed == c.takes {
			t.Errorf("%s: takes %v, params changed %v", c.result, b.takes, changed)
		}
	}
}

// TestMCPBridgeKeepsBytes: only the "acp" entries of mcpServers are
// rewritten; the rest of the params, and the other entries, keep their
// bytes, and an entry's name and _meta are kept.
func TestMCPBridgeKeepsBytes(t *testing.T) {
	b := newMCPBridge(&chain{opts: Options{Stderr: io.Discard}})
	defer b.close()
	params := `{ "cwd" : "/a<b>", "mcpServers" : [ {"type":"stdio","name":"x","n":1.50} , {"type":"acp","name":"\u00e9<",` +
		`"serverId":"s","_meta":{"big":9007199254740993}} , {"type":"acp","name":"no id"} ], "_meta":{"m":1.50} }`
	got, changed := b.adapt("session/new", []byte(params))
	if !changed {
		t.Fatal("an acp entry was not bridged")
	}
	prefix := `{ "cwd" : "/a<b>", "mcpServers" : [{"type":"stdio","name":"x","n":1.50},{"type":"http","name":"\u00e9<","url":"http://127.0.0.1:`
	suffix := `}],"_meta":{"big":9007199254740993}},{"type":"acp","name":"no id"}], "_meta":{"m":1.50} }`
	if !strings.HasPrefix(string(got), prefix) || !strings.HasSuffix(string(got), suffix) {
		t.Errorf("the params became\n%s", got)
	}
	for _, method := range []string{"session/prompt", "x/new"} {
		if _, changed := b.adapt(method, []byte(params)); changed {
			t.Errorf("the params of %s were changed", method)
		}
	}
}
