package acpstore_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/acpgen/acpgen/acpstore"
	"github.com/acpgen/acpgen/acpstore/sqlitestore"
)

// version1 rewrites the history of the SQLite store at path as schema
// version 1 kept it, a row per update (its table as version 1 made it),
// and marks the store as of version 1. histories are the updates of each
// session.
func version1(t *testing.T, path string, histories map[string][]string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	stmts := []string{`DROP TABLE acp_history`,
		`CREATE TABLE acp_history (
			session_id TEXT NOT NULL,
			seq INTEGER NOT NULL,
			body BLOB NOT NULL,
			PRIMARY KEY (session_id, seq)
		)`,
		`UPDATE acp_store_schema SET version = 1`}
	for _, stmt := range stmts {
		if _, err := tx.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	for id, updates := range histories {
		for i, u := range updates {
			if _, err := tx.Exec(`INSERT INTO acp_history (session_id, seq, body) VALUES (?, ?, ?)`, id, i+1, []byte(u)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestResumeVersion1: a SQLite store written by schema version 1 (a row
// per update) is migrated when a new program opens it, and a v2 client's
// session/resume and a v1 client's session/load on it replay every
// update, in order, as the old program sent them.
func TestResumeVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	store, err := sqlitestore.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := peerV2(t, store.V2(), 0, echoV2)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`)
	p.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_1"}}`)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"a"},{"type":"text","text":"b"},{"type":"text","text":"c"}]}}`)
	p.until(upd1 + `{"sessionUpdate":"state_update","state":"idle"`)
	v1 := peerV1(t, store.V1(), 10, echoV1)
	v1.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`)
	v1.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_11"}}`)
	v1.send(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess_11","prompt":[{"type":"text","text":"d"},{"type":"text","text":"e"}]}}`)
	v1.until(`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`)
	histories := map[string][]string{}
	for _, id := range []string{"sess_1", "sess_11"} {
		err := store.History(ctx, id, func(_ uint64, u []byte) error {
			histories[id] = append(histories[id], string(u))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(histories["sess_1"]) < 4 || len(histories["sess_11"]) < 3 {
		t.Fatalf("histories before the downgrade: %q", histories)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	version1(t, path, histories)

	store, err = sqlitestore.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var version int
	if err := store.DB().QueryRow(`SELECT version FROM acp_store_schema`).Scan(&version); err != nil || version != acpstore.SchemaVersion {
		t.Fatalf("schema version after Open: %d %v, want %d", version, err, acpstore.SchemaVersion)
	}
	replayed := func(id string) []string {
		var lines []string
		for _, u := range histories[id] {
			lines = append(lines, `{"jsonrpc":"2.0","method":"session/update","params":`+u+`}`)
		}
		return lines
	}
	q := peerV2(t, store.V2(), 100, echoV2)
	q.send(`{"jsonrpc":"2.0","id":1,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/w","replayFrom":{"type":"start"}}}`)
	q.expect(append(replayed("sess_1"), upd1+`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`)...)
	w1 := peerV1(t, store.V1(), 100, echoV1)
	w1.send(`{"jsonrpc":"2.0","id":1,"method":"session/load","params":{"sessionId":"sess_11","cwd":"/w","mcpServers":[]}}`)
	w1.expect(append(replayed("sess_11"), `{"jsonrpc":"2.0","id":1,"result":{}}`)...)
	consistent(t, store.DB())
}
