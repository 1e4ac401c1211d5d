//go:build unstable_mcp_over_acp || unstable

package acpconductor

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpmcp"
)

// sessionWithGreeter runs a chain of mcpProxy in front of mcpAgent in
// mode, and returns the agent's answer to a session/new with a stdio
// server, and the client's end of the chain.
func sessionWithGreeter(t *testing.T, mode string) (answer struct {
	MCPServers []json.RawMessage
	Said       string
	Progress   int
}, p *rawPeer, done <-chan struct{}) {
	var stderr strings.Builder
	p, done, _ = newRawPeer(t, []string{helper(t, "mcpproxy"), helper(t, "mcpagent", mode)}, &Options{Stderr: &lockedWriter{w: &stderr}})
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	// The agent's MCP capabilities, with "acp" added when the bridge serves
	// them.
	caps := map[string]string{"http": `{"acp":true,"http":true}`, "acp": `{"http":true,"acp":true}`}[mode]
	if got, want := p.read(), `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":`+caps+`}}}`; got != want {
		t.Fatalf("initialize: the client got\n%s\nwant\n%s", got, want)
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
	if answer.Progress != 1 {
		t.Errorf("the agent got %d progress notifications of the tool, want 1", answer.Progress)
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
// bridge reach the client that declared the server, as "mcp/message", and
// the client's progress notifications reach the agent's MCP client.
func TestMCPBridgeToClient(t *testing.T) {
	checkGoroutines(t)
	p, done, _ := newRawPeer(t, []string{helper(t, "mcpagent", "http")}, nil)
	provider := acpmcp.NewProvider(func(ctx context.Context, m acpmcp.Message) error {
		b, _ := json.Marshal(envelope{m.ServerID, m.RequestID, m.Method, m.Params, m.Meta})
		_, err := io.WriteString(p.w, `{"jsonrpc":"2.0","method":"mcp/message","params":`+string(b)+"}\n")
		return err
	})
	if _, err := provider.RegisterServer("greeter", greeter(), &acpmcp.ServerOptions{ServerID: greeterID}); err != nil {
		t.Fatal(err)
	}
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
			if !strings.Contains(line, `"said":"hello, agent, from the proxy","progress":1`) || len(r.MCPServers) != 1 || !strings.HasSuffix(string(r.MCPServers[0]), `,"_meta":{"k":1.50}}`) {
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
// requests pass unchanged. Otherwise an "acp" entry becomes an entry of a
// transport the agent takes: "http" where it advertises it, else "stdio"
// (every v1 agent's; a v2 agent's when it advertises it), and none when a
// v2 agent advertises neither.
func TestMCPBridgeReadsCapabilities(t *testing.T) {
	for _, c := range []struct {
		result string
		entry  string // the type of the entry the agent gets
	}{
		{`{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"acp":true}}}`, "acp"},
		{`{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"acp":false,"http":true}}}`, "http"},
		{`{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"acp":"yes"}}}`, "stdio"},
		{`{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"http":false}}}`, "stdio"},
		{`{"protocolVersion":1}`, "stdio"},
		{`{"protocolVersion":2,"capabilities":{"session":{"mcp":{"acp":{}}}}}`, "acp"},
		{`{"protocolVersion":2,"capabilities":{"session":{"mcp":{"acp":null,"http":{}}}}}`, "http"},
		{`{"protocolVersion":2,"capabilities":{"session":{"mcp":{"http":{},"stdio":{}}}}}`, "http"},
		{`{"protocolVersion":2,"capabilities":{"session":{"mcp":{"stdio":{}}}}}`, "stdio"},
		{`{"protocolVersion":2,"capabilities":{"session":{"mcp":{"http":null,"stdio":{}}}}}`, "stdio"},
		{`{"protocolVersion":2,"agentCapabilities":{"mcpCapabilities":{"http":true}}}`, "acp"},
		{`{"protocolVersion":2}`, "acp"},
	} {
		var stderr strings.Builder
		b := newMCPBridge(&chain{opts: Options{Stderr: &stderr, MCPStdioCommand: []string{"/bin/conductor", "mcp-stdio"}}})
		b.initialized([]byte(c.result))
		params := []byte(`{"mcpServers":[{"type":"acp","name":"n","serverId":"s"}]}`)
		got, changed := b.adapt("session/new", params)
		b.close()
		var p struct {
			MCPServers []struct {
				Type, Command string
				Args          []string
			}
		}
		if err := json.Unmarshal(got, &p); err != nil || len(p.MCPServers) != 1 {
			t.Fatalf("%s: the params became %s", c.result, got)
		}
		s := p.MCPServers[0]
		if s.Type != c.entry || changed != (c.entry != "acp") {
			t.Errorf("%s: the agent gets %s (changed %v), want a %q entry", c.result, got, changed, c.entry)
		}
		if s.Type == "stdio" && (s.Command != "/bin/conductor" || len(s.Args) != 2 || s.Args[0] != "mcp-stdio" || !strings.HasPrefix(s.Args[1], "http://127.0.0.1:")) {
			t.Errorf("%s: the stdio entry is %s", c.result, got)
		}
		if c.entry == "acp" && !b.takes && !strings.Contains(stderr.String(), "neither acp, http nor stdio") {
			t.Errorf("%s: the entry passed unchanged without a word: %q", c.result, stderr.String())
		}
	}
}

// TestMCPBridgeStdioNeedsCommand: an agent that takes stdio MCP servers
// only gets the "acp" entry unchanged, with a line on the standard error,
// when no command serves the bridge on stdio.
func TestMCPBridgeStdioNeedsCommand(t *testing.T) {
	var stderr strings.Builder
	b := newMCPBridge(&chain{opts: Options{Stderr: &stderr}})
	defer b.close()
	b.initialized([]byte(`{"protocolVersion":2,"capabilities":{"session":{"mcp":{"stdio":{}}}}}`))
	params := `{"mcpServers":[{"type":"acp","name":"n","serverId":"s"}]}`
	if got, changed := b.adapt("session/new", []byte(params)); changed || string(got) != params {
		t.Errorf("the params became %s", got)
	}
	if !strings.Contains(stderr.String(), "MCPStdioCommand") {
		t.Errorf("the standard error says %q", stderr.String())
	}
}

// TestMCPBridgeOverStdio: a v2 agent that advertises stdio MCP servers but
// not http ones gets the server a proxy adds as a "stdio" entry running
// "acpconductor mcp-stdio URL", with the token in its environment and not
// on its command line; its Go MCP SDK client starts it and calls the
// proxy's tool through it, progress included.
func TestMCPBridgeOverStdio(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	opts := &Options{Stderr: &lockedWriter{w: &stderr}, MCPStdioCommand: []string{exe, helperArg, "conductor", "mcp-stdio"}}
	p, done, _ := newRawPeer(t, []string{helper(t, "mcpproxy"), helper(t, "mcpagent", "stdio")}, opts)
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2}}`)
	if got, want := p.read(), `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"capabilities":{"session":{"mcp":{"acp":{},"stdio":{}}}}}}`; got != want {
		t.Fatalf("initialize: the client got\n%s\nwant\n%s", got, want)
	}
	p.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`)
	var resp struct {
		Result struct {
			MCPServers []json.RawMessage
			Said       string
			Progress   int
		}
	}
	line := p.read()
	if err := json.Unmarshal([]byte(line), &resp); err != nil || len(resp.Result.MCPServers) != 1 {
		t.Fatalf("session/new: %s (standard error: %s)", line, stderr.String())
	}
	var s struct {
		Type, Name, Command string
		Args                []string
		Env                 []struct{ Name, Value string }
	}
	entry := resp.Result.MCPServers[0]
	json.Unmarshal(entry, &s)
	if s.Type != "stdio" || s.Name != "greeter" || s.Command != exe || len(s.Args) != 4 || s.Args[2] != "mcp-stdio" ||
		!strings.HasPrefix(s.Args[3], "http://127.0.0.1:") || len(s.Env) != 1 || s.Env[0].Name != EnvMCPAuthorization ||
		!strings.HasPrefix(s.Env[0].Value, "Bearer ") || strings.Contains(strings.Join(s.Args, " "), "Bearer") {
		t.Fatalf("the proxy's server reached the agent as %s", entry)
	}
	if want := "hello, agent, from the proxy"; resp.Result.Said != want {
		t.Errorf("the tool said %q to the agent, want %q (standard error: %s)", resp.Result.Said, want, stderr.String())
	}
	if resp.Result.Progress != 1 {
		t.Errorf("the agent got %d progress notifications of the tool, want 1", resp.Result.Progress)
	}
	p.w.(io.Closer).Close()
	<-done
}

// TestMCPBridgeKeepsBytes: only the "acp" entries of mcpServers are
// rewritten; the rest of the params, and the other entries, keep their
// bytes, and an entry's name and _meta are kept.
func TestMCPBridgeKeepsBytes(t *testing.T) {
	b := newMCPBridge(&chain{opts: Options{Stderr: io.Discard}})
	defer b.close()
	b.initialized([]byte(`{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"http":true}}}`))
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

// TestMCPBridgeCancels: an MCP request to the bridge that its HTTP client
// abandons is cancelled where its "mcp/message" went.
func TestMCPBridgeCancels(t *testing.T) {
	checkGoroutines(t)
	p, done, _ := newRawPeer(t, []string{helper(t, "mcpagent", "list")}, nil)
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	p.read()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[{"type":"acp","name":"greeter","serverId":"` + greeterID + `"}]}}`)
	var resp struct {
		Result struct{ MCPServers []json.RawMessage }
	}
	json.Unmarshal([]byte(p.read()), &resp)
	if len(resp.Result.MCPServers) != 1 {
		t.Fatalf("session/new: %+v", resp)
	}
	provider := acpmcp.NewProvider(nil)
	if _, err := provider.RegisterServer("greeter", greeter(), &acpmcp.ServerOptions{ServerID: greeterID}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	called := make(chan string, 1)
	go func() {
		var progress atomic.Int32
		called <- greetOverHTTPContext(ctx, resp.Result.MCPServers[0], &progress)
	}()
	for {
		var m rawMsg
		line := p.read()
		json.Unmarshal([]byte(line), &m)
		var e envelope
		json.Unmarshal(m.Params, &e)
		if m.Method != acpmcp.Method || m.ID == nil {
			t.Fatalf("the client got %s", line)
		}
		if e.Method == "tools/call" {
			cancel()
			want := `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":` + string(m.ID) + `}}`
			if got := p.read(); got != want {
				t.Errorf("after the HTTP client left, the client got\n%s\nwant\n%s", got, want)
			}
			break
		}
		out, _ := provider.Serve(context.Background(), acpmcp.Message{ServerID: e.ServerID, RequestID: e.RequestID, Method: e.Method, Params: e.Params})
		carrier, _ := out.MarshalCarrier()
		p.send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + string(carrier) + `}`)
	}
	if said := <-called; !strings.HasPrefix(said, "call: ") {
		t.Errorf("the abandoned call ended with %q", said)
	}
	p.w.(io.Closer).Close()
	<-done
}

// TestMCPBridgeOffersACP: where an agent that does not take "acp" MCP
// servers advertises its MCP capabilities, the chain advertises them, and
// the rest of the result keeps its bytes.
func TestMCPBridgeOffersACP(t *testing.T) {
	for _, c := range []struct{ result, want string }{
		{`{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"http":true},"x":1.50}}`,
			`{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"acp":true,"http":true},"x":1.50}}`},
		{`{"agentCapabilities":{"mcpCapabilities":{ "acp" : false }}}`, `{"agentCapabilities":{"mcpCapabilities":{ "acp" : true }}}`},
		{`{"agentCapabilities":{"mcpCapabilities":{ }}}`, `{"agentCapabilities":{"mcpCapabilities":{"acp":true}}}`},
		{`{"protocolVersion":1}`, `{"protocolVersion":1}`},
		{`{"agentCapabilities":{"mcpCapabilities":null}}`, `{"agentCapabilities":{"mcpCapabilities":null}}`},
		{`{"protocolVersion":2,"capabilities":{"session":{"mcp":{"acp":null,"http":{}}}}}`,
			`{"protocolVersion":2,"capabilities":{"session":{"mcp":{"acp":{},"http":{}}}}}`},
		{`{"protocolVersion":2,"capabilities":{"session":{}}}`, `{"protocolVersion":2,"capabilities":{"session":{}}}`},
		{`{"agentCapabilities":{"mcpCapabilities":{"acp":true}}}`, `{"agentCapabilities":{"mcpCapabilities":{"acp":true}}}`},
	} {
		b := newMCPBridge(&chain{opts: Options{Stderr: io.Discard}})
		b.initialized([]byte(c.result))
		got, changed := b.offer([]byte(c.result))
		if string(got) != c.want || changed != (c.result != c.want) {
			t.Errorf("%s became %s (changed %v), want %s", c.result, got, changed, c.want)
		}
	}
}
