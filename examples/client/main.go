// Command client runs an ACP v1 agent as a subprocess (with package
// acplaunch), or connects to one over the network (see connect.go), and
// sends it one prompt, as an example of acpv1's ClientSideConnection:
//
//	client -prompt TEXT -- CMD ARGS...
//	client -prompt TEXT -connect URL
//
// It initializes the agent, opens a session in the working directory, sends
// TEXT as one text block, prints the text of each agent message chunk on a
// line of its own and a line for each plan an update changes ("plan ID:
// items N", "plan ID: markdown", "plan ID: file URI", "plan ID: removed"),
// allows the tool calls the agent asks permission for (the first allow_once
// or allow_always option), and prints "stop: REASON" when the turn ends.
// Built with -tags unstable_plan_operations, it advertises the plan client
// capability, and so also reads plan_update and plan_removed. Any error goes
// to stderr with a non-zero exit status.
//
// The agent runs in a process group of its own, its standard error goes to
// the client's, and the client gives it 10 s to answer initialize. When the
// turn ends, fails, or the client is interrupted (SIGINT or SIGTERM), the
// client closes the agent's input, waits 1 s, sends SIGTERM to the agent's
// group, waits 2 s and sends SIGKILL: it returns within about 3 s however
// the agent behaves, and leaves no process of it behind.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/acpgen/acpgen/acplaunch"
	"github.com/acpgen/acpgen/examples/internal/wirelog"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// wire is the wire log of -wire-log and $ACP_WIRE_LOG.
var wire = wirelog.Flags("client")

func main() {
	prompt := flag.String("prompt", "", "the text to send the agent")
	url := flag.String("connect", "", "connect to the agent at `URL`, http://… (Streamable HTTP) or ws://… (WebSocket), instead of running one")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: client -prompt TEXT -- CMD ARGS...\n       client -prompt TEXT -connect URL")
		flag.PrintDefaults()
	}
	flag.Parse()
	if (flag.NArg() == 0) == (*url == "") {
		flag.Usage()
		os.Exit(2)
	}
	run := func() error { return run(*prompt, flag.Args()) }
	if *url != "" {
		run = func() error { return connect(*prompt, *url) }
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

// startTimeout bounds the agent's start, until it has answered initialize.
const startTimeout = 10 * time.Second

func run(prompt string, command []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	agent, err := acplaunch.StartV1(start, exec.Command(command[0], command[1:]...), client{}, initializeRequest(), &acplaunch.Options{V1: []acpv1.ConnOption{wire.V1()}})
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	reason, err := session(ctx, agent.ClientSideConnection, prompt)
	if closeErr := agent.Close(); err == nil && closeErr != nil {
		err = fmt.Errorf("agent: %w", closeErr)
	}
	if err != nil {
		return err
	}
	fmt.Println("stop:", reason)
	return nil
}

// session opens a session in the working directory, runs the prompt turn
// and returns its stop reason.
func session(ctx context.Context, conn *acpv1.ClientSideConnection, prompt string) (acpv1.StopReason, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	s, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest(cwd, []acpv1.MCPServer{}))
	if err != nil {
		return "", fmt.Errorf("session/new: %w", err)
	}
	r, err := conn.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText(prompt)}))
	if err != nil {
		return "", fmt.Errorf("session/prompt: %w", err)
	}
	return r.StopReason, nil
}

type client struct{}

// SessionUpdate prints the text of agent message chunks, and a line for
// each plan an update changes. Notifications are handled in order, and
// before the response that follows them.
func (client) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	if c, ok := n.Update.Value.(*acpv1.SessionUpdateAgentMessageChunk); ok {
		if t, ok := c.Content.Value.(*acpv1.ContentBlockText); ok {
			fmt.Println(t.Text)
		}
	}
	printPlans(n)
	return nil
}

// RequestPermission picks the first option that allows the tool call, or
// answers cancelled when there is none.
func (client) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	for _, o := range p.Options {
		if o.Kind == acpv1.PermissionOptionKindAllowOnce || o.Kind == acpv1.PermissionOptionKindAllowAlways {
			return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected(o.OptionID)), nil
		}
	}
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}
