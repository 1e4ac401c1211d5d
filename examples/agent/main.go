// Command agent is an ACP agent that echoes prompts, for trying clients
// and as an example of acpv1.NewAgentSideConnection, acpv2's and the version
// router (package acprouter). It speaks JSON-RPC on its stdin and stdout, or
// with -listen ADDR over the network (see listen.go), protocol v1 or v2 as
// the client's initialize asks: each version has its own implementation,
// this file's v1 agent and agent_v2.go's v2 agent (serve.go).
//
// Each text block of a prompt comes back as an agent message chunk, and one
// that reads "/plan A; B" sends a plan of those entries as well. Then the
// agent asks the client for permission to run a tool call "echo" (options
// "allow" and "reject") and reports the answer in one more chunk,
// "permission: allow", "permission: reject" or "permission: cancelled",
// before it ends the turn. A session/cancel during the prompt ends the turn
// with stopReason "cancelled". Session ids are random, unique across
// processes: a client that keeps sessions by id never mixes up two. The
// sessions and their conversations are kept in memory while the process
// runs: session/load (v1) and session/resume with replayFrom (v2) replay
// them, on any connection. With -store PATH they are kept in a SQLite file
// (package acpstore/sqlitestore), and with -store postgres://… in Postgres
// (acpstore/pgstore): they outlive the process, and a turn that a crash
// interrupted is reported so on the next resume or load.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/acpgen/acpgen/examples/internal/wirelog"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// wire is the wire log of -wire-log and $ACP_WIRE_LOG.
var wire = wirelog.Flags("agent")

func main() {
	listen := flag.String("listen", "", "serve at http://`ADDR`/acp over Streamable HTTP and WebSocket instead of on stdin and stdout")
	flag.Parse()
	store, err := openStore(context.Background())
	if err == nil {
		if *listen != "" {
			err = listenAndServe(*listen)
		} else {
			err = serve(os.Stdout, os.Stdin)
		}
	}
	if store != nil {
		if cerr := store.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
}

// The sessions of every connection, kept for as long as the process runs:
// a client that reconnects (over the network, -listen) loads or resumes
// the sessions it created before.
var (
	storeV1 acpv1.SessionStore = &acpv1.MemoryStore{}
	storeV2 acpv2.SessionStore = &acpv2.MemoryStore{}
)

// agent is the v1 echo agent. acpv1.TurnRunner runs its prompt turns in
// v1's prompt lifecycle (the turn's updates, then the answer with its stop
// reason; session/cancel answered with stopReason cancelled) and serves
// its sessions (session/new, load with the replay of the conversation,
// list, resume, close, delete): the agent is its Initialize and its turn,
// echoTurn.
type agent struct {
	*acpv1.TurnRunner
}

// newAgent returns the v1 agent of connection c.
func newAgent(c *acpv1.AgentSideConnection) *agent {
	return &agent{acpv1.NewTurnRunner(c, func(ctx context.Context, t *acpv1.Turn) error {
		return echoTurn(ctx, c, t)
	}, &acpv1.TurnOptions{Store: storeV1})}
}

// Initialize advertises loadSession and the session capabilities list,
// resume, close and delete, which the embedded TurnRunner serves.
func (a *agent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	r := acpv1.NewInitializeResponse(1)
	r.AgentInfo = &acpv1.Implementation{Name: "acpgen-example-agent", Version: "1.0.0"}
	r.AuthMethods = []acpv1.AuthMethod{} // none, written as [] as the TypeScript SDK's agents do
	r.AgentCapabilities = &acpv1.AgentCapabilities{LoadSession: acpv1.Ptr(true),
		SessionCapabilities: &acpv1.SessionCapabilities{List: &acpv1.SessionListCapabilities{},
			Resume: &acpv1.SessionResumeCapabilities{}, Close: &acpv1.SessionCloseCapabilities{},
			Delete: &acpv1.SessionDeleteCapabilities{}}}
	return r, nil
}

// echoTurn runs one prompt turn: the echo of each text block (and a plan
// after a block "/plan A; B"), then the permission request and its
// answer. A cancelled turn ends after the echo, or with the cancelled
// outcome of the permission request it waits on.
func echoTurn(ctx context.Context, c *acpv1.AgentSideConnection, t *acpv1.Turn) error {
	for _, block := range t.Request().Prompt {
		if text, ok := block.Value.(*acpv1.ContentBlockText); ok {
			if err := t.Say(ctx, text.Text); err != nil {
				return err
			}
			if err := plan(ctx, c, t, text.Text); err != nil {
				return err
			}
		}
	}
	if t.Cancelled() {
		return nil
	}
	answer, err := t.RequestPermission(ctx, acpv1.NewRequestPermissionRequest(t.SessionID(),
		acpv1.ToolCallUpdate{ToolCallID: "call_1", Title: acpv1.Ptr("echo")},
		[]acpv1.PermissionOption{
			{OptionID: "allow", Name: "Allow", Kind: acpv1.PermissionOptionKindAllowOnce},
			{OptionID: "reject", Name: "Reject", Kind: acpv1.PermissionOptionKindRejectOnce},
		}))
	if err != nil {
		return err
	}
	outcome := "cancelled"
	if s, ok := answer.Outcome.Value.(*acpv1.RequestPermissionOutcomeSelected); ok {
		outcome = string(s.OptionID)
	}
	// The turn's last words go out after a cancellation too.
	return t.Say(context.WithoutCancel(ctx), "permission: "+outcome)
}
