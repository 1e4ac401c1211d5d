//go:build unstable_mcp_over_acp || unstable

package composition

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acpgen/acpgen/acpmcp/acpmcpv2"
	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// The environment of the agent process of the stdio cells: the mode, and
// the file its spans go to when its connection has ended.
const (
	modeEnv  = "COMPOSITION_AGENT"
	spansEnv = "COMPOSITION_SPANS"
)

// agent is the one agent of the matrix: a v2 TurnRunner whose turn sends
// a plan, asks permission for its tool call, and calls the tool the client
// gives it over MCP over ACP.
type agent struct {
	*acpv2.TurnRunner
	caller *acpmcpv2.Caller

	mu      sync.Mutex
	servers map[acpv2.SessionID]string // the client's MCP server of each session
}

func newAgent(c *acpv2.AgentSideConnection) *agent {
	a := &agent{caller: acpmcpv2.NewCaller(nil), servers: map[acpv2.SessionID]string{}}
	a.caller.Bind(c)
	a.TurnRunner = acpv2.NewTurnRunner(c, a.turn, nil)
	return a
}

func (a *agent) Initialize(context.Context, *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	r := acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "matrix-agent", Version: "1"})
	r.Capabilities = &acpv2.AgentCapabilities{Session: &acpv2.SessionCapabilities{}}
	acpmcpv2.Advertise(r.Capabilities)
	return r, nil
}

// MessageMCP receives the MCP messages of the client's servers.
func (a *agent) MessageMCP(ctx context.Context, p *acpv2.MessageMCPNotification) error {
	return a.caller.MessageMCP(ctx, p)
}

// NewSession keeps the session's MCP-over-ACP server for its turns.
func (a *agent) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	r, err := a.TurnRunner.NewSession(ctx, p)
	if err == nil {
		if acp := acpmcpv2.ACPServers(p.MCPServers); len(acp) == 1 {
			a.mu.Lock()
			a.servers[r.SessionID] = string(acp[0].ServerID)
			a.mu.Unlock()
		}
	}
	return r, err
}

// turn sends a plan, asks permission, and with it calls the client's
// word_count tool, reporting the tool call; a cancelled turn stops where
// the cancel finds it.
func (a *agent) turn(ctx context.Context, t *acpv2.Turn) error {
	plan := []acpv2.PlanEntry{{Content: "count the words", Priority: acpv2.PlanEntryPriorityHigh, Status: acpv2.PlanEntryStatusInProgress}}
	if err := t.Update(ctx, acpv2.UpdatePlan("plan", plan)); err != nil {
		return err
	}
	answer, err := t.RequestPermission(ctx, acpv2.NewRequestPermissionRequest(t.SessionID(), "count the words", []acpv2.PermissionOption{
		{OptionID: "allow", Name: "Allow", Kind: acpv2.PermissionOptionKindAllowOnce},
	}))
	if err != nil {
		return err
	}
	if _, ok := answer.Outcome.Value.(*acpv2.RequestPermissionOutcomeSelected); !ok || t.Cancelled() {
		return nil
	}
	if err := t.Update(ctx, acpv2.StartToolCall("call_1", "word_count", acpv2.ToolKindOther)); err != nil {
		return err
	}
	text, err := a.callTool(ctx, t.SessionID())
	status := acpv2.ToolCallStatusCompleted
	if err != nil {
		status = acpv2.ToolCallStatusFailed
	}
	// The tool call's end goes out after a cancel too.
	end := acpv2.ToolCallUpdate{ToolCallID: "call_1", Status: acpv2.Some(status)}
	if err := t.Update(context.WithoutCancel(ctx), acpv2.NewSessionUpdateToolCallUpdate(end)); err != nil || t.Cancelled() {
		return err
	}
	return t.Say(ctx, "words: "+text)
}

// callTool calls word_count on the session's MCP server.
func (a *agent) callTool(ctx context.Context, id acpv2.SessionID) (string, error) {
	a.mu.Lock()
	server := a.servers[id]
	a.mu.Unlock()
	client := mcp.NewClient(&mcp.Implementation{Name: "matrix-agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, a.caller.Transport(server), nil)
	if err != nil {
		return "", err
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "word_count", Arguments: map[string]any{"text": "one two three"}})
	if err != nil {
		return "", err
	}
	return res.Content[0].(*mcp.TextContent).Text, nil
}

// newRouter returns the router of the matrix's agent: a v2 client gets
// the agent, a v1 client the same agent through convert.Bridge; mw traces
// the agent's side of every call.
func newRouter(mw acpv2.Middleware) (*acprouter.Router, error) {
	return acprouter.New(
		acprouter.NewRoute(1, func(w io.Writer, r io.Reader) acprouter.Conn {
			var a *agent
			b := convert.NewBridgeFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
				a = newAgent(c)
				return a
			}, w, r, convert.BridgeOptions{Middleware: []acpv2.Middleware{mw}})
			return withTurns(b.V1(), func() {
				if a != nil {
					a.Wait()
				}
			})
		}, convert.InitializeForV1),
		acprouter.NewRoute(2, func(w io.Writer, r io.Reader) acprouter.Conn {
			var a *agent
			c := acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
				a = newAgent(c)
				return a
			}, w, r, acpv2.WithMiddleware(mw))
			return withTurns(c, func() {
				if a != nil {
					a.Wait()
				}
			})
		}, convert.InitializeForV2))
}

// turnsConn is a connection that is done once its agent's turns have
// ended too.
type turnsConn struct {
	conn interface {
		acprouter.Conn
		Close() error
	}
	done chan struct{}
}

func withTurns(conn interface {
	acprouter.Conn
	Close() error
}, wait func()) *turnsConn {
	t := &turnsConn{conn: conn, done: make(chan struct{})}
	go func() {
		defer close(t.done)
		<-conn.Done()
		wait()
	}()
	return t
}

func (t *turnsConn) Done() <-chan struct{} { return t.done }
func (t *turnsConn) Close() error          { return t.conn.Close() }

// playAgent is the agent process of the stdio cells: the router on its
// standard input and output, its spans written to $COMPOSITION_SPANS as
// JSON once the client has closed the connection.
func playAgent() {
	tel := newTelemetry("agent")
	router, err := newRouter(tel.middleware())
	if err != nil {
		panic(err)
	}
	conn, err := router.Serve(os.Stdout, os.Stdin)
	if err != nil {
		panic(err)
	}
	<-conn.Done()
	data, err := json.Marshal(tel.spans())
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile(os.Getenv(spansEnv), data, 0o644); err != nil {
		panic(err)
	}
}
