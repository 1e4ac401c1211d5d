package bench

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"

	"github.com/acpgen/acpgen/bench/workload"
	"github.com/acpgen/acpgen/generated/acpv1"
	acp "github.com/coder/acp-go-sdk"
)

// The connections end to end: an agent and a client joined by two in-memory
// pipes, the agent streaming the workload's session updates to the client
// (notifications per second, each decoded into its typed params by the
// client's connection), and the client making prompt round trips (latency).

// pipes returns the two ends of a duplex in-memory connection and a func
// that closes it.
func pipes() (agentR io.Reader, agentW io.Writer, clientR io.Reader, clientW io.Writer, closeAll func()) {
	ar, cw := io.Pipe()
	cr, aw := io.Pipe()
	return ar, aw, cr, cw, func() { cw.Close(); aw.Close() }
}

// counter counts the notifications a client has handled.
type counter struct {
	mu   sync.Mutex
	cond *sync.Cond
	n    int
}

func newCounter() *counter {
	c := &counter{}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *counter) add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	c.cond.Broadcast()
}

// waitFor waits until n notifications have been handled since reset.
func (c *counter) waitFor(n int) {
	c.mu.Lock()
	for c.n < n {
		c.cond.Wait()
	}
	c.mu.Unlock()
}

func (c *counter) reset() {
	c.mu.Lock()
	c.n = 0
	c.mu.Unlock()
}

// The acpgen sides.

type genAgent struct{}

func (genAgent) Initialize(context.Context, *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return &acpv1.InitializeResponse{ProtocolVersion: 1}, nil
}
func (genAgent) NewSession(context.Context, *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return &acpv1.NewSessionResponse{SessionID: "s"}, nil
}
func (genAgent) Prompt(context.Context, *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	return &acpv1.PromptResponse{StopReason: acpv1.StopReasonEndTurn}, nil
}
func (genAgent) Cancel(context.Context, *acpv1.CancelNotification) error { return nil }

type genClient struct{ *counter }

func (c genClient) SessionUpdate(context.Context, *acpv1.SessionNotification) error {
	c.add()
	return nil
}
func (genClient) RequestPermission(context.Context, *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return &acpv1.RequestPermissionResponse{}, nil
}

// The peer's sides: its interfaces have every method.

type coderAgent struct{}

func (coderAgent) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}
func (coderAgent) Initialize(context.Context, acp.InitializeRequest) (acp.InitializeResponse, error) {
	return acp.InitializeResponse{ProtocolVersion: 1}, nil
}
func (coderAgent) Cancel(context.Context, acp.CancelNotification) error { return nil }
func (coderAgent) CloseSession(context.Context, acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, nil
}
func (coderAgent) ListSessions(context.Context, acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	return acp.ListSessionsResponse{}, nil
}
func (coderAgent) NewSession(context.Context, acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	return acp.NewSessionResponse{SessionId: "s"}, nil
}
func (coderAgent) Prompt(context.Context, acp.PromptRequest) (acp.PromptResponse, error) {
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}
func (coderAgent) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, nil
}
func (coderAgent) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, nil
}
func (coderAgent) SetSessionMode(context.Context, acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	return acp.SetSessionModeResponse{}, nil
}

type coderClient struct{ *counter }

func (c coderClient) SessionUpdate(context.Context, acp.SessionNotification) error {
	c.add()
	return nil
}
func (coderClient) RequestPermission(context.Context, acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	return acp.RequestPermissionResponse{}, nil
}
func (coderClient) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, nil
}
func (coderClient) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, nil
}
func (coderClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, nil
}
func (coderClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, nil
}
func (coderClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, nil
}
func (coderClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, nil
}
func (coderClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, nil
}

// connPair is one contender's agent and client, connected.
type connPair struct {
	count  *counter
	notify func(ctx context.Context, i int) error // sends the i-th update of the stream
	prompt func(ctx context.Context) error
	close  func()
}

func genPair(b *testing.B, stream []workload.Message) *connPair { return genPairWith(b, stream) }

// passThrough is a middleware that does nothing but call on: what one
// costs, on each side of genPairWith's connections.
func passThrough(next acpv1.Handler) acpv1.Handler {
	return func(ctx context.Context, call acpv1.Call) (any, error) { return next(ctx, call) }
}

func genMiddlewarePair(b *testing.B, stream []workload.Message) *connPair {
	return genPairWith(b, stream, acpv1.WithMiddleware(passThrough))
}

func genPairWith(b *testing.B, stream []workload.Message, opts ...acpv1.ConnOption) *connPair {
	updates := make([]*acpv1.SessionNotification, len(stream))
	for i, m := range stream {
		updates[i] = new(acpv1.SessionNotification)
		if err := updates[i].UnmarshalJSON(m.JSON); err != nil {
			b.Fatal(err)
		}
	}
	ar, aw, cr, cw, closeAll := pipes()
	count := newCounter()
	agent := acpv1.NewAgentSideConnection(genAgent{}, aw, ar, opts...)
	client := acpv1.NewClientSideConnection(genClient{count}, cw, cr, opts...)
	// The agent answers nothing but initialize until it has answered that.
	if _, err := client.Initialize(context.Background(), &acpv1.InitializeRequest{ProtocolVersion: 1}); err != nil {
		b.Fatal(err)
	}
	prompt := &acpv1.PromptRequest{SessionID: "s", Prompt: []acpv1.ContentBlock{{Value: &acpv1.ContentBlockText{TextContent: acpv1.TextContent{Text: "hello"}}}}}
	return &connPair{
		count:  count,
		notify: func(ctx context.Context, i int) error { return agent.SessionUpdate(ctx, updates[i%len(updates)]) },
		prompt: func(ctx context.Context) error { _, err := client.Prompt(ctx, prompt); return err },
		close:  closeAll,
	}
}

func coderPair(b *testing.B, stream []workload.Message) *connPair {
	updates := make([]acp.SessionNotification, len(stream))
	for i, m := range stream {
		if err := json.Unmarshal(m.JSON, &updates[i]); err != nil {
			b.Fatal(err)
		}
	}
	ar, aw, cr, cw, closeAll := pipes()
	count := newCounter()
	agent := acp.NewAgentSideConnection(coderAgent{}, aw, ar)
	client := acp.NewClientSideConnection(coderClient{count}, cw, cr)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	agent.SetLogger(quiet)
	client.SetLogger(quiet)
	if _, err := client.Initialize(context.Background(), acp.InitializeRequest{ProtocolVersion: 1}); err != nil {
		b.Fatal(err)
	}
	prompt := acp.PromptRequest{SessionId: "s", Prompt: []acp.ContentBlock{acp.TextBlock("hello")}}
	return &connPair{
		count:  count,
		notify: func(ctx context.Context, i int) error { return agent.SessionUpdate(ctx, updates[i%len(updates)]) },
		prompt: func(ctx context.Context) error { _, err := client.Prompt(ctx, prompt); return err },
		close:  closeAll,
	}
}

var connContenders = []struct {
	name string
	pair func(*testing.B, []workload.Message) *connPair
}{
	{"acpgen", genPair},
	{"coder", coderPair},
	{"middleware", genMiddlewarePair}, // acpgen with one pass-through middleware on each side
}

// window bounds the notifications in flight: coder's connection closes when
// more than 1024 wait to be handled, so the sender waits, after each window,
// until the client has handled all but half a window.
const window = 256

// BenchmarkConnNotify streams session updates from agent to client: one op
// is one notification written, read, decoded and handled.
func BenchmarkConnNotify(b *testing.B) {
	stream := workload.Stream(streamLen)
	for _, c := range connContenders {
		b.Run(c.name, func(b *testing.B) {
			p := c.pair(b, stream)
			defer p.close()
			ctx := context.Background()
			p.count.reset()
			run(b, func(i int) {
				if err := p.notify(ctx, i); err != nil {
					b.Fatal(err)
				}
				if (i+1)%window == 0 {
					p.count.waitFor(i + 1 - window/2)
				}
				if i == b.N-1 {
					p.count.waitFor(b.N)
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "notifications/s")
		})
	}
}

// BenchmarkConnRoundTrip makes session/prompt calls one after the other: one
// op is a request and its response.
func BenchmarkConnRoundTrip(b *testing.B) {
	for _, c := range connContenders {
		b.Run(c.name, func(b *testing.B) {
			p := c.pair(b, workload.Stream(1))
			defer p.close()
			ctx := context.Background()
			run(b, func(int) {
				if err := p.prompt(ctx); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
