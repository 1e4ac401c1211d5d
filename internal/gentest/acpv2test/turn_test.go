package acpv2test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv2"
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
	p := &wirePeer{t: t, w: w, lines: make(chan string, 64)}
	conn := serve(toPeer, in)
	go func() {
		defer close(p.lines)
		s := bufio.NewScanner(out)
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

// turnAgent is an agent made of a TurnRunner, whose turns run turn.
type turnAgent struct {
	*acpv2.TurnRunner
	caps bool // advertise capabilities.session
}

func (a *turnAgent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	r := acpv2.NewInitializeResponse(2, testInfo)
	if a.caps {
		r.Capabilities = &acpv2.AgentCapabilities{Session: &acpv2.SessionCapabilities{}}
	}
	return r, nil
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

// turnPeer serves a TurnRunner agent whose turns run turn, initializes
// and creates session sess_1.
func turnPeer(t *testing.T, turn acpv2.TurnFunc, opts *acpv2.TurnOptions, connOpts ...acpv2.ConnOption) *wirePeer {
	if opts == nil {
		opts = &acpv2.TurnOptions{}
	}
	if opts.NewID == nil {
		opts.NewID = counter()
	}
	p := newWirePeer(t, func(w io.Writer, r io.Reader) interface{ Done() <-chan struct{} } {
		return acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
			return &turnAgent{TurnRunner: acpv2.NewTurnRunner(c, turn, opts), caps: true}
		}, w, r, connOpts...)
	})
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"1"}}}`)
	if got := p.recv(); !strings.Contains(got, `"capabilities":{"session":{}}`) {
		t.Fatalf("initialize: %s", got)
	}
	p.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`)
	if got := p.recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_`) {
		t.Fatalf("session/new: %s", got)
	}
	return p
}

const (
	promptHi   = `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"hi"}]}}`
	upd        = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":`
	userHi     = upd + `{"sessionUpdate":"user_message","messageId":"msg_2","content":[{"type":"text","text":"hi"}]}}}`
	running    = upd + `{"sessionUpdate":"state_update","state":"running"}}}`
	requires   = upd + `{"sessionUpdate":"state_update","state":"requires_action"}}}`
	endTurn    = upd + `{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}}}`
	cancelled  = upd + `{"sessionUpdate":"state_update","state":"idle","stopReason":"cancelled"}}}`
	acceptedHi = `{"jsonrpc":"2.0","id":2,"result":{"messageId":"msg_2"}}`
)

// TestTurnEndTurn: the prompt's answer first, then the user message,
// running, the turn's output and idle end_turn.
func TestTurnEndTurn(t *testing.T) {
	p := turnPeer(t, func(ctx context.Context, turn *acpv2.Turn) error {
		return turn.Say(ctx, "echo")
	}, nil)
	p.send(promptHi)
	p.expect(acceptedHi, userHi, running,
		upd+`{"sessionUpdate":"agent_message_chunk","messageId":"msg_3","content":{"type":"text","text":"echo"}}}}`,
		endTurn)
}

// permissionTurn asks for permission and hands the outcome to got.
func permissionTurn(got chan<- string) acpv2.TurnFunc {
	return func(ctx context.Context, turn *acpv2.Turn) error {
		r, err := turn.RequestPermission(ctx, acpv2.NewRequestPermissionRequest(turn.SessionID(), "run",
			[]acpv2.PermissionOption{{OptionID: "ok", Name: "OK", Kind: acpv2.PermissionOptionKindAllowOnce}}))
		if err != nil {
			got <- "error: " + err.Error()
			return err
		}
		got <- r.Outcome.Tag()
		return nil
	}
}

const askLine = `{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"sess_1","title":"run","options":[{"optionId":"ok","name":"OK","kind":"allow_once"}]}}`

// TestTurnPermission: requires_action while the permission request waits,
// running again once answered.
func TestTurnPermission(t *testing.T) {
	got := make(chan string, 1)
	p := turnPeer(t, permissionTurn(got), nil)
	p.send(promptHi)
	p.expect(acceptedHi, userHi, running, requires, askLine)
	p.send(`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"selected","optionId":"ok"}}}`)
	p.expect(running, endTurn)
	if o := <-got; o != "selected" {
		t.Errorf("outcome %q, want selected", o)
	}
}

// TestTurnCancel: session/cancel cancels the waiting permission request
// ($/cancel_request), which resolves cancelled, and ends the turn
// cancelled, without running in between.
func TestTurnCancel(t *testing.T) {
	got := make(chan string, 1)
	p := turnPeer(t, permissionTurn(got), nil)
	p.send(promptHi)
	p.expect(acceptedHi, userHi, running, requires, askLine)
	p.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`)
	p.expect(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`, cancelled)
	if o := <-got; o != "cancelled" {
		t.Errorf("outcome %q, want cancelled", o)
	}
}

// TestTurnError: a failing turn ends with stop reason error and the
// JSON-RPC error object.
func TestTurnError(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{acpv2.NewInvalidParamsError(map[string]string{"details": "bad"}), `{"code":-32602,"message":"Invalid params","data":{"details":"bad"}}`},
		{errors.New("disk full"), `{"code":-32603,"message":"Internal error","data":{"details":"disk full"}}`},
	} {
		p := turnPeer(t, func(ctx context.Context, turn *acpv2.Turn) error { return c.err }, nil)
		p.send(promptHi)
		p.expect(acceptedHi, userHi, running,
			upd+`{"sessionUpdate":"state_update","state":"idle","stopReason":"error","error":`+c.want+`}}}`)
	}
	// A panic is logged, and reaches the client as an internal error
	// without its text.
	var log strings.Builder
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(b []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return log.Write(b)
	}), nil))
	p := turnPeer(t, func(ctx context.Context, turn *acpv2.Turn) error { panic("secret") }, nil, acpv2.WithLogger(logger))
	p.send(promptHi)
	p.expect(acceptedHi, userHi, running,
		upd+`{"sessionUpdate":"state_update","state":"idle","stopReason":"error","error":{"code":-32603,"message":"Internal error"}}}}`)
	logMu.Lock()
	if !strings.Contains(log.String(), "panic=secret") {
		t.Errorf("the panic was not logged: %q", log.String())
	}
	logMu.Unlock()
	p = turnPeer(t, func(ctx context.Context, turn *acpv2.Turn) error {
		return &acpv2.TurnStop{Reason: acpv2.NewIdleStateUpdateMaxTokens()}
	}, nil)
	p.send(promptHi)
	p.expect(acceptedHi, userHi, running, upd+`{"sessionUpdate":"state_update","state":"idle","stopReason":"max_tokens"}}}`)
}

// TestTurnHeld: a prompt that comes while a turn runs is answered once
// that turn has ended; session/cancel answers held prompts -32800.
func TestTurnHeld(t *testing.T) {
	release := make(chan struct{})
	p := turnPeer(t, func(ctx context.Context, turn *acpv2.Turn) error {
		if turn.UserMessageID() == "msg_2" {
			<-release
		}
		return nil
	}, nil)
	p.send(promptHi)
	p.expect(acceptedHi, userHi, running)
	p.send(strings.Replace(promptHi, `"id":2`, `"id":3`, 1))
	p.quiet(50 * time.Millisecond)
	close(release)
	p.expect(endTurn, `{"jsonrpc":"2.0","id":3,"result":{"messageId":"msg_4"}}`,
		strings.Replace(userHi, "msg_2", "msg_4", 1), running, endTurn)

	block := make(chan struct{})
	p = turnPeer(t, func(ctx context.Context, turn *acpv2.Turn) error {
		<-ctx.Done()
		close(block)
		return ctx.Err()
	}, nil)
	p.send(promptHi)
	p.expect(acceptedHi, userHi, running)
	p.send(strings.Replace(promptHi, `"id":2`, `"id":3`, 1))
	p.quiet(50 * time.Millisecond)
	p.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`)
	<-block
	var lines []string
	for i := 0; i < 2; i++ {
		lines = append(lines, p.recv())
	}
	want := []string{`{"jsonrpc":"2.0","id":3,"error":{"code":-32800,"message":"Request cancelled"}}`, cancelled}
	if fmt.Sprint(lines) != fmt.Sprint(want) && fmt.Sprint(lines) != fmt.Sprint([]string{want[1], want[0]}) {
		t.Errorf("after cancel: %q, want %q in either order", lines, want)
	}
}

// TestTurnResumeCloseList: resume replays, then sends the current state,
// then answers; close cancels the running turn and answers after its
// idle update; list lists the sessions by cwd.
func TestTurnResumeCloseList(t *testing.T) {
	block := make(chan struct{})
	p := turnPeer(t, func(ctx context.Context, turn *acpv2.Turn) error {
		if err := turn.Update(ctx, acpv2.NewSessionUpdateSessionInfoUpdate()); err != nil {
			return err
		}
		<-block
		return nil
	}, &acpv2.TurnOptions{Replay: func(ctx context.Context, id acpv2.SessionID, from acpv2.ReplayFrom) error {
		return nil
	}})
	p.send(`{"jsonrpc":"2.0","id":5,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/w"}}`)
	p.expect(upd+`{"sessionUpdate":"state_update","state":"idle"}}}`, `{"jsonrpc":"2.0","id":5,"result":{}}`)
	p.send(promptHi)
	p.expect(acceptedHi, userHi, running, upd+`{"sessionUpdate":"session_info_update"}}}`)
	p.send(`{"jsonrpc":"2.0","id":6,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/w"}}`)
	p.expect(running, `{"jsonrpc":"2.0","id":6,"result":{}}`)
	p.send(`{"jsonrpc":"2.0","id":7,"method":"session/resume","params":{"sessionId":"nope","cwd":"/w"}}`)
	p.expect(`{"jsonrpc":"2.0","id":7,"error":{"code":-32002,"message":"Resource not found","data":{"sessionId":"nope"}}}`)
	p.send(`{"jsonrpc":"2.0","id":8,"method":"session/new","params":{"cwd":"/x"}}`)
	p.expect(`{"jsonrpc":"2.0","id":8,"result":{"sessionId":"sess_4"}}`)
	p.send(`{"jsonrpc":"2.0","id":9,"method":"session/list","params":{"cwd":"/w"}}`)
	p.expect(`{"jsonrpc":"2.0","id":9,"result":{"sessions":[{"sessionId":"sess_1","cwd":"/w"}]}}`)
	p.send(`{"jsonrpc":"2.0","id":10,"method":"session/close","params":{"sessionId":"sess_1"}}`)
	p.quiet(50 * time.Millisecond) // the turn has not ended yet
	close(block)
	p.expect(cancelled, `{"jsonrpc":"2.0","id":10,"result":{}}`)
	p.send(`{"jsonrpc":"2.0","id":11,"method":"session/list","params":{}}`)
	p.expect(`{"jsonrpc":"2.0","id":11,"result":{"sessions":[{"sessionId":"sess_4","cwd":"/x"}]}}`)
	p.send(`{"jsonrpc":"2.0","id":12,"method":"session/close","params":{"sessionId":"sess_1"}}`)
	p.expect(`{"jsonrpc":"2.0","id":12,"result":{}}`)
}

// TestTurnResumeReplay: the replay comes before the snapshot; a resume
// that asks for replay from the start of an agent without Replay replays
// what the runner retains, nothing for a session without a turn, and one
// that asks for another cursor is refused.
func TestTurnResumeReplay(t *testing.T) {
	var runner *acpv2.TurnRunner
	opts := &acpv2.TurnOptions{Replay: func(ctx context.Context, id acpv2.SessionID, from acpv2.ReplayFrom) error {
		if _, ok := from.Value.(*acpv2.ReplayFromStartVariant); !ok {
			return acpv2.NewInvalidParamsError(map[string]string{"details": "unsupported cursor"})
		}
		return runner.Update(ctx, id, acpv2.NewSessionUpdateUserMessage("old"))
	}}
	opts.NewID = counter()
	p := newWirePeer(t, func(w io.Writer, r io.Reader) interface{ Done() <-chan struct{} } {
		return acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
			runner = acpv2.NewTurnRunner(c, func(context.Context, *acpv2.Turn) error { return nil }, opts)
			return &turnAgent{TurnRunner: runner}
		}, w, r)
	})
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"1"}}}`)
	p.recv()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`)
	p.recv()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/w","replayFrom":{"type":"start"}}}`)
	p.expect(upd+`{"sessionUpdate":"user_message","messageId":"old"}}}`,
		upd+`{"sessionUpdate":"state_update","state":"idle"}}}`, `{"jsonrpc":"2.0","id":2,"result":{}}`)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/w","replayFrom":{"type":"_mine"}}}`)
	p.expect(`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params","data":{"details":"unsupported cursor"}}}`)

	plain := turnPeer(t, func(context.Context, *acpv2.Turn) error { return nil }, nil)
	plain.send(`{"jsonrpc":"2.0","id":2,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/w","replayFrom":{"type":"start"}}}`)
	plain.expect(upd+`{"sessionUpdate":"state_update","state":"idle"}}}`, `{"jsonrpc":"2.0","id":2,"result":{}}`)
	plain.send(`{"jsonrpc":"2.0","id":3,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/w","replayFrom":{"type":"_mine"}}}`)
	plain.expect(`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params","data":{"details":"this agent replays from the start only, not from a cursor of type _mine","path":"replayFrom"}}}`)
}

// halfAgent advertises capabilities.session without serving session/list
// and session/close.
type halfAgent struct{ sessionAgent }

func (halfAgent) ResumeSession(context.Context, *acpv2.ResumeSessionRequest) (*acpv2.ResumeSessionResponse, error) {
	return acpv2.NewResumeSessionResponse(), nil
}

func (halfAgent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	r := acpv2.NewInitializeResponse(2, testInfo)
	r.Capabilities = &acpv2.AgentCapabilities{Session: &acpv2.SessionCapabilities{}}
	return r, nil
}

// TestSessionContract: an agent that advertises capabilities.session and
// is not a SessionAgent has its initialize refused.
func TestSessionContract(t *testing.T) {
	var _ acpv2.SessionAgent = (*turnAgent)(nil)
	p := newWirePeer(t, func(w io.Writer, r io.Reader) interface{ Done() <-chan struct{} } {
		return acpv2.NewAgentSideConnection(&halfAgent{}, w, r)
	})
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"1"}}}`)
	p.expect(`{"jsonrpc":"2.0","id":0,"error":{"code":-32603,"message":"Internal error","data":{"details":"the agent advertises capabilities.session but does not serve session/list, session/close (it is not a SessionAgent)"}}}`)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`)
	if got := p.recv(); !strings.Contains(got, `"code":-32600`) {
		t.Errorf("session/new after the refused initialize: %s", got)
	}
}

// blockingClient answers permission requests only once their context
// ends, with an option selected: what Cancel and $/cancel_request must
// override.
type blockingClient struct {
	acpv2.SessionRouter
	asked chan struct{}
}

func (c *blockingClient) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	c.asked <- struct{}{}
	<-ctx.Done()
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeSelected("ok")), nil
}

// TestClientCancel: ActiveSession.Cancel sends session/cancel and answers
// the session's pending permission request cancelled; a permission request
// the agent cancels is answered cancelled too.
func TestClientCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := &blockingClient{asked: make(chan struct{}, 1)}
	var conn *acpv2.ClientSideConnection
	p := newWirePeer(t, func(w io.Writer, r io.Reader) interface{ Done() <-chan struct{} } {
		conn = acpv2.NewClientSideConnection(client, w, r)
		return conn
	})
	started := make(chan *acpv2.ActiveSession, 1)
	go func() {
		s, _, err := client.NewSession(ctx, conn, acpv2.NewNewSessionRequest("/w"))
		if err != nil {
			t.Error(err)
		}
		started <- s
	}()
	p.expect(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`)
	p.send(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_1"}}`)
	s := <-started
	p.send(askLine)
	<-client.asked
	if stop, err := s.Cancel(ctx); err != nil || stop != "" {
		t.Fatalf("Cancel with no state reported: %q, %v", stop, err)
	}
	p.expect(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"cancelled"}}}`)
	p.quiet(50 * time.Millisecond) // the handler's own answer is dropped

	p.send(strings.Replace(askLine, `"id":1`, `"id":2`, 1))
	<-client.asked
	p.send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":2}}`)
	p.expect(`{"jsonrpc":"2.0","id":2,"result":{"outcome":{"outcome":"cancelled"}}}`)
	p.quiet(50 * time.Millisecond)
}

// TestTurnRunnerWait: Wait returns once the turns of an ended connection
// have returned.
func TestTurnRunnerWait(t *testing.T) {
	var runner *acpv2.TurnRunner
	entered := make(chan struct{})
	in, w := io.Pipe()
	out, toPeer := io.Pipe()
	go io.Copy(io.Discard, out)
	conn := acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
		runner = acpv2.NewTurnRunner(c, func(ctx context.Context, turn *acpv2.Turn) error {
			close(entered)
			<-ctx.Done()
			return nil
		}, nil)
		return &turnAgent{TurnRunner: runner}
	}, toPeer, in)
	io.WriteString(w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"1"}}}`+"\n")
	res, err := runner.NewSession(context.Background(), acpv2.NewNewSessionRequest("/w"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(acpv2.NewPromptRequest(res.SessionID, []acpv2.ContentBlock{acpv2.NewContentBlockText("x")}))
	io.WriteString(w, `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":`+string(b)+"}\n")
	<-entered
	w.Close()
	<-conn.Done()
	runner.Wait()
	out.Close()
}

// TestTurnCancelBeforeInsert: a session/cancel read right after a prompt
// cancels that prompt whether or not its handler has inserted it: the
// prompt is refused -32800, or its turn (which waits for the cancel) ends
// cancelled, never end_turn.
func TestTurnCancelBeforeInsert(t *testing.T) {
	for i := 0; i < 20; i++ {
		p := turnPeer(t, func(ctx context.Context, turn *acpv2.Turn) error {
			select {
			case <-ctx.Done():
			case <-time.After(5 * time.Second):
			}
			return nil
		}, nil)
		p.send(promptHi + "\n" + `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`)
		switch got := p.recv(); got {
		case `{"jsonrpc":"2.0","id":2,"error":{"code":-32800,"message":"Request cancelled"}}`:
		case acceptedHi:
			p.expect(userHi, running, cancelled)
		default:
			t.Fatalf("after a prompt and a cancel: %s", got)
		}
	}
}

// TestTurnElicitation: requires_action while an elicitation waits, the
// action cancel once the turn is cancelled.
func TestTurnElicitation(t *testing.T) {
	got := make(chan string, 1)
	p := turnPeer(t, func(ctx context.Context, turn *acpv2.Turn) error {
		var req acpv2.CreateElicitationRequest
		if err := json.Unmarshal([]byte(`{"mode":"form","sessionId":"sess_1","message":"name?","requestedSchema":{"type":"object","properties":{}}}`), &req); err != nil {
			return err
		}
		r, err := turn.CreateElicitation(ctx, &req)
		if err != nil {
			return err
		}
		got <- r.Tag()
		return nil
	}, nil)
	p.send(promptHi)
	p.expect(acceptedHi, userHi, running, requires)
	if line := p.recv(); !strings.Contains(line, `"method":"elicitation/create"`) {
		t.Fatalf("want the elicitation, got %s", line)
	}
	p.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`)
	p.expect(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`, cancelled)
	if action := <-got; action != "cancel" {
		t.Errorf("action %q, want cancel", action)
	}
}

// writerFunc is an io.Writer made of a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// TestTurnCloseBeforeInsert: a prompt read before a session/close is
// refused -32800 or its turn ends cancelled; a prompt after it gets -32002.
func TestTurnCloseBeforeInsert(t *testing.T) {
	for i := 0; i < 10; i++ {
		p := turnPeer(t, func(ctx context.Context, turn *acpv2.Turn) error {
			<-ctx.Done()
			return nil
		}, nil)
		p.send(promptHi + "\n" + `{"jsonrpc":"2.0","id":9,"method":"session/close","params":{"sessionId":"sess_1"}}`)
		// The close is answered last: after the turn's idle update, and the
		// refused prompt's answer may come after it.
		var lines []string
		for len(lines) < 6 && !strings.Contains(strings.Join(lines, "\n"), `"id":9,"result":{}`) {
			lines = append(lines, p.recv())
		}
		all := strings.Join(lines, "\n")
		if !strings.Contains(all, acceptedHi) && !strings.Contains(all, `"id":2,"error":{"code":-32800`) {
			lines = append(lines, p.recv()) // the refusal, after the close's answer
			all = strings.Join(lines, "\n")
		}
		refused := strings.Contains(all, `"id":2,"error":{"code":-32800`)
		ran := strings.Contains(all, acceptedHi) && strings.Contains(all, cancelled)
		if refused == ran || !strings.Contains(all, `"id":9,"result":{}`) {
			t.Fatalf("after a prompt and a close:\n%s", all)
		}
		p.send(strings.Replace(promptHi, `"id":2`, `"id":10`, 1))
		p.expect(`{"jsonrpc":"2.0","id":10,"error":{"code":-32002,"message":"Resource not found","data":{"sessionId":"sess_1"}}}`)
	}
}
