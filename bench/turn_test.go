package bench

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/cputime"
)

// The turn runtimes against the connection they drive (raw: the
// connection alone; history: a TurnRunner with its default history;
// nohistory: one whose store keeps no history): one op is one
// agent_message_chunk sent by an agent, either by Turn.Say inside a turn
// of a TurnRunner or by the connection's own session/update method, the
// way an agent without the runtime sends it. The agent writes to a sink
// that counts lines and reads nothing back, so that the op is what the
// agent pays: the runtime's cost over the connection is the ratio of the
// two. The runners run with their default history (a MemoryStore) and
// without one (a store that keeps records only).

// chunkText is the text of each chunk: a model's output arrives a few
// words at a time.
const chunkText = "Let me look at the failing test and the code it covers first. "

// lineSink is the agent's output: it counts the lines written to it.
type lineSink struct {
	mu   sync.Mutex
	cond *sync.Cond
	n    int
}

func newLineSink() *lineSink {
	s := &lineSink{}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *lineSink) Write(p []byte) (int, error) {
	n := 0
	for _, c := range p {
		if c == '\n' {
			n++
		}
	}
	s.mu.Lock()
	s.n += n
	s.mu.Unlock()
	s.cond.Broadcast()
	return len(p), nil
}

// waitFor waits until n lines have been written in all.
func (s *lineSink) waitFor(n int) {
	s.mu.Lock()
	for s.n < n {
		s.cond.Wait()
	}
	s.mu.Unlock()
}

// wireIn is an agent's input: the lines a client would write.
type wireIn struct {
	r *io.PipeReader
	w *io.PipeWriter
}

func newWireIn() *wireIn {
	r, w := io.Pipe()
	return &wireIn{r, w}
}

func (in *wireIn) send(b *testing.B, line string) {
	if _, err := io.WriteString(in.w, line+"\n"); err != nil {
		b.Fatal(err)
	}
}

// historyOff is a SessionStore that keeps the sessions' records and no
// history: the runner without the cost of keeping one.
type historyOff struct {
	mu   sync.Mutex
	recs map[string]uint64
}

func (h *historyOff) save(id string, rev *uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.recs == nil {
		h.recs = map[string]uint64{}
	}
	*rev++
	h.recs[id] = *rev
}

type historyOffV1 struct{ historyOff }

func (h *historyOffV1) Save(_ context.Context, rec *acpv1.SessionRecord, _ ...json.RawMessage) error {
	h.save(string(rec.ID), &rec.Revision)
	return nil
}
func (h *historyOffV1) Load(context.Context, acpv1.SessionID) (*acpv1.SessionRecord, error) {
	return nil, acpv1.ErrSessionNotStored
}
func (h *historyOffV1) History(context.Context, acpv1.SessionID, func(uint64, json.RawMessage) error) error {
	return nil
}
func (h *historyOffV1) List(context.Context, acpv1.SessionQuery) ([]acpv1.SessionRecord, string, error) {
	return nil, "", nil
}
func (h *historyOffV1) Delete(context.Context, acpv1.SessionID) error { return nil }

type historyOffV2 struct{ historyOff }

func (h *historyOffV2) Save(_ context.Context, rec *acpv2.SessionRecord, _ ...json.RawMessage) error {
	h.save(string(rec.ID), &rec.Revision)
	return nil
}
func (h *historyOffV2) Load(context.Context, acpv2.SessionID) (*acpv2.SessionRecord, error) {
	return nil, acpv2.ErrSessionNotStored
}
func (h *historyOffV2) History(context.Context, acpv2.SessionID, func(uint64, json.RawMessage) error) error {
	return nil
}
func (h *historyOffV2) List(context.Context, acpv2.SessionQuery) ([]acpv2.SessionRecord, string, error) {
	return nil, "", nil
}
func (h *historyOffV2) Delete(context.Context, acpv2.SessionID) error { return nil }

// sayN is a turn's work in the benchmarks: n chunks said.
func sayN(n *int, say func(ctx context.Context) error) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		for range *n {
			if err := say(ctx); err != nil {
				return err
			}
		}
		return nil
	}
}

// ids returns ids prefix1, prefix2, … in order.
func ids() func(string) string {
	var mu sync.Mutex
	n := 0
	return func(prefix string) string {
		mu.Lock()
		defer mu.Unlock()
		n++
		return prefix + strconv.Itoa(n)
	}
}

type turnAgentV1 struct{ *acpv1.TurnRunner }

func (turnAgentV1) Initialize(context.Context, *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

type rawAgentV2 struct{}

func (rawAgentV2) Initialize(context.Context, *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "bench", Version: "1"}), nil
}
func (rawAgentV2) CancelSession(context.Context, *acpv2.CancelSessionNotification) error { return nil }
func (rawAgentV2) NewSession(context.Context, *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return acpv2.NewNewSessionResponse("sess_1"), nil
}
func (rawAgentV2) Prompt(context.Context, *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	return acpv2.NewPromptResponse("msg_1"), nil
}

type turnAgentV2 struct {
	*acpv2.TurnRunner
	rawAgentV2
}

func (a turnAgentV2) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return a.rawAgentV2.Initialize(ctx, p)
}
func (a turnAgentV2) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	return a.TurnRunner.CancelSession(ctx, p)
}
func (a turnAgentV2) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return a.TurnRunner.NewSession(ctx, p)
}
func (a turnAgentV2) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	return a.TurnRunner.Prompt(ctx, p)
}

const (
	initV1   = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`
	newV1    = `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`
	promptV1 = `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"hi"}]}}`
	initV2   = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"1"}}}`
	newV2    = `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`
	promptV2 = promptV1
)

// turnCase is one way an agent sends its chunks: run sends b.N of them
// and returns once all are written.
type turnCase struct {
	name string
	run  func(b *testing.B)
}

var turnCases = []turnCase{
	{"v1/raw", rawV1},
	{"v1/history", func(b *testing.B) { runnerV1(b, nil) }},
	{"v1/nohistory", func(b *testing.B) { runnerV1(b, &historyOffV1{}) }},
	{"v2/raw", rawV2},
	{"v2/history", func(b *testing.B) { runnerV2(b, nil) }},
	{"v2/nohistory", func(b *testing.B) { runnerV2(b, &historyOffV2{}) }},
}

func rawV1(b *testing.B) {
	in, out := newWireIn(), newLineSink()
	conn := acpv1.NewAgentSideConnection(genAgent{}, out, in.r)
	defer func() { in.w.Close(); <-conn.Done() }()
	in.send(b, initV1)
	out.waitFor(1)
	ctx := context.Background()
	measured(b, func() {
		for range b.N {
			n := acpv1.NewSessionNotification("sess_1", acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText(chunkText)))
			if err := conn.SessionUpdate(ctx, n); err != nil {
				b.Fatal(err)
			}
		}
		out.waitFor(1 + b.N)
	})
}

func runnerV1(b *testing.B, store acpv1.SessionStore) {
	in, out := newWireIn(), newLineSink()
	n := b.N
	conn := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		return turnAgentV1{acpv1.NewTurnRunner(c, func(ctx context.Context, t *acpv1.Turn) error {
			return sayN(&n, func(ctx context.Context) error { return t.Say(ctx, chunkText) })(ctx)
		}, &acpv1.TurnOptions{Store: store, NewID: ids()})}
	}, out, in.r)
	defer func() { in.w.Close(); <-conn.Done() }()
	in.send(b, initV1)
	in.send(b, newV1)
	out.waitFor(2)
	measured(b, func() {
		in.send(b, promptV1)
		out.waitFor(2 + b.N + 1) // the chunks and the prompt's answer
	})
}

func rawV2(b *testing.B) {
	in, out := newWireIn(), newLineSink()
	conn := acpv2.NewAgentSideConnection(rawAgentV2{}, out, in.r)
	defer func() { in.w.Close(); <-conn.Done() }()
	in.send(b, initV2)
	out.waitFor(1)
	ctx := context.Background()
	measured(b, func() {
		for range b.N {
			n := acpv2.NewUpdateSessionNotification("sess_1", acpv2.NewSessionUpdateAgentMessageChunk("msg_3", acpv2.NewContentBlockText(chunkText)))
			if err := conn.UpdateSession(ctx, n); err != nil {
				b.Fatal(err)
			}
		}
		out.waitFor(1 + b.N)
	})
}

func runnerV2(b *testing.B, store acpv2.SessionStore) {
	in, out := newWireIn(), newLineSink()
	n := b.N
	conn := acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
		return turnAgentV2{TurnRunner: acpv2.NewTurnRunner(c, func(ctx context.Context, t *acpv2.Turn) error {
			return sayN(&n, func(ctx context.Context) error { return t.Say(ctx, chunkText) })(ctx)
		}, &acpv2.TurnOptions{Store: store, NewID: ids()})}
	}, out, in.r)
	defer func() { in.w.Close(); <-conn.Done() }()
	in.send(b, initV2)
	in.send(b, newV2)
	out.waitFor(2)
	measured(b, func() {
		in.send(b, promptV2)
		// The answer, the user message, running, the chunks and idle.
		out.waitFor(2 + 3 + b.N + 1)
	})
}

// measured runs body, which does b.N ops, and reports the CPU time per
// op beside the wall time, as run does.
func measured(b *testing.B, body func()) {
	b.ReportAllocs()
	b.ResetTimer()
	start := cputime.Process()
	body()
	b.StopTimer()
	if used := cputime.Process() - start; used > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkTurnSay sends agent_message_chunk updates through a turn
// runtime and through the bare connection: one op is one chunk sent.
func BenchmarkTurnSay(b *testing.B) {
	for _, c := range turnCases {
		b.Run(c.name, c.run)
	}
}
