package acpv1test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// wirePeer speaks JSON-RPC lines to one connection over pipes.
type wirePeer struct {
	t     *testing.T
	w     *io.PipeWriter
	lines chan string
}

// newWirePeer starts the connection that serve makes and returns the peer
// that speaks to it; both end with the test.
func newWirePeer(t *testing.T, serve func(w io.Writer, r io.Reader) interface{ Done() <-chan struct{} }) *wirePeer {
	in, w := io.Pipe()
	out, toPeer := io.Pipe()
	p := &wirePeer{t: t, w: w, lines: make(chan string, 256)}
	conn := serve(toPeer, in)
	go func() {
		defer close(p.lines)
		s := bufio.NewScanner(out)
		s.Buffer(nil, 1<<20)
		for s.Scan() {
			p.lines <- s.Text()
		}
	}()
	t.Cleanup(func() { w.Close(); out.Close(); <-conn.Done() })
	return p
}

func (p *wirePeer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.w, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// recv returns the next line, failing after 10 s.
func (p *wirePeer) recv() string {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatal("the connection ended")
		}
		return l
	case <-time.After(10 * time.Second):
		p.t.Fatal("no line in 10 s")
	}
	return ""
}

// expect reads one line per want, each equal to it.
func (p *wirePeer) expect(want ...string) {
	p.t.Helper()
	for _, w := range want {
		if got := p.recv(); got != w {
			p.t.Fatalf("got  %s\nwant %s", got, w)
		}
	}
}

// quiet fails if a line comes within d.
func (p *wirePeer) quiet(d time.Duration) {
	p.t.Helper()
	select {
	case l := <-p.lines:
		p.t.Fatalf("unexpected line %s", l)
	case <-time.After(d):
	}
}

// turnAgent is a v1 agent made of a TurnRunner.
type turnAgent struct {
	*acpv1.TurnRunner
	caps *acpv1.AgentCapabilities
}

func (a *turnAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	r := acpv1.NewInitializeResponse(1)
	r.AgentCapabilities = a.caps
	return r, nil
}

// allSessions advertises loadSession and every session capability.
func allSessions() *acpv1.AgentCapabilities {
	return &acpv1.AgentCapabilities{LoadSession: acpv1.Ptr(true), SessionCapabilities: &acpv1.SessionCapabilities{List: &acpv1.SessionListCapabilities{},
		Resume: &acpv1.SessionResumeCapabilities{}, Close: &acpv1.SessionCloseCapabilities{}, Delete: &acpv1.SessionDeleteCapabilities{}}}
}

// counter returns ids prefix1, prefix2, … in order, across prefixes.
func counter() func(string) string {
	var mu sync.Mutex
	n := 0
	return func(prefix string) string {
		mu.Lock()
		defer mu.Unlock()
		n++
		return fmt.Sprint(prefix, n)
	}
}

const (
	initV1     = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`
	newSession = `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`
	promptHi   = `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"hi"}]}}`
	upd        = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":`
	userHi     = upd + `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"hi"}}}}`
	sayHi      = upd + `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`
	endTurn2   = `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`
	cancelled2 = `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"cancelled"}}`
	planA      = upd + `{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}}}`
	cancelS1   = `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`
)

// turnPeer serves a TurnRunner agent whose turns run turn, with opts and
// capabilities caps, initializes it and, when newSess, creates sess_1.
func turnPeer(t *testing.T, turn acpv1.TurnFunc, opts *acpv1.TurnOptions, caps *acpv1.AgentCapabilities, newSess bool) *wirePeer {
	t.Helper()
	if opts == nil {
		opts = &acpv1.TurnOptions{}
	}
	if opts.NewID == nil {
		opts.NewID = counter()
	}
	p := newWirePeer(t, func(w io.Writer, r io.Reader) interface{ Done() <-chan struct{} } {
		return acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
			return &turnAgent{TurnRunner: acpv1.NewTurnRunner(c, turn, opts), caps: caps}
		}, w, r)
	})
	p.send(initV1)
	if got := p.recv(); !strings.Contains(got, `"result"`) {
		t.Fatalf("initialize: %s", got)
	}
	if newSess {
		p.send(newSession)
		p.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_1"}}`)
	}
	return p
}

// echo says each text block of the prompt.
func echo(ctx context.Context, t *acpv1.Turn) error {
	for _, b := range t.Request().Prompt {
		if text, ok := b.Value.(*acpv1.ContentBlockText); ok {
			if err := t.Say(ctx, text.Text); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestTurnLifecycle: the turn's updates, then the answer with end_turn;
// an update the turn tries after it returned is not sent.
func TestTurnLifecycle(t *testing.T) {
	late := make(chan error, 1)
	var kept *acpv1.Turn
	p := turnPeer(t, func(ctx context.Context, turn *acpv1.Turn) error {
		kept = turn
		if err := echo(ctx, turn); err != nil {
			return err
		}
		return turn.Plan(ctx, []acpv1.PlanEntry{{Content: "a", Priority: acpv1.PlanEntryPriorityHigh, Status: acpv1.PlanEntryStatusPending}})
	}, nil, allSessions(), true)
	p.send(promptHi)
	p.expect(sayHi, planA, endTurn2)
	go func() { late <- kept.Say(context.Background(), "late") }()
	if err := <-late; err == nil || err.Error() != "acp: the turn has ended" {
		t.Errorf("Say after the turn: %v, want the error of an ended turn", err)
	}
	p.quiet(50 * time.Millisecond)
	// The next prompt runs a turn of its own.
	p.send(strings.Replace(promptHi, `"id":2`, `"id":3`, 1))
	p.expect(sayHi, planA, `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`)
}

// TestTurnStopAndErrors: a TurnStop's reason answers the prompt; an error
// answers it with the error; a panic with -32603 and no text of it.
func TestTurnStopAndErrors(t *testing.T) {
	var n int
	p := turnPeer(t, func(ctx context.Context, turn *acpv1.Turn) error {
		n++
		switch n {
		case 1:
			return &acpv1.TurnStop{Reason: acpv1.StopReasonMaxTokens}
		case 2:
			return acpv1.NewInvalidParamsError(nil)
		}
		return errors.New("disk on fire")
	}, nil, nil, true)
	p.send(promptHi)
	p.expect(`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"max_tokens"}}`)
	p.send(promptHi)
	p.expect(`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params"}}`)
	p.send(promptHi)
	if got := p.recv(); !strings.Contains(got, `"code":-32603`) || !strings.Contains(got, "disk on fire") {
		t.Errorf("an error's answer: %s", got)
	}
}

// TestTurnUnknownSession: a prompt for a session the runner does not keep
// is -32002.
func TestTurnUnknownSession(t *testing.T) {
	p := turnPeer(t, echo, nil, nil, false)
	p.send(promptHi)
	if got := p.recv(); !strings.Contains(got, `"code":-32002`) {
		t.Errorf("got %s", got)
	}
}

// TestTurnContract: advertising loadSession or a session capability the
// agent does not serve is refused at initialize.
func TestTurnContract(t *testing.T) {
	for _, caps := range []*acpv1.AgentCapabilities{
		{LoadSession: acpv1.Ptr(true)},
		{SessionCapabilities: &acpv1.SessionCapabilities{List: &acpv1.SessionListCapabilities{}}},
		{SessionCapabilities: &acpv1.SessionCapabilities{Delete: &acpv1.SessionDeleteCapabilities{}}},
	} {
		p := newWirePeer(t, func(w io.Writer, r io.Reader) interface{ Done() <-chan struct{} } {
			return acpv1.NewAgentSideConnection(&plainAgent{caps: caps}, w, r)
		})
		p.send(initV1)
		got := p.recv()
		if !strings.Contains(got, `"code":-32603`) || !strings.Contains(got, "does not serve") {
			t.Errorf("initialize advertising %+v: %s", caps, got)
		}
	}
	// The runner serves them all.
	turnPeer(t, echo, nil, allSessions(), false)
}

// plainAgent serves no session method beyond the required ones.
type plainAgent struct{ caps *acpv1.AgentCapabilities }

func (a *plainAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	r := acpv1.NewInitializeResponse(1)
	r.AgentCapabilities = a.caps
	return r, nil
}
func (a *plainAgent) Cancel(context.Context, *acpv1.CancelNotification) error { return nil }
func (a *plainAgent) NewSession(context.Context, *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse("s"), nil
}
func (a *plainAgent) Prompt(context.Context, *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}
