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
// processes: a client that keeps sessions by id never mixes up two.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"sync"

	"github.com/acpgen/acpgen/examples/internal/wirelog"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// wire is the wire log of -wire-log and $ACP_WIRE_LOG.
var wire = wirelog.Flags("agent")

func main() {
	listen := flag.String("listen", "", "serve at http://`ADDR`/acp over Streamable HTTP and WebSocket instead of on stdin and stdout")
	flag.Parse()
	if *listen != "" {
		if err := listenAndServe(*listen); err != nil {
			fmt.Fprintln(os.Stderr, "agent:", err)
			os.Exit(1)
		}
		return
	}
	if err := serve(os.Stdout, os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
}

// newAgent returns the agent of one connection, without its conn.
func newAgent() *agent { return &agent{cancelled: map[acpv1.SessionID]bool{}} }

type agent struct {
	conn *acpv1.AgentSideConnection

	mu        sync.Mutex
	cancelled map[acpv1.SessionID]bool // sessions whose prompt turn was cancelled
}

func (a *agent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	r := acpv1.NewInitializeResponse(1)
	r.AgentInfo = &acpv1.Implementation{Name: "acpgen-example-agent", Version: "1.0.0"}
	r.AuthMethods = []acpv1.AuthMethod{} // none, written as [] as the TypeScript SDK's agents do
	return r, nil
}

// NewSession answers session/new with a random id, "sess_" and 32 hex
// digits.
func (a *agent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	return acpv1.NewNewSessionResponse(acpv1.SessionID("sess_" + hex.EncodeToString(b[:]))), nil
}

func (a *agent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.cancelled[p.SessionID]; ok {
		a.cancelled[p.SessionID] = true
	}
	return nil
}

func (a *agent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	a.mu.Lock()
	a.cancelled[p.SessionID] = false // a turn is running
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.cancelled, p.SessionID)
		a.mu.Unlock()
	}()
	for _, block := range p.Prompt {
		if t, ok := block.Value.(*acpv1.ContentBlockText); ok {
			if err := a.say(ctx, p.SessionID, t.Text); err != nil {
				return nil, err
			}
			if err := a.plan(ctx, p.SessionID, t.Text); err != nil {
				return nil, err
			}
		}
	}
	if a.isCancelled(p.SessionID) {
		return acpv1.NewPromptResponse(acpv1.StopReasonCancelled), nil
	}
	answer, err := a.conn.RequestPermission(ctx, acpv1.NewRequestPermissionRequest(p.SessionID,
		acpv1.ToolCallUpdate{ToolCallID: "call_1", Title: acpv1.Ptr("echo")},
		[]acpv1.PermissionOption{
			{OptionID: "allow", Name: "Allow", Kind: acpv1.PermissionOptionKindAllowOnce},
			{OptionID: "reject", Name: "Reject", Kind: acpv1.PermissionOptionKindRejectOnce},
		}))
	if err != nil {
		return nil, err
	}
	outcome := "cancelled"
	if s, ok := answer.Outcome.Value.(*acpv1.RequestPermissionOutcomeSelected); ok {
		outcome = string(s.OptionID)
	}
	if err := a.say(ctx, p.SessionID, "permission: "+outcome); err != nil {
		return nil, err
	}
	if a.isCancelled(p.SessionID) {
		return acpv1.NewPromptResponse(acpv1.StopReasonCancelled), nil
	}
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

// say sends text to the client as an agent message chunk.
func (a *agent) say(ctx context.Context, id acpv1.SessionID, text string) error {
	return a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(id,
		acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText(text))))
}

func (a *agent) isCancelled(id acpv1.SessionID) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cancelled[id]
}
