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
// working directory, and terminals, with package acpclient (see duties.go).
//
// SIGINT or SIGTERM during the turn cancels it: the client sends
// session/cancel, answers any permission request "cancelled" from then on,
// and waits at most 5 s for the agent to end the turn, then prints
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
	"sync/atomic"
	"syscall"
	"time"

	"github.com/acpgen/acpgen/acpclient"
	"github.com/acpgen/acpgen/acplaunch"
	"github.com/acpgen/acpgen/generated/acpv1"
)

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
	reason, err := session(ctx, agent.ClientSideConnection, c, prompt)
	err = agent.Process.Explain(err) // an agent that exited says how
	if closeErr := agent.Close(); err == nil && closeErr != nil {
		err = fmt.Errorf("agent: %w", closeErr)
	}
	if err != nil {
		return err
	}
	fmt.Println("stop:", reason)
	return nil
}

// cancelWait bounds the wait for the agent to end a cancelled turn.
const cancelWait = 5 * time.Second

// session opens a session in the working directory, runs the prompt turn
// and returns its stop reason. When ctx ends during the turn, it cancels
// the turn with session/cancel and returns the stop reason the agent ends
// it with.
func session(ctx context.Context, conn *acpv1.ClientSideConnection, c *client, prompt string) (acpv1.StopReason, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	s, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest(cwd, []acpv1.MCPServer{}))
	if err != nil {
		return "", fmt.Errorf("session/new: %w", err)
	}
	type answer struct {
		r   *acpv1.PromptResponse
		err error
	}
	done := make(chan answer, 1)
	go func() {
		// Not ctx: ending ctx cancels the turn with session/cancel below,
		// and the agent's answer is still wanted.
		r, err := conn.Prompt(context.WithoutCancel(ctx), acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText(prompt)}))
		done <- answer{r, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-ctx.Done():
		c.cancelled.Store(true)
		if err := conn.Cancel(context.WithoutCancel(ctx), acpv1.NewCancelNotification(s.SessionID)); err != nil {
			return "", fmt.Errorf("session/cancel: %w", err)
		}
		t := time.NewTimer(cancelWait)
		defer t.Stop()
		select {
		case a = <-done:
		case <-t.C:
			return "", fmt.Errorf("session/cancel: the agent did not end the turn within %v", cancelWait)
		}
	}
	if a.err != nil {
		return "", fmt.Errorf("session/prompt: %w", a.err)
	}
	return a.r.StopReason, nil
}

// client renders the agent's updates and answers its permission requests;
// its file and terminal duties are duties's.
type client struct {
	*acpclient.V1
	cancelled *atomic.Bool // the turn was cancelled: permission is answered cancelled
}

func newClient() *client { return &client{V1: duties.V1(), cancelled: new(atomic.Bool)} }

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
	return nil
}

// RequestPermission picks the first option that allows the tool call, or
// answers cancelled when there is none or the turn was cancelled.
func (c *client) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	if !c.cancelled.Load() {
		for _, o := range p.Options {
			if o.Kind == acpv1.PermissionOptionKindAllowOnce || o.Kind == acpv1.PermissionOptionKindAllowAlways {
				return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected(o.OptionID)), nil
			}
		}
	}
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}
