//go:build unstable_mcp_over_acp || unstable

package acpconductor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
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
		if token := req.Params.GetProgressToken(); token != nil {
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: 1, Total: 1}); err != nil {
				return nil, nil, err
			}
		}
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
// what the tool said, with the number of progress notifications it got
// for the call: mode "http" advertises only "http" MCP servers and calls
// the tool over HTTP with the Go MCP SDK's client ("list" does not call
// it); mode "acp" advertises "acp" ones too and calls the tool with
// "mcp/message"; mode "stdio" is a v2 agent that advertises only "stdio"
// MCP servers and calls the tool by running the server's command.
func mcpAgent(mode string) {
	w := &wire{w: bufio.NewWriter(os.Stdout)}
	var mu sync.Mutex
	waiting := map[string]chan rawMsg{}
	var progress atomic.Int32
	readLines(func(m rawMsg, line []byte) {
		switch {
		case m.Method == acpmcp.Method && m.ID == nil && strings.Contains(string(m.Params), `"notifications/progress"`):
			progress.Add(1)
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
			if mode == "stdio" {
				w.send(`{"jsonrpc":"2.0","id":`, string(m.ID), `,"result":{"protocolVersion":2,"capabilities":{"session":{"mcp":{"stdio":{}}}}}}`)
				return
			}
			w.send(`{"jsonrpc":"2.0","id":`, string(m.ID), `,"result":{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":`, caps, `}}}`)
		case m.Method == "session/new":
			var p struct{ MCPServers []json.RawMessage }
			json.Unmarshal(m.Params, &p)
			call := func(server json.RawMessage) string { return greetOverHTTP(server, &progress) }
			if mode == "list" {
				call = func(json.RawMessage) string { return "no call" }
			}
			if mode == "stdio" {
				call = func(server json.RawMessage) string { return greetOverStdio(server, &progress) }
			}
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
				w.send(`{"jsonrpc":"2.0","id":`, string(m.ID), `,"result":{"sessionId":"s1","mcpServers":`, string(servers), `,"said":`, string(text),
					`,"progress":`, fmt.Sprint(progress.Load()), `}}`)
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
// the Go MCP SDK's client, counting its progress notifications.
func greetOverHTTP(entry json.RawMessage, progress *atomic.Int32) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return greetOverHTTPContext(ctx, entry, progress)
}

// greetOverHTTPContext is greetOverHTTP within ctx.
func greetOverHTTPContext(ctx context.Context, entry json.RawMessage, progress *atomic.Int32) string {
	var s struct {
		Type, URL string
		Headers   []struct{ Name, Value string }
	}
	json.Unmarshal(entry, &s)
	if s.Type != "http" || len(s.Headers) != 1 {
		return "not an http server: " + string(entry)
	}
	return greet(ctx, &mcp.StreamableClientTransport{
		Endpoint:   s.URL,
		HTTPClient: &http.Client{Transport: headerTransport{s.Headers[0].Name, s.Headers[0].Value}},
	}, progress)
}

// greetOverStdio calls the tool greet of a "stdio" MCP server entry,
// running its command as an agent does, with the Go MCP SDK's client.
func greetOverStdio(entry json.RawMessage, progress *atomic.Int32) string {
	var s struct {
		Type, Command string
		Args          []string
		Env           []struct{ Name, Value string }
	}
	json.Unmarshal(entry, &s)
	if s.Type != "stdio" {
		return "not a stdio server: " + string(entry)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(s.Command, s.Args...)
	cmd.Env = os.Environ()
	for _, e := range s.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	return greet(ctx, &mcp.CommandTransport{Command: cmd}, progress)
}

// greet calls the tool greet over transport, counting its progress
// notifications.
func greet(ctx context.Context, transport mcp.Transport, progress *atomic.Int32) string {
	client := mcp.NewClient(&mcp.Implementation{Name: "url-agent", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { progress.Add(1) },
	})
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return "connect: " + err.Error()
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "agent"}}
	params.SetProgressToken("p")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return "call: " + err.Error()
	}
	// The client handles a notification apart from the response: its
	// progress may come a moment after the result.
	for deadline := time.Now().Add(5 * time.Second); progress.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
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
	params, _ := acpmcp.WithRequestMeta(json.RawMessage(`{"name":"greet","arguments":{"name":"agent"},"_meta":{"progressToken":"p"}}`),
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
