//go:build ignore

package convert

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// bridgeAgent serves the v1 client's calls by calling the v2 agent.
// Methods the v2 agent lacks are answered -32601 by its connection; v1
// methods without a v2 counterpart (authenticate, logout, session/load,
// session/set_mode) are not implemented, so the v1 connection answers
// them -32601.
type bridgeAgent struct{ b *Bridge }

// Initialize sends the agent a v2 initialize made of the v1 one: the
// client info as info ("unknown" when the client sent none), and the
// capabilities v2 has (terminal authentication, elicitation, _meta); the
// file system and terminal capabilities have no v2 counterpart, as v2 has
// no fs/* and terminal/* client methods.
func (a bridgeAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	req := acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "unknown", Version: "unknown"})
	req.Meta = p.Meta
	if p.ClientInfo != nil {
		req.Info = ImplementationToV2(*p.ClientInfo)
	}
	if c := p.ClientCapabilities; c != nil {
		caps := &acpv2.ClientCapabilities{Meta: c.Meta}
		if c.Auth != nil && c.Auth.Terminal != nil && *c.Auth.Terminal {
			caps.Auth = &acpv2.ClientAuthCapabilities{Terminal: &acpv2.TerminalAuthCapabilities{}}
		}
		if c.Elicitation != nil {
			e := ElicitationCapabilitiesToV2(*c.Elicitation)
			caps.Elicitation = &e
		}
		req.Capabilities = caps
	}
	a.b.mu.Lock()
	a.b.plan = advertisesPlan(p.ClientCapabilities)
	a.b.mu.Unlock()
	res, err := a.b.peer.Initialize(ctx, req)
	if err != nil {
		return nil, errorToV1(err)
	}
	return initializeResultToV1(res)
}

// initializeResultToV1 writes the agent's v2 initialize result for the v1
// client: info as agentInfo, and the capabilities v1 has, the prompt and
// MCP capabilities (in v2 under session) at the top as v1 has them.
func initializeResultToV1(res *acpv2.InitializeResponse) (*acpv1.InitializeResponse, error) {
	out := acpv1.NewInitializeResponse(1)
	out.Meta = res.Meta
	info := ImplementationToV1(res.Info)
	out.AgentInfo = &info
	if res.AuthMethods != nil {
		out.AuthMethods = []acpv1.AuthMethod{}
		for _, m := range res.AuthMethods {
			if v, err := viaWire[acpv1.AuthMethod](m); err == nil {
				out.AuthMethods = append(out.AuthMethods, *v)
			}
		}
	}
	if c := res.Capabilities; c != nil {
		caps := &acpv1.AgentCapabilities{Meta: c.Meta}
		if c.Auth != nil {
			caps.Auth, _ = viaWire[acpv1.AgentAuthCapabilities](c.Auth)
		}
		if s := c.Session; s != nil {
			if p := s.Prompt; p != nil {
				// v2 states a content type by an object, v1 by true.
				caps.PromptCapabilities = &acpv1.PromptCapabilities{Image: acpv1.Ptr(p.Image != nil),
					Audio: acpv1.Ptr(p.Audio != nil), EmbeddedContext: acpv1.Ptr(p.EmbeddedContext != nil), Meta: p.Meta}
			}
			if m := s.MCP; m != nil {
				caps.MCPCapabilities = &acpv1.MCPCapabilities{HTTP: acpv1.Ptr(m.HTTP != nil), Meta: m.Meta}
				mcpACPToV1(caps.MCPCapabilities, m)
			}
			rest := *s
			rest.Prompt, rest.MCP = nil, nil
			caps.SessionCapabilities, _ = viaWire[acpv1.SessionCapabilities](rest)
		}
		out.AgentCapabilities = caps
	}
	return out, nil
}

// NewSession creates a v2 session; the commands the v2 result lists go to
// the client in an available_commands_update once the result is written,
// as v1 announces them.
func (a bridgeAgent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	req, err := withMCPServersToV2[acpv2.NewSessionRequest](p)
	if err != nil {
		return nil, acpv1.NewInvalidParamsError(map[string]string{"details": err.Error()})
	}
	res, err := a.b.peer.NewSession(ctx, req)
	if err != nil {
		return nil, errorToV1(err)
	}
	a.announce(ctx, res.SessionID, res.AvailableCommands)
	res.AvailableCommands = nil
	return viaWire[acpv1.NewSessionResponse](res)
}

// ResumeSession resumes a v2 session, its commands announced as
// NewSession's.
func (a bridgeAgent) ResumeSession(ctx context.Context, p *acpv1.ResumeSessionRequest) (*acpv1.ResumeSessionResponse, error) {
	req, err := withMCPServersToV2[acpv2.ResumeSessionRequest](p)
	if err != nil {
		return nil, acpv1.NewInvalidParamsError(map[string]string{"details": err.Error()})
	}
	res, err := a.b.peer.ResumeSession(ctx, req)
	if err != nil {
		return nil, errorToV1(err)
	}
	a.announce(ctx, req.SessionID, res.AvailableCommands)
	res.AvailableCommands = nil
	return viaWire[acpv1.ResumeSessionResponse](res)
}

// announce sends the client a session's commands in an
// available_commands_update once the answer of the request of ctx is
// written.
func (a bridgeAgent) announce(ctx context.Context, id acpv2.SessionID, commands []acpv2.AvailableCommand) {
	if len(commands) == 0 {
		return
	}
	n := acpv2.NewUpdateSessionNotification(id, acpv2.NewSessionUpdateAvailableCommandsUpdate(commands))
	afterAnswer(ctx, func() { _ = bridgeClient(a).UpdateSession(context.Background(), n) })
}

// withMCPServersToV2 converts v1 params that list MCP servers to v2: v1
// writes a stdio server without its "type", which v2 requires.
func withMCPServersToV2[To any, PTo interface {
	*To
	UnmarshalJSON([]byte) error
}](p interface{ MarshalJSON() ([]byte, error) }) (*To, error) {
	data, err := p.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return nil, err
	}
	var servers []map[string]json.RawMessage
	if raw := members["mcpServers"]; raw != nil {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return nil, err
		}
		for _, s := range servers {
			if s["type"] == nil {
				s["type"] = json.RawMessage(`"stdio"`)
			}
		}
		if members["mcpServers"], err = json.Marshal(servers); err != nil {
			return nil, err
		}
	}
	if data, err = json.Marshal(members); err != nil {
		return nil, err
	}
	out := PTo(new(To))
	if err := out.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("convert: not representable in v2: %w", err)
	}
	return (*To)(out), nil
}

// Prompt sends the v2 prompt, which the agent answers once it has accepted
// it, and answers the v1 client when the turn ends: with the stop reason of
// the idle state update that ends it.
func (a bridgeAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	req, err := viaWire[acpv2.PromptRequest](p)
	if err != nil {
		return nil, acpv1.NewInvalidParamsError(map[string]string{"details": err.Error()})
	}
	idle, done, err := a.b.awaitTurn(req.SessionID)
	if err != nil {
		return nil, err
	}
	defer done()
	if _, err := a.b.peer.Prompt(ctx, req); err != nil {
		return nil, errorToV1(err)
	}
	select {
	case u := <-idle:
		return stopReasonToV1(u)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// stopReasonToV1 answers a v1 prompt with the stop reason of the idle state
// update that ended its turn. A turn that ended in error is answered with
// the error; one that ended without a turn ("none") as an ended turn.
func stopReasonToV1(u acpv2.IdleStateUpdate) (*acpv1.PromptResponse, error) {
	switch v := u.Value.(type) {
	case *acpv2.IdleStateUpdateEndTurn, *acpv2.IdleStateUpdateNone:
		return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
	case *acpv2.IdleStateUpdateCancelled:
		return acpv1.NewPromptResponse(acpv1.StopReasonCancelled), nil
	case *acpv2.IdleStateUpdateMaxTokens:
		return acpv1.NewPromptResponse(acpv1.StopReasonMaxTokens), nil
	case *acpv2.IdleStateUpdateMaxTurnRequests:
		return acpv1.NewPromptResponse(acpv1.StopReasonMaxTurnRequests), nil
	case *acpv2.IdleStateUpdateRefusal:
		return acpv1.NewPromptResponse(acpv1.StopReasonRefusal), nil
	case *acpv2.IdleStateUpdateError:
		data, _ := v.ErrorStopReason.MarshalJSON()
		return nil, acpv1.NewInternalError(map[string]any{"details": "the turn ended in error", "stop": json.RawMessage(data)})
	}
	return nil, acpv1.NewInternalError(map[string]string{"details": "the turn ended with stop reason " + u.Tag()})
}

// SetSessionConfigOption sets a v2 config option: v1 names a value by the
// variant without "type", v2 by "type": "id".
func (a bridgeAgent) SetSessionConfigOption(ctx context.Context, p *acpv1.SetSessionConfigOptionRequest) (*acpv1.SetSessionConfigOptionResponse, error) {
	var value acpv2.SetSessionConfigOptionRequestVariant
	switch v := p.Value.(type) {
	case *acpv1.SetSessionConfigOptionRequestValueID:
		value = &acpv2.SetSessionConfigOptionRequestID{Value: acpv2.SessionConfigValueID(v.Value)}
	case *acpv1.SetSessionConfigOptionRequestBoolean:
		value = &acpv2.SetSessionConfigOptionRequestBoolean{Value: v.Value}
	default:
		return nil, acpv1.NewInvalidParamsError(map[string]string{"details": "a config option value of type " + p.Tag()})
	}
	req := acpv2.NewSetSessionConfigOptionRequest(acpv2.SessionID(p.SessionID), acpv2.SessionConfigID(p.ConfigID), value)
	req.Meta = p.Meta
	res, err := a.b.peer.SetSessionConfigOption(ctx, req)
	if err != nil {
		return nil, errorToV1(err)
	}
	return viaWire[acpv1.SetSessionConfigOptionResponse](res)
}

// Cancel cancels the v2 session's turn.
func (a bridgeAgent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error {
	n, err := viaWire[acpv2.CancelSessionNotification](p)
	if err != nil {
		return err
	}
	return a.b.peer.CancelSession(ctx, n)
}

// CloseSession, DeleteSession and ListSessions have the same shape in both
// versions: the first two convert member by member, ListSessions, whose
// sessions have unstable members, by its JSON.
func (a bridgeAgent) CloseSession(ctx context.Context, p *acpv1.CloseSessionRequest) (*acpv1.CloseSessionResponse, error) {
	req := CloseSessionRequestToV2(*p)
	res, err := a.b.peer.CloseSession(ctx, &req)
	if err != nil {
		return nil, errorToV1(err)
	}
	out := CloseSessionResponseToV1(*res)
	return &out, nil
}

func (a bridgeAgent) DeleteSession(ctx context.Context, p *acpv1.DeleteSessionRequest) (*acpv1.DeleteSessionResponse, error) {
	req := DeleteSessionRequestToV2(*p)
	res, err := a.b.peer.DeleteSession(ctx, &req)
	if err != nil {
		return nil, errorToV1(err)
	}
	out := DeleteSessionResponseToV1(*res)
	return &out, nil
}

func (a bridgeAgent) ListSessions(ctx context.Context, p *acpv1.ListSessionsRequest) (*acpv1.ListSessionsResponse, error) {
	return forward[acpv1.ListSessionsResponse](ctx, p, a.b.peer.ListSessions)
}

// forward sends a request whose params and result have the same shape in
// both versions to the agent.
func forward[R1, P2, R2 any, PP2 interface {
	*P2
	UnmarshalJSON([]byte) error
}, PR1 interface {
	*R1
	UnmarshalJSON([]byte) error
}](ctx context.Context, p interface{ MarshalJSON() ([]byte, error) },
	call func(context.Context, *P2) (*R2, error)) (*R1, error) {
	req, err := viaWire[P2, PP2](p)
	if err != nil {
		return nil, acpv1.NewInvalidParamsError(map[string]string{"details": err.Error()})
	}
	res, err := call(ctx, req)
	if err != nil {
		return nil, errorToV1(err)
	}
	m, ok := any(res).(interface{ MarshalJSON() ([]byte, error) })
	if !ok {
		return nil, acpv1.NewInternalError(map[string]string{"details": "a result without encoder"})
	}
	return viaWire[R1, PR1](m)
}
