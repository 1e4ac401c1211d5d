//go:build ignore

package convert

import (
	"context"
	"fmt"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// bridgeClient serves the v2 agent's calls by calling the v1 client.
type bridgeClient struct{ b *Bridge }

// CreateElicitation and CompleteElicitation cross as they are where the
// value fits the other version.
func (c bridgeClient) CreateElicitation(ctx context.Context, p *acpv2.CreateElicitationRequest) (*acpv2.CreateElicitationResponse, error) {
	req, err := viaWire[acpv1.CreateElicitationRequest](p)
	if err != nil {
		return nil, acpv2.NewInvalidParamsError(map[string]string{"details": err.Error()})
	}
	res, err := c.b.v1.CreateElicitation(ctx, req)
	if err != nil {
		return nil, errorToV2(err)
	}
	return viaWire[acpv2.CreateElicitationResponse](res)
}

func (c bridgeClient) CompleteElicitation(ctx context.Context, p *acpv2.CompleteElicitationNotification) error {
	n := CompleteElicitationNotificationToV1(*p)
	return c.b.v1.CompleteElicitation(ctx, &n)
}

// UpdateSession sends the client the v1 form of the agent's session update.
// The idle state update that ends a turn answers the v1 prompt instead; the
// other state updates have no v1 form and are not sent, nor is the echo of
// the prompt's user message (user_message). An update that has
// no v1 form, or none for this client, is not sent and goes to
// BridgeOptions.Undeliverable.
func (c bridgeClient) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	update, send, err := c.updateToV1(n)
	if err != nil {
		c.b.undeliverable(n, err)
		return err
	}
	if !send {
		return nil
	}
	return c.b.v1.SessionUpdate(ctx, acpv1.NewSessionNotification(acpv1.SessionID(n.SessionID), update))
}

// updateToV1 converts a session update; send is false for the updates that
// are not sent.
func (c bridgeClient) updateToV1(n *acpv2.UpdateSessionNotification) (u acpv1.SessionUpdate, send bool, err error) {
	switch v := n.Update.Value.(type) {
	case *acpv2.SessionUpdateStateUpdate:
		if idle, ok := v.StateUpdate.Value.(*acpv2.StateUpdateIdle); ok {
			c.b.idle(n.SessionID, idle.IdleStateUpdate)
		}
		return u, false, nil
	case *acpv2.SessionUpdateUserMessage:
		// The echo of the prompt's user message: the v1 client has the
		// prompt, and a v1 agent echoes one only when it replays history.
		return u, false, nil
	case *acpv2.SessionUpdatePlanUpdate:
		return c.planToV1(n.Update, v)
	case *acpv2.SessionUpdateToolCallUpdate:
		return c.toolCallToV1(n.SessionID, v)
	}
	if r, ok, err := planRemovedToV1(c.b, n.Update); ok {
		return r, err == nil, err
	}
	out, err := viaWire[acpv1.SessionUpdate](n.Update)
	if err != nil {
		return u, false, err
	}
	if _, unknown := out.Value.(*acpv1.SessionUpdateOther); unknown {
		return u, false, &NotRepresentableError{What: "session update " + fmt.Sprintf("%q", n.Update.Tag()), Version: 1}
	}
	return *out, true, nil
}

// planToV1 applies the plan rules: a client that advertised the plan
// operations gets every plan as a v1 plan_update; any other client gets the
// items plan as the v1 plan (the plan id dropped), and no other plan.
func (c bridgeClient) planToV1(u acpv2.SessionUpdate, v *acpv2.SessionUpdatePlanUpdate) (acpv1.SessionUpdate, bool, error) {
	c.b.mu.Lock()
	planOps := c.b.plan
	c.b.mu.Unlock()
	if planOps {
		r, err := SessionUpdateToV1(u)
		return r, err == nil, err
	}
	p, err := PlanToV1(v.PlanUpdate)
	if err != nil {
		return acpv1.SessionUpdate{}, false, err
	}
	return acpv1.SessionUpdate{Value: &acpv1.SessionUpdatePlan{Plan: p}}, true, nil
}

// toolCallToV1 turns v2's tool_call_update, which creates or updates a
// tool call, into v1's tool_call the first time the client hears of the
// call (its title "" when the update has none), and tool_call_update after.
func (c bridgeClient) toolCallToV1(session acpv2.SessionID, v *acpv2.SessionUpdateToolCallUpdate) (acpv1.SessionUpdate, bool, error) {
	update, err := viaWire[acpv1.ToolCallUpdate](v.ToolCallUpdate)
	if err != nil {
		return acpv1.SessionUpdate{}, false, err
	}
	if c.b.toolCallSeen(session, v.ToolCallID) {
		return acpv1.SessionUpdate{Value: &acpv1.SessionUpdateToolCallUpdate{ToolCallUpdate: *update}}, true, nil
	}
	call := acpv1.ToolCall{ToolCallID: update.ToolCallID, Kind: update.Kind, Status: update.Status, Name: update.Name,
		Content: update.Content, Locations: update.Locations, RawInput: update.RawInput, RawOutput: update.RawOutput, Meta: update.Meta}
	if update.Title != nil {
		call.Title = *update.Title
	}
	return acpv1.SessionUpdate{Value: &acpv1.SessionUpdateToolCall{ToolCall: call}}, true, nil
}

// RequestPermission asks the v1 client, whose request names a tool call:
// the one the v2 request is about, or one made of its title.
func (c bridgeClient) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	req := &acpv1.RequestPermissionRequest{SessionID: acpv1.SessionID(p.SessionID), Meta: p.Meta}
	req.ToolCall = acpv1.ToolCallUpdate{ToolCallID: "permission", Title: acpv1.Ptr(p.Title)}
	if p.Subject != nil {
		if s, ok := p.Subject.Value.(*acpv2.RequestPermissionSubjectToolCall); ok {
			call, err := viaWire[acpv1.ToolCallUpdate](s.ToolCall)
			if err != nil {
				return nil, err
			}
			if call.Title == nil {
				call.Title = req.ToolCall.Title
			}
			req.ToolCall = *call
		}
	}
	for _, o := range p.Options {
		opt, err := viaWire[acpv1.PermissionOption](o)
		if err != nil {
			return nil, err
		}
		req.Options = append(req.Options, *opt)
	}
	res, err := c.b.v1.RequestPermission(ctx, req)
	if err != nil {
		return nil, errorToV2(err)
	}
	return viaWire[acpv2.RequestPermissionResponse](res)
}
