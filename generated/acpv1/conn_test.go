package acpv1

import (
	"context"
	"io"
	"testing"

	"github.com/acpgen/acpgen/internal/conntest"
)

// testAgent and testClient hand their methods to the shared tests' handlers.
type testAgent struct{ h *conntest.Handlers }

func (a *testAgent) Initialize(ctx context.Context, p *InitializeRequest) (*InitializeResponse, error) {
	return conntest.Serve[InitializeResponse](ctx, a.h, MethodInitialize, p)
}

func (a *testAgent) NewSession(ctx context.Context, p *NewSessionRequest) (*NewSessionResponse, error) {
	return conntest.Serve[NewSessionResponse](ctx, a.h, MethodNewSession, p)
}

func (a *testAgent) Prompt(ctx context.Context, p *PromptRequest) (*PromptResponse, error) {
	return conntest.Serve[PromptResponse](ctx, a.h, MethodPrompt, p)
}

func (a *testAgent) Cancel(ctx context.Context, p *CancelNotification) error {
	return conntest.Handle(ctx, a.h, MethodCancel, p)
}

type testClient struct{ h *conntest.Handlers }

func (c *testClient) SessionUpdate(ctx context.Context, n *SessionNotification) error {
	return conntest.Handle(ctx, c.h, MethodSessionUpdate, n)
}

func (c *testClient) RequestPermission(ctx context.Context, p *RequestPermissionRequest) (*RequestPermissionResponse, error) {
	return conntest.Serve[RequestPermissionResponse](ctx, c.h, MethodRequestPermission, p)
}

// testPackage drives the shared connection tests.
var testPackage = &conntest.Package{
	Version: "v1",
	Agent: func(h *conntest.Handlers, w io.Writer, r io.Reader, o conntest.Options) (conntest.Conn, map[string]conntest.Call) {
		var agent Agent = &testAgent{h}
		if h.Ext {
			agent = &struct {
				testAgent
				conntest.Ext
			}{testAgent{h}, conntest.Ext{H: h}}
		}
		c := NewAgentSideConnection(agent, w, r, options(o)...)
		return c, map[string]conntest.Call{
			MethodSessionUpdate:     conntest.Notification(c.SessionUpdate),
			MethodRequestPermission: conntest.Request(c.RequestPermission),
		}
	},
	Client: func(h *conntest.Handlers, w io.Writer, r io.Reader, o conntest.Options) (conntest.Conn, map[string]conntest.Call) {
		c := NewClientSideConnection(&testClient{h}, w, r, options(o)...)
		return c, map[string]conntest.Call{
			MethodInitialize: conntest.Request(c.Initialize),
			MethodNewSession: conntest.Request(c.NewSession),
			MethodPrompt:     conntest.Request(c.Prompt),
			MethodCancel:     conntest.Notification(c.Cancel),
		}
	},
	InitializeParams: `{"protocolVersion":1}`,
	InitializeResult: `{"protocolVersion":1,"authMethods":[]}`,
	PromptResult:     `{"stopReason":"end_turn"}`,
	PermissionParams: `{"sessionId":%q,"toolCall":{"toolCallId":"c"},"options":[]}`,
	NotFound:         func(uri string) error { return NewResourceNotFoundError(uri) },
	IsCode:           conntest.HasCode,
}

// options are the options of a connection under test.
func options(o conntest.Options) []ConnOption {
	var limits Limits
	conntest.SetLimits(o, &limits)
	opts := []ConnOption{WithLimits(limits)}
	if o.Logger != nil {
		opts = append(opts, WithLogger(o.Logger))
	}
	return opts
}

// TestConn runs the connection tests of internal/conntest.
func TestConn(t *testing.T) { conntest.Run(t, testPackage, ErrConnectionClosed) }

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

// FuzzParseLine checks that no line makes the envelope reader panic, and
// that what it accepts is a message of one kind.
func FuzzParseLine(f *testing.F) {
	conntest.FuzzLine(f, func(line []byte) (code int, m conntest.LineMessage) {
		lm, err := parseLine(line, defaultMaxIDLength, nil)
		if err != nil {
			return int(err.Code), m
		}
		return 0, conntest.LineMessage{Empty: lm.empty, Method: lm.method, ID: lm.id, Params: lm.params.raw}
	})
}

// FuzzParseCommon checks that the fast reading of the lines in the common
// layout makes of them what the reading of any line does.
func FuzzParseCommon(f *testing.F) {
	var calls callTracker
	calls.track(1, newPendingCall(MethodInitialize))
	type parsed struct {
		m   lineMessage
		err *Error
	}
	conntest.FuzzCommonLayout(f, func(line []byte, fast bool) (bool, any) {
		if fast {
			m, ok := parseCommon(line, defaultMaxIDLength, &calls)
			return ok, parsed{m: m}
		}
		m, err := parseMembers(line, defaultMaxIDLength, &calls)
		return true, parsed{m, err}
	})
}
