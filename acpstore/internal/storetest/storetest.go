// Package storetest is the test suite every backend of acpstore passes.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpstore"
)

// Opener opens the backend's store at one place (a file, a database):
// every call for one test opens the same data, as another process would.
type Opener func(opts *acpstore.Options) (*acpstore.Store, error)

// open opens the store of o, closed when t ends.
func (o Opener) open(t *testing.T, opts *acpstore.Options) *acpstore.Store {
	t.Helper()
	s, err := o(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Run runs the suite; fresh returns the opener of a new, empty place.
func Run(t *testing.T, fresh func(t *testing.T) Opener) {
	tests := []struct {
		name string
		f    func(t *testing.T, open Opener)
	}{
		{"RoundTrip", roundTrip},
		{"Reopen", reopen},
		{"Conflict", conflict},
		{"Bounds", bounds},
		{"List", list},
		{"Delete", deleteSession},
		{"NewerSchema", newerSchema},
		{"Rows", rows},
		{"OldSchema", oldSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.f(t, fresh(t)) })
	}
}

var ctx = context.Background()

// update is the JSON of a session update as a runner sent it: the store
// keeps it byte for byte, spaces and key order included.
func update(id string, i int) []byte {
	return fmt.Appendf(nil, `{"sessionId":"%s", "update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"chunk %d"}}}`, id, i)
}

func newRecord(id string) *acpstore.Record {
	return &acpstore.Record{ID: id, Protocol: 2, Cwd: "/work", UpdatedAt: "2026-01-01T00:00:00Z", Created: time.Now(),
		MCPServers: []byte(`[]`), Meta: []byte(`{"k": 1}`)}
}

func history(t *testing.T, s *acpstore.Store, id string) (seqs []uint64, bodies []string) {
	t.Helper()
	err := s.History(ctx, id, func(seq uint64, u []byte) error {
		seqs, bodies = append(seqs, seq), append(bodies, string(u))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return seqs, bodies
}

func roundTrip(t *testing.T, open Opener) {
	s := open.open(t, nil)
	rec := newRecord("sess_a")
	if err := s.Save(ctx, rec, nil, false); err != nil {
		t.Fatal(err)
	}
	if rec.Revision != 1 {
		t.Fatalf("revision after the first save = %d, want 1", rec.Revision)
	}
	for i := range 50 {
		if err := s.Save(ctx, rec, [][]byte{update("sess_a", i)}, false); err != nil {
			t.Fatal(err)
		}
	}
	title := "a title"
	rec.Title, rec.TurnState, rec.TurnStop = &title, "ended", []byte(`{"stopReason":"end_turn"}`)
	if err := s.Save(ctx, rec, nil, true); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, "sess_a")
	if err != nil {
		t.Fatal(err)
	}
	if got.Revision != 52 || got.Updates != 50 || got.Title == nil || *got.Title != title || string(got.Meta) != `{"k": 1}` ||
		got.TurnState != "ended" || string(got.TurnStop) != `{"stopReason":"end_turn"}` || got.Cwd != "/work" {
		t.Fatalf("loaded %+v", got)
	}
	seqs, bodies := history(t, s, "sess_a")
	if len(seqs) != 50 || seqs[0] != 1 || seqs[49] != 50 || bodies[7] != string(update("sess_a", 7)) {
		t.Fatalf("history: %d updates, %v…", len(seqs), seqs[:min(3, len(seqs))])
	}
	if _, err := s.Load(ctx, "sess_none"); !errors.Is(err, acpstore.ErrNotStored) {
		t.Fatalf("Load of an unknown session: %v, want ErrNotStored", err)
	}
	if err := s.History(ctx, "sess_none", func(uint64, []byte) error { return nil }); !errors.Is(err, acpstore.ErrNotStored) {
		t.Fatalf("History of an unknown session: %v, want ErrNotStored", err)
	}
}

func reopen(t *testing.T, open Opener) {
	s := open.open(t, nil)
	rec := newRecord("sess_r")
	for i := range 20 {
		if err := s.Save(ctx, rec, [][]byte{update("sess_r", i)}, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(ctx, rec, nil, false); !errors.Is(err, acpstore.ErrClosed) {
		t.Fatalf("Save after Close: %v, want ErrClosed", err)
	}
	s2 := open.open(t, nil)
	seqs, _ := history(t, s2, "sess_r")
	if len(seqs) != 20 {
		t.Fatalf("after a reopen the history has %d updates, want the 20 saved before Close", len(seqs))
	}
}

// conflict: two stores (two processes) serve one session; the second
// writer over a stale revision gets ErrConflict and writes nothing.
func conflict(t *testing.T, open Opener) {
	a, b := open.open(t, nil), open.open(t, nil)
	rec := newRecord("sess_c")
	if err := a.Save(ctx, rec, [][]byte{update("sess_c", 0)}, true); err != nil {
		t.Fatal(err)
	}
	recB, err := b.Load(ctx, "sess_c")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Save(ctx, rec, [][]byte{update("sess_c", 1)}, true); err != nil {
		t.Fatal(err)
	}
	// b writes over the revision it read: the loser.
	err = b.Save(ctx, recB, [][]byte{[]byte(`{"from":"b"}`)}, false)
	if err == nil {
		err = b.Save(ctx, recB, nil, true)
	}
	if err == nil {
		err = b.Save(ctx, recB, nil, true)
	}
	if !errors.Is(err, acpstore.ErrConflict) {
		t.Fatalf("the stale writer's save: %v, want ErrConflict", err)
	}
	_, bodies := history(t, a, "sess_c")
	if len(bodies) != 2 || bodies[1] != string(update("sess_c", 1)) {
		t.Fatalf("history after the conflict: %q, want a's two updates only", bodies)
	}
	// The loser keeps losing, even over a revision that is by chance the
	// store's, until it reads the session again.
	stale := *recB
	stale.Revision = rec.Revision
	if err := b.Save(ctx, &stale, [][]byte{[]byte(`{"from":"b"}`)}, true); !errors.Is(err, acpstore.ErrConflict) {
		t.Fatalf("the loser's save over the store's revision: %v, want ErrConflict", err)
	}
	if _, bodies := history(t, a, "sess_c"); len(bodies) != 2 {
		t.Fatalf("history after the loser's second save: %q, want a's two updates only", bodies)
	}
	if recB, err = b.Load(ctx, "sess_c"); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(ctx, recB, [][]byte{update("sess_c", 2)}, true); err != nil {
		t.Fatalf("the loser's save after it read the session again: %v", err)
	}
	// In one process, a record saved over an old revision is refused at once.
	old := *rec
	old.Revision--
	if err := a.Save(ctx, &old, nil, false); !errors.Is(err, acpstore.ErrConflict) {
		t.Fatalf("save over an old revision: %v, want ErrConflict", err)
	}
	// A new session whose id another writer created first.
	dup := newRecord("sess_c")
	if err := b.Save(ctx, dup, nil, true); !errors.Is(err, acpstore.ErrConflict) {
		t.Fatalf("create of an existing id: %v, want ErrConflict", err)
	}
}

func bounds(t *testing.T, open Opener) {
	s := open.open(t, &acpstore.Options{MaxUpdates: 5, MaxBytes: 400})
	rec := newRecord("sess_b")
	for i := range 8 {
		if err := s.Save(ctx, rec, [][]byte{update("sess_b", i)}, true); err != nil {
			t.Fatal(err)
		}
	}
	seqs, _ := history(t, s, "sess_b")
	got, err := s.Load(ctx, "sess_b")
	if err != nil {
		t.Fatal(err)
	}
	if len(seqs) != 3 || seqs[0] != 6 || got.Dropped != 5 || got.Updates != 8 {
		// 5 updates of ~130 bytes exceed 400 bytes: three are kept.
		t.Fatalf("bounded history: seqs %v, dropped %d, updates %d; want 6..8, 5, 8", seqs, got.Dropped, got.Updates)
	}
	big := make([]byte, 1000)
	for i := range big {
		big[i] = 'x'
	}
	if err := s.Save(ctx, rec, [][]byte{fmt.Appendf(nil, `{"t":"%s"}`, big)}, true); err != nil {
		t.Fatal(err)
	}
	if seqs, _ := history(t, s, "sess_b"); len(seqs) != 0 {
		t.Fatalf("an update past MaxBytes alone is dropped at once; history %v", seqs)
	}
}

func list(t *testing.T, open Opener) {
	s := open.open(t, nil)
	for i := range 5 {
		rec := newRecord(fmt.Sprintf("sess_%d", i))
		if i%2 == 1 {
			rec.Cwd, rec.Protocol = "/other", 1
		}
		if err := s.Save(ctx, rec, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	page, next, err := s.List(ctx, acpstore.Query{Limit: 2})
	if err != nil || len(page) != 2 || page[0].ID != "sess_0" || next == "" {
		t.Fatalf("first page: %v %q %v", ids(page), next, err)
	}
	page, next, err = s.List(ctx, acpstore.Query{Limit: 2, Cursor: next})
	if err != nil || len(page) != 2 || page[0].ID != "sess_2" {
		t.Fatalf("second page: %v %q %v", ids(page), next, err)
	}
	page, next, err = s.List(ctx, acpstore.Query{Limit: 2, Cursor: next})
	if err != nil || len(page) != 1 || next != "" {
		t.Fatalf("last page: %v %q %v", ids(page), next, err)
	}
	page, _, err = s.List(ctx, acpstore.Query{Cwd: "/other"})
	if err != nil || len(page) != 2 || page[1].ID != "sess_3" {
		t.Fatalf("by cwd: %v %v", ids(page), err)
	}
	page, _, err = s.List(ctx, acpstore.Query{Protocol: 2})
	if err != nil || len(page) != 3 {
		t.Fatalf("by protocol: %v %v", ids(page), err)
	}
	if _, _, err := s.List(ctx, acpstore.Query{Cursor: "nope"}); !errors.Is(err, acpstore.ErrBadCursor) {
		t.Fatalf("bad cursor: %v", err)
	}
}

func ids(recs []acpstore.Record) (out []string) {
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

func deleteSession(t *testing.T, open Opener) {
	s := open.open(t, nil)
	rec := newRecord("sess_d")
	if err := s.Save(ctx, rec, [][]byte{update("sess_d", 0)}, false); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "sess_d"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(ctx, "sess_d"); !errors.Is(err, acpstore.ErrNotStored) {
		t.Fatalf("Load after Delete: %v", err)
	}
	if err := s.Delete(ctx, "sess_d"); err != nil {
		t.Fatalf("Delete of a deleted session: %v", err)
	}
	// The id is free again, its history empty.
	again := newRecord("sess_d")
	if err := s.Save(ctx, again, [][]byte{update("sess_d", 9)}, true); err != nil {
		t.Fatal(err)
	}
	if seqs, _ := history(t, s, "sess_d"); len(seqs) != 1 || seqs[0] != 1 {
		t.Fatalf("history of the new session: %v", seqs)
	}
}

func newerSchema(t *testing.T, open Opener) {
	s := open.open(t, nil)
	if _, err := s.DB().Exec(`UPDATE acp_store_schema SET version = 99`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := open(nil)
	if !errors.Is(err, acpstore.ErrNewerSchema) {
		t.Fatalf("Open of a newer schema: %v, want ErrNewerSchema", err)
	}
	t.Logf("newer schema: %v", err)
}
