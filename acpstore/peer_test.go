package acpstore_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// peer speaks JSON-RPC lines to an agent's connection over pipes, and
// keeps what the agent logged.
type peer struct {
	t     *testing.T
	w     *io.PipeWriter
	lines chan string
	log   *syncBuffer
}

// syncBuffer is a bytes.Buffer for the logger of a connection.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// newPeer starts the connection serve makes, given the logger it must
// use, and returns its peer; both end with the test.
func newPeer(t *testing.T, serve func(w io.Writer, r io.Reader, log *slog.Logger) interface{ Done() <-chan struct{} }) *peer {
	in, w := io.Pipe()
	out, toPeer := io.Pipe()
	p := &peer{t: t, w: w, lines: make(chan string, 4096), log: &syncBuffer{}}
	conn := serve(toPeer, in, slog.New(slog.NewTextHandler(p.log, nil)))
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

func (p *peer) send(format string, args ...any) {
	p.t.Helper()
	if _, err := fmt.Fprintf(p.w, format+"\n", args...); err != nil {
		p.t.Fatal(err)
	}
}

// recv returns the next line, failing after 10 s.
func (p *peer) recv() string {
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
func (p *peer) expect(want ...string) {
	p.t.Helper()
	for _, w := range want {
		if got := p.recv(); got != w {
			p.t.Fatalf("got  %s\nwant %s", got, w)
		}
	}
}

// until reads lines until one starts with prefix, and returns it.
func (p *peer) until(prefix string) string {
	p.t.Helper()
	for {
		if l := p.recv(); strings.HasPrefix(l, prefix) {
			return l
		}
	}
}

// counter returns ids prefix1, prefix2, … in order, across prefixes.
func counter(start int) func(string) string {
	var mu sync.Mutex
	n := start
	return func(prefix string) string {
		mu.Lock()
		defer mu.Unlock()
		n++
		return fmt.Sprint(prefix, n)
	}
}

type agentV2 struct{ *acpv2.TurnRunner }

func (agentV2) Initialize(context.Context, *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	r := acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "t", Version: "1"})
	r.Capabilities = &acpv2.AgentCapabilities{Session: &acpv2.SessionCapabilities{}}
	return r, nil
}

// peerV2 serves a v2 TurnRunner agent on store, whose turns run turn and
// whose ids count from idStart, and initializes it.
func peerV2(t *testing.T, store acpv2.SessionStore, idStart int, turn acpv2.TurnFunc) *peer {
	p := newPeer(t, func(w io.Writer, r io.Reader, log *slog.Logger) interface{ Done() <-chan struct{} } {
		return acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
			return agentV2{acpv2.NewTurnRunner(c, turn, &acpv2.TurnOptions{Store: store, NewID: counter(idStart)})}
		}, w, r, acpv2.WithLogger(log))
	})
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}`)
	p.until(`{"jsonrpc":"2.0","id":0,"result"`)
	return p
}

type agentV1 struct{ *acpv1.TurnRunner }

func (agentV1) Initialize(context.Context, *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	r := acpv1.NewInitializeResponse(1)
	r.AgentCapabilities = &acpv1.AgentCapabilities{LoadSession: acpv1.Ptr(true)}
	return r, nil
}

// peerV1 serves a v1 TurnRunner agent on store, and initializes it.
func peerV1(t *testing.T, store acpv1.SessionStore, idStart int, turn acpv1.TurnFunc) *peer {
	p := newPeer(t, func(w io.Writer, r io.Reader, log *slog.Logger) interface{ Done() <-chan struct{} } {
		return acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
			return agentV1{acpv1.NewTurnRunner(c, turn, &acpv1.TurnOptions{Store: store, NewID: counter(idStart)})}
		}, w, r, acpv1.WithLogger(log))
	})
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	p.until(`{"jsonrpc":"2.0","id":0,"result"`)
	return p
}

// echoV2 says each text block of the prompt.
func echoV2(ctx context.Context, t *acpv2.Turn) error {
	for _, b := range t.Request().Prompt {
		if text, ok := b.Value.(*acpv2.ContentBlockText); ok {
			if err := t.Say(ctx, text.Text); err != nil {
				return err
			}
		}
	}
	return nil
}

// echoV1 says each text block of the prompt.
func echoV1(ctx context.Context, t *acpv1.Turn) error {
	for _, b := range t.Request().Prompt {
		if text, ok := b.Value.(*acpv1.ContentBlockText); ok {
			if err := t.Say(ctx, text.Text); err != nil {
				return err
			}
		}
	}
	return nil
}

// consistent fails unless every session of the store in db has the
// history its record says, whole: positions Dropped+1 to Updates, each
// once (rows of n updates that do not overlap), and no history of a
// session the store does not have.
func consistent(t *testing.T, db *sql.DB) {
	t.Helper()
	rows, err := db.Query(`SELECT s.id, s.updates, s.dropped, coalesce(sum(h.n), 0), coalesce(min(h.seq), 0), coalesce(max(h.seq + h.n - 1), 0)
		FROM acp_sessions s LEFT JOIN acp_history h ON h.session_id = s.id GROUP BY s.id, s.updates, s.dropped`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var updates, dropped, n, lo, hi int64
		if err := rows.Scan(&id, &updates, &dropped, &n, &lo, &hi); err != nil {
			t.Fatal(err)
		}
		if n != updates-dropped || n > 0 && (lo != dropped+1 || hi != updates) {
			t.Errorf("session %s: record says updates %d, dropped %d; history has %d, positions %d..%d", id, updates, dropped, n, lo, hi)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var orphans int
	if err := db.QueryRow(`SELECT count(*) FROM acp_history WHERE session_id NOT IN (SELECT id FROM acp_sessions)`).Scan(&orphans); err != nil {
		t.Fatal(err)
	}
	if orphans != 0 {
		t.Errorf("%d updates of no session", orphans)
	}
}

// noInternals fails if a line the peer was sent names any of words.
func noInternals(t *testing.T, line string, words ...string) {
	t.Helper()
	for _, w := range words {
		if strings.Contains(line, w) {
			t.Errorf("the peer was sent %q: %s", w, line)
		}
	}
}
