// Command acpgenagent is the smallest useful ACP v1 agent built on acpv1,
// for measuring the size of a binary that uses it (`make bench-size`): on
// its stdin and stdout it answers initialize, session/new, and each
// session/prompt with one agent message chunk that echoes the prompt's
// text blocks before it ends the turn. Command coderagent does the same
// with github.com/coder/acp-go-sdk.
package main

import (
	"context"
	"os"
	"strings"

	"github.com/acpgen/acpgen/generated/acpv1"
)

type agent struct{ conn *acpv1.AgentSideConnection }

func (a *agent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

func (a *agent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse("sess_1"), nil
}

func (a *agent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error { return nil }

func (a *agent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	var text []string
	for _, block := range p.Prompt {
		if t, ok := block.Value.(*acpv1.ContentBlockText); ok {
			text = append(text, t.Text)
		}
	}
	err := a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(p.SessionID,
		acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText(strings.Join(text, "\n")))))
	if err != nil {
		return nil, err
	}
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

func main() {
	a := &agent{}
	acpv1.NewAgentSideConnectionFunc(func(conn *acpv1.AgentSideConnection) acpv1.Agent {
		a.conn = conn
		return a
	}, os.Stdout, os.Stdin)
	<-a.conn.Done()
}
