//go:build unstable_mcp_over_acp || unstable

package composition

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acpgen/acpgen/acpmcp/acpmcpv1"
	"github.com/acpgen/acpgen/acpmcp/acpmcpv2"
	"github.com/acpgen/acpgen/acpotel"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// The phases of a cell: where the client cancels.
const (
	cancelBefore     = "before the prompt"
	cancelPermission = "during the permission"
	cancelTool       = "during the tool"
)

// behaviour is what the clients of both versions share: where the turn
// being prompted is cancelled, and what the client saw.
type behaviour struct {
	mu          sync.Mutex
	at          string // the phase that cancels, "" for none
	cancel      func()
	seen        map[string]int // the session updates and requests by kind
	toolStopped bool           // the tool's context ended after the cancel
	toolDone    chan struct{}  // closed when the tool that cancelled returns
}

// arm makes the next turn cancel at phase, with cancel.
func (b *behaviour) arm(phase string, cancel func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.at, b.cancel, b.seen, b.toolStopped, b.toolDone = phase, cancel, map[string]int{}, false, make(chan struct{})
}

// trigger cancels the turn when it is to be cancelled at phase.
func (b *behaviour) trigger(phase string) bool {
	b.mu.Lock()
	cancel := b.cancel
	hit := b.at == phase
	if hit {
		b.at = ""
	}
	b.mu.Unlock()
	if hit {
		cancel()
	}
	return hit
}

// stopped says whether the tool's context ended after the cancel, once
// the tool has returned (within 15 s).
func (b *behaviour) stopped() bool {
	b.mu.Lock()
	done := b.toolDone
	b.mu.Unlock()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.toolStopped
}

func (b *behaviour) saw(kind string) {
	b.mu.Lock()
	b.seen[kind]++
	b.mu.Unlock()
}

// saws returns the kinds seen, sorted by name, with their counts.
func (b *behaviour) saws() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return fmt.Sprint(b.seen)
}

func (b *behaviour) count(substr string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for k, v := range b.seen {
		if strings.Contains(k, substr) {
			n += v
		}
	}
	return n
}

// toolServer is the client's MCP server: word_count, which cancels the
// turn when armed so and then waits for its context to end (the agent's
// cancelled MCP call) before it answers.
func toolServer(b *behaviour) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "matrix-tools", Version: "1"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "word_count", Description: "counts words"}, func(ctx context.Context, _ *mcp.CallToolRequest, args in) (*mcp.CallToolResult, any, error) {
		b.saw("tool")
		if b.trigger(cancelTool) {
			b.mu.Lock()
			done := b.toolDone
			b.mu.Unlock()
			defer close(done)
			select {
			case <-ctx.Done():
				b.mu.Lock()
				b.toolStopped = true
				b.mu.Unlock()
			case <-time.After(10 * time.Second):
			}
		}
		n := len(strings.Fields(args.Text))
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(n)}}}, nil, nil
	})
	return s
}

// waitAnswered waits, as a user's dialog would, until the session's
// cancel has answered the permission request being served cancelled,
// which ends the handler's context; what the handler returns then is
// dropped.
func waitAnswered(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
	}
}

// session is a client's session with the matrix's agent, of either
// version.
type session interface {
	// cancelIdle sends the session's cancel while no turn runs.
	cancelIdle(ctx context.Context) error
	// prompt runs a turn, cancelled at phase, and returns its stop reason.
	prompt(ctx context.Context, phase string) (string, error)
	close()
}

// clientV1 is the v1 client: a v1 SessionRouter and MCP provider.
type clientV1 struct {
	acpv1.SessionRouter
	*acpmcpv1.Provider
	b *behaviour
}

func (c *clientV1) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	c.b.saw(fmt.Sprintf("%T", n.Update.Value))
	return c.SessionRouter.SessionUpdate(ctx, n)
}

func (c *clientV1) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	c.b.saw("permission")
	if c.b.trigger(cancelPermission) {
		waitAnswered(ctx)
		return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
	}
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected("allow")), nil
}

type sessionV1 struct {
	c    *clientV1
	conn *acpv1.ClientSideConnection
	s    *acpv1.ActiveSession
	reg  interface{ Close(context.Context) error }
}

// startV1 initializes a v1 connection over w and r, gives the agent the
// tool server and starts a session.
func startV1(ctx context.Context, w io.Writer, r io.Reader, mw acpotel.MiddlewareFunc, b *behaviour) (session, error) {
	c := &clientV1{Provider: acpmcpv1.NewProvider(), b: b}
	conn := acpv1.NewClientSideConnectionFunc(func(conn *acpv1.ClientSideConnection) acpv1.Client {
		c.Provider.Bind(conn)
		return c
	}, w, r, acpv1.WithMiddleware(mw))
	s := &sessionV1{c: c, conn: conn}
	init, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1))
	if err != nil {
		s.close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	reg, err := c.RegisterServer("tools", toolServer(b), nil)
	if err != nil {
		s.close()
		return nil, err
	}
	s.reg = reg
	servers, err := acpmcpv1.Declare(init.AgentCapabilities, reg)
	if err != nil {
		s.close()
		return nil, err
	}
	s.s, _, err = c.NewSession(ctx, conn, acpv1.NewNewSessionRequest("/", servers))
	if err != nil {
		s.close()
		return nil, fmt.Errorf("session/new: %w", err)
	}
	return s, nil
}

func (s *sessionV1) cancelIdle(ctx context.Context) error {
	return s.conn.Cancel(ctx, acpv1.NewCancelNotification(s.s.ID()))
}

func (s *sessionV1) prompt(ctx context.Context, phase string) (string, error) {
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.c.b.arm(phase, cancel)
	r, err := s.s.Prompt(pctx, []acpv1.ContentBlock{acpv1.NewContentBlockText("count the words")})
	if err != nil {
		return "", err
	}
	return string(r.StopReason), nil
}

func (s *sessionV1) close() {
	if s.reg != nil {
		s.reg.Close(context.Background())
	}
	if s.s != nil {
		s.s.Close()
	}
	s.conn.Close()
}

// clientV2 is the v2 client: a v2 SessionRouter and MCP provider.
type clientV2 struct {
	acpv2.SessionRouter
	*acpmcpv2.Provider
	b *behaviour
}

func (c *clientV2) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	c.b.saw(fmt.Sprintf("%T", n.Update.Value))
	return c.SessionRouter.UpdateSession(ctx, n)
}

func (c *clientV2) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	c.b.saw("permission")
	if c.b.trigger(cancelPermission) {
		waitAnswered(ctx)
		return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeCancelled()), nil
	}
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeSelected("allow")), nil
}

type sessionV2 struct {
	c    *clientV2
	conn *acpv2.ClientSideConnection
	s    *acpv2.ActiveSession
	reg  interface{ Close(context.Context) error }
}

// startV2 is startV1 for a v2 client.
func startV2(ctx context.Context, w io.Writer, r io.Reader, mw acpotel.MiddlewareFunc, b *behaviour) (session, error) {
	c := &clientV2{Provider: acpmcpv2.NewProvider(), b: b}
	conn := acpv2.NewClientSideConnectionFunc(func(conn *acpv2.ClientSideConnection) acpv2.Client {
		c.Provider.Bind(conn)
		return c
	}, w, r, acpv2.WithMiddleware(mw))
	s := &sessionV2{c: c, conn: conn}
	init, err := conn.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "matrix-client", Version: "1"}))
	if err != nil {
		s.close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	reg, err := c.RegisterServer("tools", toolServer(b), nil)
	if err != nil {
		s.close()
		return nil, err
	}
	s.reg = reg
	servers, err := acpmcpv2.Declare(init.Capabilities, reg)
	if err != nil {
		s.close()
		return nil, err
	}
	req := acpv2.NewNewSessionRequest("/")
	req.MCPServers = servers
	s.s, _, err = c.NewSession(ctx, conn, req)
	if err != nil {
		s.close()
		return nil, fmt.Errorf("session/new: %w", err)
	}
	return s, nil
}

func (s *sessionV2) cancelIdle(ctx context.Context) error {
	_, err := s.s.Cancel(ctx)
	return err
}

// prompt sends the prompt, which the agent answers at once, and reads the
// session's events up to the turn's idle state update.
func (s *sessionV2) prompt(ctx context.Context, phase string) (string, error) {
	s.c.b.arm(phase, func() { s.s.Cancel(context.WithoutCancel(ctx)) })
	if _, err := s.s.Prompt(ctx, []acpv2.ContentBlock{acpv2.NewContentBlockText("count the words")}); err != nil {
		return "", err
	}
	for {
		e, err := s.s.Next(ctx)
		if err != nil {
			return "", err
		}
		if u, ok := e.Notification.Update.Value.(*acpv2.SessionUpdateStateUpdate); ok {
			if idle, ok := u.Value.(*acpv2.StateUpdateIdle); ok {
				return idle.StopReason(), nil
			}
		}
	}
}

func (s *sessionV2) close() {
	if s.reg != nil {
		s.reg.Close(context.Background())
	}
	if s.s != nil {
		s.s.Close()
	}
	s.conn.Close()
}
