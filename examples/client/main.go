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
// to stderr with a non-zero exit status; an agent that exits is named with
// its exit status and the last lines of its standard error.
//
// It advertises and serves the agent's file requests, confined to its
// working directory, and terminals, with package acpclient (see duties.go),
// and prints on stderr each message of the agent that the connection drops
// ("client: dropped session/update: REASON", from acpv1.WithDropHandler).
//
// SIGINT or SIGTERM during the turn cancels it: the context of the
// session's Prompt ends, and the ActiveSession sends session/cancel,
// answers the turn's permission requests "cancelled" from then on, and
// waits at most 5 s for the agent to end the turn; the client then prints
// "stop: cancelled" (the stop reason the agent gave).
//
// The agent runs in a process group of its own, its standard error goes to
// the client's, and the client gives it 10 s to answer initialize. When the
// turn ends or fails, the client closes the agent's input, waits 1 s, sends
// SIGTERM to the agent's group, waits 2 s and sends SIGKILL: it returns
// within about 3 s however the agent behaves, and leaves no process of it
// behind, nor of the terminals it ran.
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

	"github.com/acpgen/acpgen/acpclient"
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
	err := run()
	duties.Close()
	if err != nil {
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
	c := newClient()
	agent, err := acplaunch.StartV1(start, exec.Command(command[0], command[1:]...), c, initializeRequest(), &acplaunch.Options{V1: connOptions()})
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	// An agent that exits fails the turn with its exit status and the last
	// lines of its standard error.
	reason, err := session(ctx, c, agent.ClientSideConnection, prompt)
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
// and returns its stop reason. When ctx ends during the turn, the session
// cancels it the protocol's way and the stop reason is the agent's,
// cancelled.
func session(ctx context.Context, c *client, conn *acpv1.ClientSideConnection, prompt string) (acpv1.StopReason, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	s, _, err := c.NewSession(ctx, conn, acpv1.NewNewSessionRequest(cwd, []acpv1.MCPServer{}))
	if err != nil {
		return "", fmt.Errorf("session/new: %w", err)
	}
	defer s.Close()
	// SessionUpdate prints the updates as they come; the session's own
	// queue of them is read and let go until the session closes.
	go func() {
		for {
			if _, err := s.Next(context.Background()); err != nil {
				return
			}
		}
	}()
	r, err := s.Prompt(ctx, []acpv1.ContentBlock{acpv1.NewContentBlockText(prompt)})
	if err != nil {
		return "", fmt.Errorf("session/prompt: %w", err)
	}
	return r.StopReason, nil
}

// client renders the agent's updates and answers its permission requests;
// its file and terminal duties are duties's, and its router routes the
// updates of the session it opens.
type client struct {
	*acpclient.V1
	router acpv1.SessionRouter
}

// NewSession opens a session with the router.
func (c *client) NewSession(ctx context.Context, conn *acpv1.ClientSideConnection, p *acpv1.NewSessionRequest) (*acpv1.ActiveSession, *acpv1.NewSessionResponse, error) {
	return c.router.NewSession(ctx, conn, p)
}

func newClient() *client { return &client{V1: duties.V1()} }

// SessionUpdate prints the text of agent message chunks, and a line for
// each plan an update changes. Notifications are handled in order, and
// before the response that follows them.
func (c *client) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	if m, ok := n.Update.Value.(*acpv1.SessionUpdateAgentMessageChunk); ok {
		if t, ok := m.Content.Value.(*acpv1.ContentBlockText); ok {
			fmt.Println(t.Text)
		}
	}
	printPlans(n)
	return c.router.SessionUpdate(ctx, n)
}

// RequestPermission picks the first option that allows the tool call, or
// answers cancelled when there is none. Once a turn is cancelled, the
// session answers cancelled instead.
func (c *client) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	for _, o := range p.Options {
		if o.Kind == acpv1.PermissionOptionKindAllowOnce || o.Kind == acpv1.PermissionOptionKindAllowAlways {
			return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected(o.OptionID)), nil
		}
	}
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}
