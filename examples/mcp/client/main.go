//go:build unstable_mcp_over_acp || unstable

package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/acpgen/acpgen/acpmcp/acpmcpv1"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	prompt := flag.String("prompt", "the quick brown fox", "the prompt to send")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: client [-prompt text] -- agent-command [args]")
		os.Exit(2)
	}
	if err := run(*prompt, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

// client prints the agent's messages; the embedded provider answers the
// agent's "mcp/message" requests.
type client struct {
	*acpmcpv1.Provider
}

func (client) RequestPermission(context.Context, *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return &acpv1.RequestPermissionResponse{Outcome: acpv1.NewRequestPermissionOutcomeCancelled()}, nil
}

func (client) SessionUpdate(_ context.Context, n *acpv1.SessionNotification) error {
	if c, ok := n.Update.Value.(*acpv1.SessionUpdateAgentMessageChunk); ok {
		if t, ok := c.Content.Value.(*acpv1.ContentBlockText); ok {
			fmt.Println(t.Text)
		}
	}
	return nil
}

// tools is the MCP server the client gives the agent.
func tools() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "editor-tools", Version: "1.0.0"}, nil)
	type args struct {
		Text string `json:"text" jsonschema:"the text whose words to count"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "word_count", Description: "Counts the words of a text."},
		func(_ context.Context, _ *mcp.CallToolRequest, a args) (*mcp.CallToolResult, any, error) {
			n := len(strings.Fields(a.Text))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(n)}}}, nil, nil
		})
	return s
}

func run(prompt string, command []string) error {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = os.Stderr
	toAgent, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	fromAgent, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	provider := acpmcpv1.NewProvider()
	conn := acpv1.NewClientSideConnection(client{provider}, toAgent, fromAgent)
	provider.Bind(conn)
	err = session(context.Background(), conn, provider, prompt)
	conn.Close()
	toAgent.Close()
	if waitErr := cmd.Wait(); err == nil && waitErr != nil {
		err = fmt.Errorf("agent: %w", waitErr)
	}
	return err
}

// session registers the tools, declares them in session/new and prompts.
func session(ctx context.Context, conn *acpv1.ClientSideConnection, provider *acpmcpv1.Provider, prompt string) error {
	init, err := conn.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1})
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	reg, err := provider.RegisterServer("editor-tools", tools(), nil)
	if err != nil {
		return err
	}
	// An error, not a silent drop, if the agent cannot take an acp server.
	servers, err := acpmcpv1.Declare(init.AgentCapabilities, reg)
	if err != nil {
		return err
	}
	s, err := conn.NewSession(ctx, &acpv1.NewSessionRequest{Cwd: "/", MCPServers: servers})
	if err != nil {
		return fmt.Errorf("session/new: %w", err)
	}
	r, err := conn.Prompt(ctx, &acpv1.PromptRequest{SessionID: s.SessionID, Prompt: []acpv1.ContentBlock{acpv1.NewContentBlockText(prompt)}})
	if err != nil {
		return fmt.Errorf("session/prompt: %w", err)
	}
	fmt.Println("stop:", r.StopReason)
	return nil
}
