package acpv2test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// history returns the positions and updates that store retains of id.
func history(t *testing.T, store acpv2.SessionStore, id acpv2.SessionID) (seqs []uint64, updates []string) {
	t.Helper()
	err := store.History(context.Background(), id, func(seq uint64, u json.RawMessage) error {
		seqs, updates = append(seqs, seq), append(updates, string(u))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return seqs, updates
}

// TestMemoryStoreSave: Save creates, appends in order, and refuses a
// record written meanwhile by another writer.
func TestMemoryStoreSave(t *testing.T) {
	ctx := context.Background()
	var m acpv2.MemoryStore
	a := &acpv2.SessionRecord{ID: "s1", Protocol: 1, Cwd: "/w"}
	if err := m.Save(ctx, a, json.RawMessage(`1`), json.RawMessage(`2`)); err != nil {
		t.Fatal(err)
	}
	if a.Revision != 1 || a.Updates != 2 {
		t.Errorf("after the first save: %+v", a)
	}
	b, err := m.Load(ctx, "s1")
	if err != nil || b.Cwd != "/w" {
		t.Fatalf("Load: %+v, %v", b, err)
	}
	if err := m.Save(ctx, b, json.RawMessage(`3`)); err != nil {
		t.Fatal(err)
	}
	if err := m.Save(ctx, a, json.RawMessage(`4`)); !errors.Is(err, acpv2.ErrSessionConflict) {
		t.Errorf("a save over a stale revision: %v", err)
	}
	if err := m.Save(ctx, &acpv2.SessionRecord{ID: "s1"}); !errors.Is(err, acpv2.ErrSessionConflict) {
		t.Errorf("creating a session that exists: %v", err)
	}
	seqs, updates := history(t, &m, "s1")
	if fmt.Sprint(seqs, updates) != "[1 2 3] [1 2 3]" {
		t.Errorf("history: %v %v", seqs, updates)
	}
	if _, err := m.Load(ctx, "nope"); !errors.Is(err, acpv2.ErrSessionNotStored) {
		t.Errorf("Load of no session: %v", err)
	}
	if err := m.History(ctx, "nope", nil); !errors.Is(err, acpv2.ErrSessionNotStored) {
		t.Errorf("History of no session: %v", err)
	}
}

// TestMemoryStoreBounds: past MaxUpdates or MaxBytes the oldest go, and
// the positions of those left say so.
func TestMemoryStoreBounds(t *testing.T) {
	ctx := context.Background()
	m := acpv2.MemoryStore{MaxUpdates: 3, MaxBytes: 10}
	rec := &acpv2.SessionRecord{ID: "s"}
	for i := 1; i <= 5; i++ {
		if err := m.Save(ctx, rec, json.RawMessage(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if seqs, updates := history(t, &m, "s"); fmt.Sprint(seqs, updates) != "[3 4 5] [3 4 5]" || rec.Dropped != 2 {
		t.Errorf("by count: %v %v, dropped %d", seqs, updates, rec.Dropped)
	}
	if err := m.Save(ctx, rec, json.RawMessage(`"12345678"`)); err != nil {
		t.Fatal(err)
	}
	if seqs, updates := history(t, &m, "s"); fmt.Sprint(seqs, updates) != `[6] ["12345678"]` || rec.Dropped != 5 {
		t.Errorf("by bytes: %v %v, dropped %d", seqs, updates, rec.Dropped)
	}
	if err := m.Save(ctx, rec, json.RawMessage(`"an update larger than the bound"`)); err != nil {
		t.Fatal(err)
	}
	if seqs, _ := history(t, &m, "s"); len(seqs) != 0 || rec.Dropped != 7 || rec.Updates != 7 {
		t.Errorf("an update past the bound alone: %v, %+v", seqs, rec)
	}
}

// TestMemoryStoreList: pages in creation order, by cwd and protocol;
// deleted sessions are gone; a foreign cursor is ErrBadCursor.
func TestMemoryStoreList(t *testing.T) {
	ctx := context.Background()
	var m acpv2.MemoryStore
	for i := 1; i <= 5; i++ {
		if err := m.Save(ctx, &acpv2.SessionRecord{ID: acpv2.SessionID(fmt.Sprint("s", i)), Protocol: 1 + i%2, Cwd: fmt.Sprint("/", i%3)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Delete(ctx, "s3"); err != nil {
		t.Fatal(err)
	}
	if err := m.Delete(ctx, "s3"); err != nil {
		t.Errorf("deleting twice: %v", err)
	}
	var ids []acpv2.SessionID
	q := acpv2.SessionQuery{Limit: 2}
	for pages := 0; pages < 5; pages++ {
		page, next, err := m.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page {
			ids = append(ids, r.ID)
		}
		if next == "" {
			break
		}
		q.Cursor = next
	}
	if fmt.Sprint(ids) != "[s1 s2 s4 s5]" {
		t.Errorf("all pages: %v", ids)
	}
	page, _, _ := m.List(ctx, acpv2.SessionQuery{Protocol: 2})
	if len(page) != 2 || page[0].ID != "s1" || page[1].ID != "s5" {
		t.Errorf("protocol 2: %+v", page)
	}
	page, _, _ = m.List(ctx, acpv2.SessionQuery{Cwd: "/1"})
	if len(page) != 2 || page[0].ID != "s1" || page[1].ID != "s4" {
		t.Errorf("cwd /1: %+v", page)
	}
	if _, _, err := m.List(ctx, acpv2.SessionQuery{Cursor: "x"}); !errors.Is(err, acpv2.ErrBadCursor) {
		t.Errorf("a foreign cursor: %v", err)
	}
}

// TestMemoryStoreRing: a history that has wrapped around its slots many
// times, appended one and several at a time, keeps the newest in order
// with their positions, under either bound.
func TestMemoryStoreRing(t *testing.T) {
	ctx := context.Background()
	m := acpv2.MemoryStore{MaxUpdates: 20, MaxBytes: 1 << 20}
	rec := &acpv2.SessionRecord{ID: "s"}
	next := 1
	for batch := 1; next <= 200; batch = batch%7 + 1 {
		var appended []json.RawMessage
		for range batch {
			appended = append(appended, json.RawMessage(fmt.Sprint(next)))
			next++
		}
		if err := m.Save(ctx, rec, appended...); err != nil {
			t.Fatal(err)
		}
	}
	last := next - 1
	seqs, updates := history(t, &m, "s")
	if len(seqs) != 20 || rec.Updates != uint64(last) || rec.Dropped != uint64(last-20) {
		t.Fatalf("by count: %d retained, %+v", len(seqs), rec)
	}
	for i, seq := range seqs {
		if want := last - 19 + i; seq != uint64(want) || updates[i] != fmt.Sprint(want) {
			t.Fatalf("by count: update %d is %d %s, want %d", i, seq, updates[i], want)
		}
	}
	// Three-byte updates under a bound of 10 bytes: the newest three.
	m.MaxBytes = 10
	for i := 0; i < 5; i++ {
		if err := m.Save(ctx, rec, json.RawMessage(fmt.Sprint(100+i))); err != nil {
			t.Fatal(err)
		}
	}
	if seqs, updates := history(t, &m, "s"); fmt.Sprint(updates) != "[102 103 104]" || seqs[0] != uint64(last+3) {
		t.Errorf("by bytes: %v %v", seqs, updates)
	}
}

// TestMemoryStoreHistoryWhileSaving: a History that runs while Saves drop
// the updates it started with reads them all, as they were.
func TestMemoryStoreHistoryWhileSaving(t *testing.T) {
	ctx := context.Background()
	m := acpv2.MemoryStore{MaxUpdates: 8}
	rec := &acpv2.SessionRecord{ID: "s"}
	for i := 1; i <= 8; i++ {
		if err := m.Save(ctx, rec, json.RawMessage(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	saved := make(chan error)
	var got []string
	err := m.History(ctx, "s", func(seq uint64, u json.RawMessage) error {
		if seq == 1 {
			go func() {
				var err error
				for i := 9; i <= 40 && err == nil; i++ {
					err = m.Save(ctx, rec, json.RawMessage(fmt.Sprint(i)))
				}
				saved <- err
			}()
			if err := <-saved; err != nil {
				return err
			}
		}
		got = append(got, string(u))
		return nil
	})
	if err != nil || fmt.Sprint(got) != "[1 2 3 4 5 6 7 8]" {
		t.Errorf("History: %v, %v", got, err)
	}
}
