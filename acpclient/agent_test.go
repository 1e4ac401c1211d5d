package acpclient

import (
	"context"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// agent opens one session, "sess-1".
type agent struct{}

func (agent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}
func (agent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error { return nil }
func (agent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse("sess-1"), nil
}
func (agent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}
