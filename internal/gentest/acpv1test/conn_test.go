package acpv1test

import (
	"context"
	"io"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/conntest"
)

// testAgent and testClient hand their methods to the shared tests' handlers.
type testAgent struct{ h *conntest.Handlers }

func (a *testAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return conntest.Serve[acpv1.InitializeResponse](ctx, a.h, acpv1.MethodInitialize, p)
}

func (a *testAgent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return conntest.Serve[acpv1.NewSessionResponse](ctx, a.h, acpv1.MethodNewSession, p)
}

func (a *testAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	return conntest.Serve[acpv1.PromptResponse](ctx, a.h, acpv1.MethodPrompt, p)
}

func (a *testAgent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error {
	return conntest.Handle(ctx, a.h, acpv1.MethodCancel, p)
}

type testClient struct{ h *conntest.Handlers }

func (c *testClient) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	return conntest.Handle(ctx, c.h, acpv1.MethodSessionUpdate, n)
}

func (c *testClient) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return conntest.Serve[acpv1.RequestPermissionResponse](ctx, c.h, acpv1.MethodRequestPermission, p)
}

// testPackage drives the shared connection tests.
var testPackage = &conntest.Package{
	Version: "v1",
	Agent: func(h *conntest.Handlers, w io.Writer, r io.Reader, o conntest.Options) (conntest.Conn, map[string]conntest.Call) {
		var agent acpv1.Agent = &testAgent{h}
		if h.Ext {
			agent = &struct {
				testAgent
				conntest.Ext
			}{testAgent{h}, conntest.Ext{H: h}}
		}
		c := acpv1.NewAgentSideConnection(agent, w, r, options(o)...)
		return c, map[string]conntest.Call{
			acpv1.MethodSessionUpdate:     conntest.Notification(c.SessionUpdate),
			acpv1.MethodRequestPermission: conntest.Request(c.RequestPermission),
		}
	},
	Client: func(h *conntest.Handlers, w io.Writer, r io.Reader, o conntest.Options) (conntest.Conn, map[string]conntest.Call) {
		c := acpv1.NewClientSideConnection(&testClient{h}, w, r, options(o)...)
		return c, map[string]conntest.Call{
			acpv1.MethodInitialize: conntest.Request(c.Initialize),
			acpv1.MethodNewSession: conntest.Request(c.NewSession),
			acpv1.MethodPrompt:     conntest.Request(c.Prompt),
			acpv1.MethodCancel:     conntest.Notification(c.Cancel),
		}
	},
	InitializeParams: `{"protocolVersion":1}`,
	InitializeResult: `{"protocolVersion":1,"authMethods":[]}`,
	PromptResult:     `{"stopReason":"end_turn"}`,
	PermissionParams: `{"sessionId":%q,"toolCall":{"toolCallId":"c"},"options":[]}`,
	NotFound:         func(uri string) error { return acpv1.NewResourceNotFoundError(uri) },
	IsCode:           conntest.HasCode,
}

// options are the options of a connection under test.
func options(o conntest.Options) []acpv1.ConnOption {
	var limits acpv1.Limits
	conntest.SetLimits(o, &limits)
	opts := []acpv1.ConnOption{acpv1.WithLimits(limits)}
	if o.Logger != nil {
		opts = append(opts, acpv1.WithLogger(o.Logger))
	}
	return opts
}

// TestConn runs the connection tests of internal/conntest.
func TestConn(t *testing.T) { conntest.Run(t, testPackage, acpv1.ErrConnectionClosed) }

// TestConnIDs: requests are told apart by their ids as received; in v1, a
// request with id null is answered with id null.
func TestConnIDs(t *testing.T) {
	conntest.IDs(t, testPackage, `{"jsonrpc":"2.0","id":null,"result":{"sessionId":"s-/"}}`)
}

// TestConnInitGate: before initialize, every request is refused as the
// TypeScript SDK's v1 agents refuse it, and notifications are handled.
func TestConnInitGate(t *testing.T) {
	refused := func(id, method string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"Invalid request: ACP connection must be initialized before '` + method + `'"}}`
	}
	conntest.InitGate(t, testPackage, true, []conntest.Line{
		{`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, refused("1", "session/new")},
		{`{"jsonrpc":"2.0","id":"x","method":"no/such"}`, refused(`"x"`, "no/such")},
		{`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":7}}`, refused("2", "session/prompt")},
		{`{"jsonrpc":"2.0","id":3,"method":"_ext/x","params":{}}`, refused("3", "_ext/x")},
		{`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"early"}}`, ``},
		// An initialize answered with an error leaves the agent uninitialized.
		{`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{}}`, `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params","data":{"details":"json: cannot unmarshal object without \"protocolVersion\" into Go struct field .protocolVersion of type acpv1.InitializeRequest","path":"protocolVersion"}}}`},
		{`{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, refused("5", "session/new")},
	}, []conntest.Line{
		{`{"jsonrpc":"2.0","id":6,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, `{"jsonrpc":"2.0","id":6,"result":{"sessionId":"s-/"}}`},
		// v1 lets initialize be repeated at any time.
		{`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":1}}`, `{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":1,"authMethods":[]}}`},
	})
}

// TestConnInitGateMatchesTypeScript: before initialize, this package's
// agent and one of the TypeScript SDK answer alike.
func TestConnInitGateMatchesTypeScript(t *testing.T) {
	refused := func(id, method string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"Invalid request: ACP connection must be initialized before '` + method + `'"}}`
	}
	conntest.MatchesTypeScript(t, testPackage, "agent.mjs", []conntest.Line{
		{`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, refused("1", "session/new")},
		{`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"x"}}`, ``},
		{`{"jsonrpc":"2.0","id":"u","method":"no/such","params":{}}`, refused(`"u"`, "no/such")},
		{`{"jsonrpc":"2.0","id":2,"method":"initialize","params":` + testPackage.InitializeParams + `}`, `{"jsonrpc":"2.0","id":2,"result":` + testPackage.InitializeResult + `}`},
	})
}
