package acpstore_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpstore"
	"github.com/acpgen/acpgen/acpstore/pgstore"
	"github.com/acpgen/acpgen/acpstore/sqlitestore"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/pgtest"
)

const upd1 = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":`

// streamV2 streams chunks "chunk 0", "chunk 1", … until a Say fails, for
// a prompt "stream"; it echoes any other.
func streamV2(ctx context.Context, t *acpv2.Turn) error {
	text, _ := t.Request().Prompt[0].Value.(*acpv2.ContentBlockText)
	if text == nil || text.Text != "stream" {
		return echoV2(ctx, t)
	}
	for i := 0; ; i++ {
		if err := t.Say(ctx, fmt.Sprint("chunk ", i)); err != nil {
			return err
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestPostgresGoneMidTurn stops the Postgres server of the store while a
// turn streams. The store is shared by every session: while it is down,
// the turn fails with a clear error (stop reason error, "the session
// store failed", no host, path or driver text: that is in the agent's
// log), a read answers the same, and the connection and its sessions
// live on: once the server is back, another session's turn and a resume
// of the failed one work, and the database holds every session's history
// whole. A v1 prompt whose turn the store fails is answered the error.
func TestPostgresGoneMidTurn(t *testing.T) {
	server := pgtest.Start(t)
	ctx := context.Background()
	store, err := pgstore.Open(ctx, server.DSN, &acpstore.Options{RetryInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	p := peerV2(t, store.V2(), 0, streamV2)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`)
	p.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_1"}}`)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w"}}`)
	p.expect(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"sess_2"}}`)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"stream"}]}}`)
	p.until(upd1 + `{"sessionUpdate":"agent_message_chunk","messageId":"msg_4","content":{"type":"text","text":"chunk 5"}}}}`)
	server.Stop()
	idle := p.until(upd1 + `{"sessionUpdate":"state_update","state":"idle"`)
	want := upd1 + `{"sessionUpdate":"state_update","state":"idle","stopReason":"error","error":{"code":-32603,"message":"Internal error","data":{"details":"the session store failed"}}}}}`
	if idle != want {
		t.Fatalf("the turn ended with\n%s\nwant\n%s", idle, want)
	}
	internals := []string{server.Dir, "postgres", "SQL", "acpstore", "dial", "connect"}
	p.send(`{"jsonrpc":"2.0","id":4,"method":"session/list","params":{}}`)
	list := p.recv()
	if list != `{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"Internal error","data":{"details":"the session store failed"}}}` {
		t.Fatalf("session/list while the store is down: %s", list)
	}
	// A turn of another session fails at its start, and says so.
	p.send(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"sess_2","prompt":[{"type":"text","text":"down"}]}}`)
	p.expect(`{"jsonrpc":"2.0","id":5,"result":{"messageId":"msg_5"}}`)
	other := p.until(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_2","update":{"sessionUpdate":"state_update","state":"idle"`)
	if want2 := strings.ReplaceAll(want, "sess_1", "sess_2"); other != want2 {
		t.Fatalf("a turn of another session while the store is down ended with\n%s\nwant\n%s", other, want2)
	}
	noInternals(t, idle+list+other, internals...)
	if log := p.log.String(); !strings.Contains(log, "the session store failed") || !strings.Contains(log, server.Dir) {
		t.Fatalf("the agent's log does not have the store's error and its text:\n%s", log)
	}

	server.Restart(t)
	flushAfterRestart(t, store)
	p.send(`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"sess_2","prompt":[{"type":"text","text":"after"}]}}`)
	p.until(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_2","update":{"sessionUpdate":"agent_message_chunk"`)
	p.expect(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_2","update":{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}}}`)
	// The failed session resumes with what was stored of it: its user
	// message and its first chunks, in order, none missing in between.
	p.send(`{"jsonrpc":"2.0","id":8,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/w","replayFrom":{"type":"start"}}}`)
	p.expect(upd1 + `{"sessionUpdate":"user_message","messageId":"msg_3","content":[{"type":"text","text":"stream"}]}}}`)
	if n := replayedChunks(t, p, want); n < 6 {
		t.Fatalf("the resume replayed %d chunks, want at least the 6 sent before the server stopped", n)
	}
	p.expect(`{"jsonrpc":"2.0","id":8,"result":{}}`)
	consistent(t, store.DB())

	// v1: the prompt is answered with the same error.
	v1 := peerV1(t, store.V1(), 10, streamV1)
	v1.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`)
	v1.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_11"}}`)
	v1.send(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess_11","prompt":[{"type":"text","text":"stream"}]}}`)
	v1.until(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_11","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"chunk 5"}}}}`)
	server.Stop()
	answer := v1.until(`{"jsonrpc":"2.0","id":2,`)
	if answer != `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"Internal error","data":{"details":"the session store failed"}}}` {
		t.Fatalf("v1: the prompt while the store is down was answered %s", answer)
	}
	server.Restart(t)
	flushAfterRestart(t, store)
	consistent(t, store.DB())
}

// flushAfterRestart waits until store commits again the writes queued
// before its server went away.
func flushAfterRestart(t *testing.T, store *acpstore.Store) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for store.Flush(context.Background()) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the store did not write again within 20 s of the server's restart")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// replayedChunks reads the chunks a resume replays, in order from chunk 0,
// up to the line that ends them, which must be end, and returns how many
// there were.
func replayedChunks(t *testing.T, p *peer, end string) int {
	t.Helper()
	for n := 0; ; n++ {
		l := p.recv()
		if !strings.Contains(l, `"agent_message_chunk"`) {
			if l != end {
				t.Fatalf("after %d chunks the resume sent %s", n, l)
			}
			return n
		}
		if !strings.Contains(l, fmt.Sprintf(`"text":"chunk %d"`, n)) {
			t.Fatalf("replayed chunk %d: %s", n, l)
		}
	}
}

// streamV1 is streamV2 in v1.
func streamV1(ctx context.Context, t *acpv1.Turn) error {
	text, _ := t.Request().Prompt[0].Value.(*acpv1.ContentBlockText)
	if text == nil || text.Text != "stream" {
		return echoV1(ctx, t)
	}
	for i := 0; ; i++ {
		if err := t.Say(ctx, fmt.Sprint("chunk ", i)); err != nil {
			return err
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestHistoryPastBound: a store bounded to 3 updates keeps the newest 3;
// a resume (v2) or load (v1) on another connection replays them and says
// in its answer's _meta how many older ones were dropped.
func TestHistoryPastBound(t *testing.T) {
	store, err := sqlitestore.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"), &acpstore.Options{MaxUpdates: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	chunk := func(msg, text string) string {
		return upd1 + `{"sessionUpdate":"agent_message_chunk","messageId":"` + msg + `","content":{"type":"text","text":"` + text + `"}}}}`
	}
	prompt := `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[` +
		`{"type":"text","text":"a"},{"type":"text","text":"b"},{"type":"text","text":"c"},{"type":"text","text":"d"},{"type":"text","text":"e"}]}}`
	p := peerV2(t, store.V2(), 0, echoV2)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`)
	p.recv()
	p.send(prompt)
	p.until(upd1 + `{"sessionUpdate":"state_update","state":"idle"`)
	q := peerV2(t, store.V2(), 100, echoV2)
	q.send(`{"jsonrpc":"2.0","id":1,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/w","replayFrom":{"type":"start"}}}`)
	q.expect(chunk("msg_3", "c"), chunk("msg_3", "d"), chunk("msg_3", "e"),
		upd1+`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"_meta":{"acpgen.dev/historyDropped":3}}}`)

	// v1, in session sess_11 of the same store.
	v1 := peerV1(t, store.V1(), 10, echoV1)
	v1.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`)
	v1.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_11"}}`)
	v1.send(strings.ReplaceAll(prompt, "sess_1", "sess_11"))
	v1.until(`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`)
	w1 := peerV1(t, store.V1(), 100, echoV1)
	w1.send(`{"jsonrpc":"2.0","id":1,"method":"session/load","params":{"sessionId":"sess_11","cwd":"/w","mcpServers":[]}}`)
	for _, text := range []string{"c", "d", "e"} {
		w1.expect(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_11","update":` +
			`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + text + `"}}}}`)
	}
	w1.expect(`{"jsonrpc":"2.0","id":1,"result":{"_meta":{"acpgen.dev/historyDropped":7}}}`)
	consistent(t, store.DB())
}

// TestNotTheStoresSession: requests for a session id the store does not
// have (unknown, shaped as SQL, very long, or a session of the other
// protocol version) are answered -32002 with the id, and write nothing.
func TestNotTheStoresSession(t *testing.T) {
	store, err := sqlitestore.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	v1 := peerV1(t, store.V1(), 10, echoV1)
	v1.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`)
	v1.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_11"}}`)
	p := peerV2(t, store.V2(), 0, echoV2)
	ids := []string{"sess_nope", `x'); DROP TABLE acp_sessions; --`, strings.Repeat("s", 10000), "sess_11"}
	for i, id := range ids {
		quoted := strings.ReplaceAll(id, `"`, `\"`)
		notFound := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32002,"message":"Resource not found","data":{"sessionId":"%s"}}}`, 10+i, quoted)
		p.send(`{"jsonrpc":"2.0","id":%d,"method":"session/resume","params":{"sessionId":"%s","cwd":"/w","replayFrom":{"type":"start"}}}`, 10+i, quoted)
		p.expect(notFound)
		p.send(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"%s","prompt":[{"type":"text","text":"hi"}]}}`, 10+i, quoted)
		p.expect(notFound)
		if id == "sess_11" {
			continue
		}
		v1.send(`{"jsonrpc":"2.0","id":%d,"method":"session/load","params":{"sessionId":"%s","cwd":"/w","mcpServers":[]}}`, 10+i, quoted)
		v1.expect(notFound)
	}
	var sessions, updates int
	if err := store.DB().QueryRow(`SELECT (SELECT count(*) FROM acp_sessions), (SELECT coalesce(sum(n), 0) FROM acp_history)`).Scan(&sessions, &updates); err != nil {
		t.Fatal(err)
	}
	if sessions != 1 || updates != 0 {
		t.Fatalf("after the requests the store has %d sessions and %d updates, want the one session created", sessions, updates)
	}
	consistent(t, store.DB())
}
