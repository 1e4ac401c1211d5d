package acpv2test

import (
	"context"
	"io"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/conntest"
)

// testAgent and testClient hand their methods to the shared tests' handlers.
type testAgent struct{ h *conntest.Handlers }

func (a *testAgent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return conntest.Serve[acpv2.InitializeResponse](ctx, a.h, acpv2.MethodInitialize, p)
}

func (a *testAgent) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return conntest.Serve[acpv2.NewSessionResponse](ctx, a.h, acpv2.MethodNewSession, p)
}

func (a *testAgent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	return conntest.Serve[acpv2.PromptResponse](ctx, a.h, acpv2.MethodPrompt, p)
}

func (a *testAgent) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	return conntest.Handle(ctx, a.h, acpv2.MethodCancelSession, p)
}

type testClient struct{ h *conntest.Handlers }

func (c *testClient) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	return conntest.Handle(ctx, c.h, acpv2.MethodUpdateSession, n)
}

func (c *testClient) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return conntest.Serve[acpv2.RequestPermissionResponse](ctx, c.h, acpv2.MethodRequestPermission, p)
}

// testPackage drives the shared connection tests.
var testPackage = &conntest.Package{
	Version: "v2",
	Agent: func(h *conntest.Handlers, w io.Writer, r io.Reader, o conntest.Options) (conntest.Conn, map[string]conntest.Call) {
		var agent acpv2.Agent = &testAgent{h}
		if h.Ext {
			agent = &struct {
				testAgent
				conntest.Ext
			}{testAgent{h}, conntest.Ext{H: h}}
		}
		c := acpv2.NewAgentSideConnection(agent, w, r, options(o)...)
		return c, map[string]conntest.Call{
			acpv2.MethodUpdateSession:     conntest.Notification(c.UpdateSession),
			acpv2.MethodRequestPermission: conntest.Request(c.RequestPermission),
		}
	},
	Client: func(h *conntest.Handlers, w io.Writer, r io.Reader, o conntest.Options) (conntest.Conn, map[string]conntest.Call) {
		c := acpv2.NewClientSideConnection(&testClient{h}, w, r, options(o)...)
		return c, map[string]conntest.Call{
			acpv2.MethodInitialize:    conntest.Request(c.Initialize),
			acpv2.MethodNewSession:    conntest.Request(c.NewSession),
			acpv2.MethodPrompt:        conntest.Request(c.Prompt),
			acpv2.MethodCancelSession: conntest.Notification(c.CancelSession),
		}
	},
	InitializeParams: `{"protocolVersion":2,"info":{"name":"c","version":"1"}}`,
	InitializeResult: `{"protocolVersion":2,"info":{"name":"a","version":"1"},"authMethods":[]}`,
	PromptResult:     `{"messageId":"m"}`,
	PermissionParams: `{"sessionId":%q,"title":"t","options":[{"optionId":"o","name":"Allow","kind":"allow_once"}]}`,
	NotFound:         func(uri string) error { return acpv2.NewResourceNotFoundError(uri) },
	IsCode:           conntest.HasCode,
}

// options are the options of a connection under test.
func options(o conntest.Options) []acpv2.ConnOption {
	var limits acpv2.Limits
	conntest.SetLimits(o, &limits)
	opts := []acpv2.ConnOption{acpv2.WithLimits(limits)}
	if o.Logger != nil {
		opts = append(opts, acpv2.WithLogger(o.Logger))
	}
	return opts
}

// TestConn runs the connection tests of internal/conntest.
func TestConn(t *testing.T) { conntest.Run(t, testPackage, acpv2.ErrConnectionClosed) }

// TestConnIDs: requests are told apart by their ids as received; in v2, a
// request with id null is answered -32600, as the schema allows no null id.
func TestConnIDs(t *testing.T) {
	conntest.IDs(t, testPackage, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request","data":{"details":"the id is null"}}}`)
}

// TestConnInitGate: before initialize, every request is refused and every
// notification dropped, as the TypeScript SDK's v2 agents do; initialize
// is refused while one is served and once other requests came.
func TestConnInitGate(t *testing.T) {
	refused := func(id, data string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"Invalid request","data":"` + data + `"}}`
	}
	before := func(method string) string { return "ACP v2 connection must be initialized before '" + method + "'" }
	conntest.InitGate(t, testPackage, false, []conntest.Line{
		{`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/"}}`, refused("1", before("session/new"))},
		{`{"jsonrpc":"2.0","id":"x","method":"no/such"}`, refused(`"x"`, before("no/such"))},
		{`{"jsonrpc":"2.0","id":3,"method":"_ext/x","params":{}}`, refused("3", before("_ext/x"))},
		{`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"early"}}`, ``},
		{`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`, ``},
		// An initialize answered with an error leaves the agent uninitialized.
		{`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":2}}`, `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params","data":{"details":"json: cannot unmarshal object without \"info\" into Go struct field .info of type acpv2.InitializeRequest","path":"info"}}}`},
		{`{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"/"}}`, refused("5", before("session/new"))},
	}, []conntest.Line{
		// initialize may be repeated until another request comes.
		{`{"jsonrpc":"2.0","id":6,"method":"initialize","params":` + testPackage.InitializeParams + `}`, `{"jsonrpc":"2.0","id":6,"result":` + testPackage.InitializeResult + `}`},
		{`{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"/"}}`, `{"jsonrpc":"2.0","id":7,"result":{"sessionId":"s-/"}}`},
		{`{"jsonrpc":"2.0","id":8,"method":"initialize","params":` + testPackage.InitializeParams + `}`, refused("8", "ACP v2 initialize must not be repeated after other requests")},
	})
}

// TestConnInitGateMatchesTypeScript: before initialize, this package's
// agent and one of the TypeScript SDK's v2 API answer alike.
func TestConnInitGateMatchesTypeScript(t *testing.T) {
	refused := func(id, method string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"Invalid request","data":"ACP v2 connection must be initialized before '` + method + `'"}}`
	}
	conntest.MatchesTypeScript(t, testPackage, "agent_v2.mjs", []conntest.Line{
		{`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/"}}`, refused("1", "session/new")},
		{`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"x"}}`, ``},
		{`{"jsonrpc":"2.0","id":"u","method":"no/such","params":{}}`, refused(`"u"`, "no/such")},
		{`{"jsonrpc":"2.0","id":2,"method":"initialize","params":` + testPackage.InitializeParams + `}`, `{"jsonrpc":"2.0","id":2,"result":` + testPackage.InitializeResult + `}`},
		{`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/"}}`, `any`},
		{`{"jsonrpc":"2.0","id":4,"method":"initialize","params":` + testPackage.InitializeParams + `}`,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid request","data":"ACP v2 initialize must not be repeated after other requests"}}`},
	})
}
