package acpclient

import (
	"context"
	"io"
	"sync/atomic"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// OverV2 lets a client written once, against acpv1, speak to a v2 agent
// too: the v1 client's connection leads to convert's Bridge, which turns
// its calls into v2 and the agent's v2 updates, permission requests and
// turn ends into v1 (the updates that have a v1 meaning; see
// convert.BridgeOptions.Undeliverable for the others), and the bridge's
// agent is the remote v2 agent itself, each call forwarded as it is.
//
// Make one, give its V2Client to the v2 connection to the agent (or to
// convert.Negotiate's Offer, or acplaunch.Start's), then call Connect
// with that connection. The v1 client's initialize is answered with the
// agent's v2 initialize result, converted; when the connection was
// initialized already (by a negotiation), pass that result to Connect and
// the agent is not asked again.
type OverV2 struct {
	client acpv1.Client
	opts   convert.BridgeOptions
	remote atomic.Pointer[acpv2.ClientSideConnection]
	local  atomic.Pointer[acpv2.AgentSideConnection]
	init   *acpv2.InitializeResponse
	bridge *convert.Bridge
}

// NewOverV2 returns the adapter of client; opts tune the bridge (its
// Undeliverable hears of the agent's updates that have no v1 meaning).
func NewOverV2(client acpv1.Client, opts convert.BridgeOptions) *OverV2 {
	return &OverV2{client: client, opts: opts}
}

// V2Client returns the v2 client to serve the agent's connection with: it
// hands the agent's calls to the v1 client, through the bridge.
func (o *OverV2) V2Client() acpv2.Client { return v2Client{o} }

// Connect connects the v1 client to the agent at the other end of agent,
// a connection made with V2Client; initialized is the agent's initialize
// result when agent has been initialized, or nil. It returns the v1
// connection the client uses, which ends with agent: call its Initialize
// (again, when initialized is not nil: the bridge answers it) and go on as
// with a v1 agent. opts are the v1 connection's (the Host's Middleware, a
// wire log of the client's v1 view).
func (o *OverV2) Connect(agent *acpv2.ClientSideConnection, initialized *acpv2.InitializeResponse, opts ...acpv1.ConnOption) *acpv1.ClientSideConnection {
	o.remote.Store(agent)
	o.init = initialized
	toBridge, clientW := io.Pipe()
	clientR, fromBridge := io.Pipe()
	o.bridge = convert.NewBridgeFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
		o.local.Store(c)
		return v2Agent{o}
	}, fromBridge, toBridge, o.opts)
	conn := acpv1.NewClientSideConnection(o.client, clientW, clientR, opts...)
	go func() {
		// Either end ends the other.
		select {
		case <-agent.Done():
		case <-conn.Done():
		}
		conn.Close()
		agent.Close()
	}()
	return conn
}

// v2Agent is the bridge's agent: the remote agent, each call forwarded.
type v2Agent struct{ o *OverV2 }

func (a v2Agent) r() *acpv2.ClientSideConnection { return a.o.remote.Load() }

func (a v2Agent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	if a.o.init != nil {
		return a.o.init, nil
	}
	return a.r().Initialize(ctx, p)
}

func (a v2Agent) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	return a.r().CancelSession(ctx, p)
}

func (a v2Agent) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return a.r().NewSession(ctx, p)
}

func (a v2Agent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	return a.r().Prompt(ctx, p)
}

func (a v2Agent) CloseSession(ctx context.Context, p *acpv2.CloseSessionRequest) (*acpv2.CloseSessionResponse, error) {
	return a.r().CloseSession(ctx, p)
}

func (a v2Agent) DeleteSession(ctx context.Context, p *acpv2.DeleteSessionRequest) (*acpv2.DeleteSessionResponse, error) {
	return a.r().DeleteSession(ctx, p)
}

func (a v2Agent) ListSessions(ctx context.Context, p *acpv2.ListSessionsRequest) (*acpv2.ListSessionsResponse, error) {
	return a.r().ListSessions(ctx, p)
}

func (a v2Agent) ResumeSession(ctx context.Context, p *acpv2.ResumeSessionRequest) (*acpv2.ResumeSessionResponse, error) {
	return a.r().ResumeSession(ctx, p)
}

func (a v2Agent) SetSessionConfigOption(ctx context.Context, p *acpv2.SetSessionConfigOptionRequest) (*acpv2.SetSessionConfigOptionResponse, error) {
	return a.r().SetSessionConfigOption(ctx, p)
}

// v2Client serves the remote agent's calls: each goes to the bridge, which
// hands it to the v1 client.
type v2Client struct{ o *OverV2 }

func (c v2Client) l() (*acpv2.AgentSideConnection, error) {
	if l := c.o.local.Load(); l != nil {
		return l, nil
	}
	return nil, acpv2.NewInternalError(map[string]string{"details": "the client is not connected yet"})
}

func (c v2Client) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	l, err := c.l()
	if err != nil {
		return err
	}
	return l.UpdateSession(ctx, n)
}

func (c v2Client) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	l, err := c.l()
	if err != nil {
		return nil, err
	}
	return l.RequestPermission(ctx, p)
}

func (c v2Client) CreateElicitation(ctx context.Context, p *acpv2.CreateElicitationRequest) (*acpv2.CreateElicitationResponse, error) {
	l, err := c.l()
	if err != nil {
		return nil, err
	}
	return l.CreateElicitation(ctx, p)
}

func (c v2Client) CompleteElicitation(ctx context.Context, p *acpv2.CompleteElicitationNotification) error {
	l, err := c.l()
	if err != nil {
		return err
	}
	return l.CompleteElicitation(ctx, p)
}
