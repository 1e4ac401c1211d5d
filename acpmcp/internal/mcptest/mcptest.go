//go:build unstable_mcp_over_acp || unstable

package mcptest

import (
	"context"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Pair is a client whose connection carries a Provider and an agent whose
// connection carries a Caller, of one protocol version, connected so that
// Caller's requests reach Provider.
type Pair struct {
	Provider *acpmcp.Provider
	Caller   *acpmcp.Caller
	// Cut ends the transport under both connections, as when the peer's
	// process exits.
	Cut func()
	// Caps is the version's capability checks over the pair.
	Caps Caps
}

// suite lists the tests Run runs, each on a pair of its own.
var suite = []struct {
	name string
	run  func(t *testing.T, p *Pair)
}{
	{"UnknownServer", testUnknownServer},
	{"LimitAndDuplicate", testLimitAndDuplicate},
	{"CallerCancels", testCallerCancels},
	{"MCPClientCancels", testMCPClientCancels},
	{"ServerNeverAnswers", testServerNeverAnswers},
	{"ConnectionClosesMidRequest", testConnectionClosesMidRequest},
	{"RegistrationClose", testRegistrationClose},
	{"HandlerFailures", testHandlerFailures},
	{"InnerMetaAndNotifications", testInnerMetaAndNotifications},
	{"ProgressThroughMCPClient", testProgressThroughMCPClient},
	{"ListAndCallTool", testListAndCallTool},
	{"DeclareAndCapabilities", testDeclareAndCapabilities},
}

// Run runs every test of the suite as a subtest of t, each on a pair that
// newPair connects; newPair closes both connections at the end of the
// subtest and calls [CheckGoroutines] first.
func Run(t *testing.T, newPair func(t *testing.T) *Pair) {
	for _, tc := range suite {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newPair(t)) })
	}
}

// Connect connects an MCP client to the declared server id through the
// caller; the session is closed at the end of the test.
func (p *Pair) Connect(t *testing.T, id string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, p.Caller.Transport(id), nil)
	if err != nil {
		t.Fatalf("connecting the MCP client: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// CheckGoroutines fails the test when, at its end, more goroutines run than
// at its start (after a grace period for the ones ending).
func CheckGoroutines(t *testing.T) {
	t.Helper()
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

// EchoServer is a Go MCP SDK server with one tool, "echo", which reports
// its progress when asked to.
func EchoServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo-server", Version: "1"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes text"}, func(ctx context.Context, req *mcp.CallToolRequest, args in) (*mcp.CallToolResult, any, error) {
		if token := req.Params.GetProgressToken(); token != nil {
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: 1, Total: 1}); err != nil {
				return nil, nil, err
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + args.Text}}}, nil, nil
	})
	return s
}

// CallerOptions are the options of the callers of a pair: the agent names
// itself test-agent, as the suite expects.
func CallerOptions() *acpmcp.CallerOptions {
	return &acpmcp.CallerOptions{ClientInfo: map[string]string{"name": "test-agent", "version": "1"}}
}

// Pipes are the transport of a pair: the client reads ClientR and writes
// ClientW, the agent reads AgentR and writes AgentW.
type Pipes struct {
	ClientR, AgentR *io.PipeReader
	ClientW, AgentW *io.PipeWriter
}

// NewPipes returns a client's and an agent's ends, connected.
func NewPipes() *Pipes {
	p := &Pipes{}
	p.ClientR, p.AgentW = io.Pipe()
	p.AgentR, p.ClientW = io.Pipe()
	return p
}

// Cut closes both writers, as when the peer's process exits.
func (p *Pipes) Cut() { p.AgentW.Close(); p.ClientW.Close() }

// A Conn is a connection of a generated package.
type Conn interface {
	Close() error
	Done() <-chan struct{}
}

// CloseAtEnd closes conns at the end of the test and waits until each has
// ended.
func CloseAtEnd(t *testing.T, conns ...Conn) {
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
		for _, c := range conns {
			<-c.Done()
		}
	})
}
