package converttest

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// v1Agent is a v1 agent that records its initialize params.
type v1Agent struct{ inits chan *acpv1.InitializeRequest }

func (a *v1Agent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	a.inits <- p
	return acpv1.NewInitializeResponse(1), nil
}

func (a *v1Agent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse("s1"), nil
}

func (a *v1Agent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

func (a *v1Agent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error { return nil }

// v2Agent is a v2 agent; refuse makes it answer initialize -32022.
type v2Agent struct{ refuse bool }

func (a *v2Agent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	if a.refuse {
		return nil, acpv2.NewError(-32022, "Unsupported protocol version")
	}
	return acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "agent", Version: "1"}), nil
}

func (a *v2Agent) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return acpv2.NewNewSessionResponse("s2"), nil
}

func (a *v2Agent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	return acpv2.NewPromptResponse("m1"), nil
}

func (a *v2Agent) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	return nil
}

type client1 struct{}

func (client1) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error { return nil }
func (client1) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}

type client2 struct{}

func (client2) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	return nil
}
func (client2) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeCancelled()), nil
}

func offer() convert.Offer {
	v1 := acpv1.NewInitializeRequest(1)
	v1.ClientInfo = &acpv1.Implementation{Name: "client", Version: "1"}
	v1.ClientCapabilities = &acpv1.ClientCapabilities{Terminal: acpv1.Ptr(true)}
	return convert.Offer{
		V2: acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "client", Version: "1"}), V2Client: client2{},
		V1: v1, V1Client: client1{},
	}
}

// pipes connects a client and an agent; closing ends both directions.
type pipes struct {
	agentR, clientR *io.PipeReader
	agentW, clientW *io.PipeWriter
}

func newPipes(t *testing.T) *pipes {
	p := &pipes{}
	p.agentR, p.clientW = io.Pipe()
	p.clientR, p.agentW = io.Pipe()
	t.Cleanup(func() {
		p.clientW.Close()
		p.agentW.Close()
	})
	return p
}

func TestNegotiateV2Agent(t *testing.T) {
	p := newPipes(t)
	agent := acpv2.NewAgentSideConnection(&v2Agent{}, p.agentW, p.agentR)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n, err := convert.Negotiate(ctx, p.clientW, p.clientR, offer())
	if err != nil {
		t.Fatal(err)
	}
	if n.Version != 2 || n.V2 == nil || n.V1 != nil || n.V2Result.Info.Name != "agent" {
		t.Fatalf("negotiated %+v", n)
	}
	s, err := n.V2.NewSession(ctx, acpv2.NewNewSessionRequest("/"))
	if err != nil || s.SessionID != "s2" {
		t.Fatalf("session/new: %v %v", s, err)
	}
	p.clientW.Close()
	<-agent.Done()
}

func TestNegotiateFallsBackToV1(t *testing.T) {
	for _, tc := range []struct {
		name  string
		agent func(w io.Writer, r io.Reader, inits chan *acpv1.InitializeRequest) <-chan struct{}
	}{
		{"v1 agent", func(w io.Writer, r io.Reader, inits chan *acpv1.InitializeRequest) <-chan struct{} {
			return acpv1.NewAgentSideConnection(&v1Agent{inits}, w, r).Done()
		}},
		{"v1-only router", func(w io.Writer, r io.Reader, inits chan *acpv1.InitializeRequest) <-chan struct{} {
			router, err := acprouter.New(acprouter.NewRoute(1, func(w io.Writer, r io.Reader) *acpv1.AgentSideConnection {
				return acpv1.NewAgentSideConnection(&v1Agent{inits}, w, r)
			}, convert.InitializeForV1))
			if err != nil {
				panic(err)
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				if conn, err := router.Serve(w, r); err == nil {
					<-conn.Done()
				}
			}()
			return done
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPipes(t)
			inits := make(chan *acpv1.InitializeRequest, 2)
			done := tc.agent(p.agentW, p.agentR, inits)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			n, err := convert.Negotiate(ctx, p.clientW, p.clientR, offer())
			if err != nil {
				t.Fatal(err)
			}
			if n.Version != 1 || n.V1 == nil || n.V2 != nil || n.V1Result.ProtocolVersion != 1 {
				t.Fatalf("negotiated %+v", n)
			}
			if first := <-inits; first.ProtocolVersion != 2 && first.ProtocolVersion != 1 {
				t.Errorf("first initialize: %+v", first)
			}
			if second := <-inits; second.ClientInfo == nil || second.ClientInfo.Name != "client" ||
				second.ClientCapabilities == nil || second.ClientCapabilities.Terminal == nil || !*second.ClientCapabilities.Terminal {
				t.Errorf("the v1 initialize: %+v", second)
			}
			s, err := n.V1.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
			if err != nil || s.SessionID != "s1" {
				t.Fatalf("session/new: %v %v", s, err)
			}
			p.clientW.Close()
			<-done
		})
	}
}

func TestNegotiateRouterPicksV2(t *testing.T) {
	p := newPipes(t)
	router, err := acprouter.New(acprouter.NewRoute(1, func(w io.Writer, r io.Reader) *acpv1.AgentSideConnection {
		return acpv1.NewAgentSideConnection(&v1Agent{make(chan *acpv1.InitializeRequest, 2)}, w, r)
	}, convert.InitializeForV1), acprouter.NewRoute(2, func(w io.Writer, r io.Reader) *acpv2.AgentSideConnection {
		return acpv2.NewAgentSideConnection(&v2Agent{}, w, r)
	}, convert.InitializeForV2))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if conn, err := router.Serve(p.agentW, p.agentR); err == nil {
			<-conn.Done()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n, err := convert.Negotiate(ctx, p.clientW, p.clientR, offer())
	if err != nil {
		t.Fatal(err)
	}
	if n.Version != 2 {
		t.Fatalf("negotiated %+v", n)
	}
	if _, err := n.V2.Prompt(ctx, acpv2.NewPromptRequest("s2", []acpv2.ContentBlock{acpv2.NewContentBlockText("hi")})); err != nil {
		t.Fatal(err)
	}
	p.clientW.Close()
	<-done
}

func TestNegotiateRefused(t *testing.T) {
	p := newPipes(t)
	// A v2 agent that refuses: the v1 initialize it then gets is a v2
	// initialize without info, which it refuses too.
	agent := acpv2.NewAgentSideConnection(&v2Agent{refuse: true}, p.agentW, p.agentR)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := convert.Negotiate(ctx, p.clientW, p.clientR, offer())
	if err == nil || !strings.Contains(err.Error(), "refused v2") {
		t.Fatalf("err = %v", err)
	}
	p.clientW.Close()
	<-agent.Done()
}

func TestNegotiateHonoursContext(t *testing.T) {
	p := newPipes(t)
	go io.Copy(io.Discard, p.agentR) // an agent that never answers
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := convert.Negotiate(ctx, p.clientW, p.clientR, offer()); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	p.agentW.Close() // ends the read Negotiate left behind
}
