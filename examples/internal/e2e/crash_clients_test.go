package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/node"
)

// The updates of the example agent's turn of the prompt "one", "two"
// that a load or resume after a crash replays, as the client reads them
// (the ids of the v2 messages aside).
const (
	crashUserV1   = `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"%s"}}`
	crashChunkV1  = `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%s"}}`
	interruptedV1 = `{"acp/turnState":{"state":"idle","interrupted":true}}`
)

// agentProc is examples/agent on a store, its stdin and stdout for a
// client connection.
type agentProc struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  io.Reader
	done chan struct{}
}

// startStoredAgent starts examples/agent on the store at path; it ends with the
// test, its stdin closed (or killed 10 s after).
func startStoredAgent(t *testing.T, path string) *agentProc {
	agent, _ := binaries(t)
	p := &agentProc{cmd: exec.Command(agent, "-store", path), done: make(chan struct{})}
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if p.out, err = p.cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.in.Close()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// kill9 kills the agent with SIGKILL and waits for its end.
func (p *agentProc) kill9(t *testing.T) {
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.done
}

// recorder is a client of either version that records the session
// updates it is sent, as JSON, and never answers a permission request:
// asked closes at the first.
type recorder struct {
	mu      sync.Mutex
	updates []string
	asked   chan struct{}
	once    sync.Once
}

func newRecorder() *recorder { return &recorder{asked: make(chan struct{})} }

func (r *recorder) record(u any) error {
	b, err := json.Marshal(u)
	r.mu.Lock()
	r.updates = append(r.updates, string(b))
	r.mu.Unlock()
	return err
}

func (r *recorder) ask(ctx context.Context) error {
	r.once.Do(func() { close(r.asked) })
	<-ctx.Done()
	return ctx.Err()
}

func (r *recorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.updates...)
}

type recorderV2 struct{ *recorder }

func (r recorderV2) UpdateSession(_ context.Context, p *acpv2.UpdateSessionNotification) error {
	return r.record(p.Update)
}

func (r recorderV2) RequestPermission(ctx context.Context, _ *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return nil, r.ask(ctx)
}

type recorderV1 struct{ *recorder }

func (r recorderV1) SessionUpdate(_ context.Context, p *acpv1.SessionNotification) error {
	return r.record(p.Update)
}

func (r recorderV1) RequestPermission(ctx context.Context, _ *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return nil, r.ask(ctx)
}

func waitAsked(t *testing.T, r *recorder) {
	select {
	case <-r.asked:
	case <-time.After(10 * time.Second):
		t.Fatal("no permission request in 10 s")
	}
}

// sameUpdates fails unless got and want are the same updates, in order.
func sameUpdates(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d updates, want %d:\n%s\nwant\n%s", what, len(got), len(want), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range got {
		if !jsonEqual(got[i], want[i]) {
			t.Fatalf("%s: update %d is\n%s\nwant\n%s", what, i, got[i], want[i])
		}
	}
}

// withoutStates is updates without the state updates, which a resume
// does not replay (it sends the current state instead).
func withoutStates(updates []string) (out []string) {
	for _, u := range updates {
		if !strings.Contains(u, `"sessionUpdate":"state_update"`) {
			out = append(out, u)
		}
	}
	return out
}

// TestCrashGoClientV2 kills the agent (kill -9) while a turn waits on its
// permission request and resumes the session with acpgen's v2 client on
// a new agent on the same store: every update the client was sent before
// the kill comes back, in order, then the idle state update that says the
// turn was interrupted.
func TestCrashGoClientV2(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	a, rec := startStoredAgent(t, path), newRecorder()
	conn := acpv2.NewClientSideConnection(recorderV2{rec}, a.in, a.out)
	if _, err := conn.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "crash", Version: "1"})); err != nil {
		t.Fatal(err)
	}
	s, err := conn.NewSession(ctx, acpv2.NewNewSessionRequest("/tmp"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Prompt(ctx, acpv2.NewPromptRequest(s.SessionID, []acpv2.ContentBlock{
		acpv2.NewContentBlockText("one"), acpv2.NewContentBlockText("two")})); err != nil {
		t.Fatal(err)
	}
	waitAsked(t, rec) // the requires_action before it is committed, and all before it
	sent := rec.seen()
	a.kill9(t)

	b, again := startStoredAgent(t, filepath.Clean(path)), newRecorder()
	conn2 := acpv2.NewClientSideConnection(recorderV2{again}, b.in, b.out)
	if _, err := conn2.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "crash", Version: "1"})); err != nil {
		t.Fatal(err)
	}
	req := acpv2.NewResumeSessionRequest(s.SessionID, "/tmp")
	req.ReplayFrom = acpv2.Ptr(acpv2.NewReplayFromStartVariant())
	if _, err := conn2.ResumeSession(ctx, req); err != nil {
		t.Fatal(err)
	}
	sameUpdates(t, "the resume after the crash", again.seen(), append(withoutStates(sent), interruptedV2))
	if len(sent) < 5 {
		t.Fatalf("the client was sent %d updates before the kill, want the user message, running, two chunks, requires_action", len(sent))
	}
}

// TestCrashGoClientV1 is TestCrashGoClientV2 in v1 with session/load: the
// prompt and the updates sent before the kill come back, and the load's
// answer says in _meta "acp/turnState" that the turn was interrupted.
func TestCrashGoClientV1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	a, rec := startStoredAgent(t, path), newRecorder()
	conn := acpv1.NewClientSideConnection(recorderV1{rec}, a.in, a.out)
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	s, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest("/tmp", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	go conn.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{
		acpv1.NewContentBlockText("one"), acpv1.NewContentBlockText("two")}))
	waitAsked(t, rec)
	sent := rec.seen()
	waitHistory(t, path, 2+len(sent)) // the prompt's two blocks and what was sent, committed
	a.kill9(t)

	b, again := startStoredAgent(t, path), newRecorder()
	conn2 := acpv1.NewClientSideConnection(recorderV1{again}, b.in, b.out)
	if _, err := conn2.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	res, err := conn2.LoadSession(ctx, acpv1.NewLoadSessionRequest(s.SessionID, "/tmp", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	want := append([]string{sprintf(crashUserV1, "one"), sprintf(crashUserV1, "two")}, sent...)
	sameUpdates(t, "the load after the crash", again.seen(), want)
	if !jsonEqual(string(res.Meta), interruptedV1) {
		t.Fatalf("the load's _meta: %s, want %s", res.Meta, interruptedV1)
	}
	if len(sent) != 2 || !jsonEqual(sent[1], sprintf(crashChunkV1, "two")) {
		t.Fatalf("before the kill the client was sent %q, want the two chunks", sent)
	}
}

func sprintf(format, s string) string { return strings.Replace(format, "%s", s, 1) }

// TestCrashTypeScriptClient runs the TypeScript SDK's client
// (interop/crash_resume.mjs) in both versions against examples/agent on a
// store: kill -9 while the turn waits on its permission request, a new
// agent on the same store, then the resume (v2) or load (v1) replays every
// update the client was sent before the kill and says the turn was
// interrupted.
func TestCrashTypeScriptClient(t *testing.T) {
	nodeBin := node.Require(t)
	agent, _ := binaries(t)
	for _, version := range []string{"1", "2"} {
		path := filepath.Join(t.TempDir(), "sessions.db")
		cmd := exec.Command(nodeBin, filepath.Join(node.Dir(), "crash_resume.mjs"), version, agent, "-store", path)
		in, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(stdout)
		lines.Buffer(nil, 1<<20)
		if !lines.Scan() || lines.Text() != `{"asked":true}` {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("v%s: the TypeScript client printed %q before the kill\n%s", version, lines.Text(), stderr.String())
		}
		var got struct {
			Sent, Replay []json.RawMessage
			Answer       struct {
				Meta json.RawMessage `json:"_meta"`
			}
		}
		if version == "1" {
			waitHistory(t, path, 4) // the prompt's two blocks and their two echoes
		}
		io.WriteString(in, "kill\n")
		ok := lines.Scan() && json.Unmarshal(lines.Bytes(), &got) == nil
		in.Close()
		if err := cmd.Wait(); err != nil || !ok {
			t.Fatalf("v%s: the TypeScript client: %v, printed %s\n%s", version, err, lines.Text(), stderr.String())
		}
		var sent, replay []string
		for _, u := range got.Sent {
			sent = append(sent, string(u))
		}
		for _, u := range got.Replay {
			replay = append(replay, string(u))
		}
		if version == "2" {
			sameUpdates(t, "v2 resume", replay, append(withoutStates(sent), interruptedV2))
			continue
		}
		sameUpdates(t, "v1 load", replay, append([]string{sprintf(crashUserV1, "one"), sprintf(crashUserV1, "two")}, sent...))
		if !jsonEqual(string(got.Answer.Meta), interruptedV1) {
			t.Fatalf("v1: the load's _meta: %s, want %s", got.Answer.Meta, interruptedV1)
		}
	}
}
