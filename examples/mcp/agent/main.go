//go:build unstable_mcp_over_acp || unstable

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/acpgen/acpgen/acpmcp/acpmcpv1"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// agent serves one client; the embedded caller receives the "mcp/message"
// notifications of the requests it sends.
type agent struct {
	*acpmcpv1.Caller
	conn *acpv1.AgentSideConnection

	mu      sync.Mutex
	servers map[acpv1.SessionID][]acpv1.MCPServerACP
}

func (a *agent) Initialize(context.Context, *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	caps := &acpv1.AgentCapabilities{}
	acpmcpv1.Advertise(caps) // mcpCapabilities.acp: this agent takes acp servers
	return &acpv1.InitializeResponse{ProtocolVersion: 1, AgentCapabilities: caps}, nil
}

func (a *agent) NewSession(_ context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id := acpv1.SessionID(fmt.Sprintf("session-%d", len(a.servers)+1))
	a.servers[id] = acpmcpv1.ACPServers(p.MCPServers)
	return &acpv1.NewSessionResponse{SessionID: id}, nil
}

func (*agent) Cancel(context.Context, *acpv1.CancelNotification) error { return nil }

func (a *agent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	a.mu.Lock()
	servers := a.servers[p.SessionID]
	a.mu.Unlock()
	if len(servers) == 0 {
		return nil, errors.New("the client declared no acp MCP server")
	}
	var text string
	for _, b := range p.Prompt {
		if t, ok := b.Value.(*acpv1.ContentBlockText); ok {
			text += t.Text
		}
	}
	// A stock MCP client, over the ACP connection.
	client := mcp.NewClient(&mcp.Implementation{Name: "example-agent", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, a.Transport(string(servers[0].ServerID)), nil)
	if err != nil {
		return nil, err
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "word_count", Arguments: map[string]any{"text": text}})
	if err != nil {
		return nil, err
	}
	answer := "word_count says: " + res.Content[0].(*mcp.TextContent).Text
	update := acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText(answer))
	if err := a.conn.SessionUpdate(ctx, &acpv1.SessionNotification{SessionID: p.SessionID, Update: update}); err != nil {
		return nil, err
	}
	return &acpv1.PromptResponse{StopReason: acpv1.StopReasonEndTurn}, nil
}

func main() {
	conn := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		a := &agent{conn: c, Caller: acpmcpv1.NewCaller(nil), servers: map[acpv1.SessionID][]acpv1.MCPServerACP{}}
		a.Bind(c)
		return a
	}, os.Stdout, os.Stdin)
	<-conn.Done()
	// The client closing its end is the normal close; anything else failed.
	if err := conn.Err(); !errors.Is(err, acpv1.ErrPeerClosed) {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
}
