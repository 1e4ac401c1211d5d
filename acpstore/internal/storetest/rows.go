package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/acpstore"
)

// sized is an update of exactly size bytes of JSON, numbered i.
func sized(i, size int) []byte {
	head := fmt.Sprintf(`{"n":%d,"pad":"`, i)
	return []byte(head + strings.Repeat("x", size-len(head)-2) + `"}`)
}

// rowsOf returns the rows of session id's history: their seq and n.
func rowsOf(t *testing.T, s *acpstore.Store, id string) (rows [][2]int64) {
	t.Helper()
	r, err := s.DB().Query(rebind(s, `SELECT seq, n FROM acp_history WHERE session_id = $1 ORDER BY seq`), id)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for r.Next() {
		var row [2]int64
		if err := r.Scan(&row[0], &row[1]); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// rebind writes the placeholders $1, … of query as the store's database
// wants them.
func rebind(s *acpstore.Store, query string) string {
	if s.Dialect() == acpstore.SQLite {
		return strings.ReplaceAll(query, "$", "?")
	}
	return query
}

// wantHistory fails unless session id's history holds the updates at
// positions from to to, each as saved (sized(pos, size)).
func wantHistory(t *testing.T, s *acpstore.Store, id string, from, to, size int) {
	t.Helper()
	seqs, bodies := history(t, s, id)
	if len(seqs) != to-from+1 || seqs[0] != uint64(from) || seqs[len(seqs)-1] != uint64(to) {
		t.Fatalf("history of %s: %d updates at %v…, want positions %d to %d", id, len(seqs), seqs[:min(3, len(seqs))], from, to)
	}
	for i, b := range bodies {
		if b != string(sized(from+i, size)) {
			t.Fatalf("history of %s: update at %d is %.40q…, want update %d", id, seqs[i], b, from+i)
		}
	}
}

// rows: the updates of one commit are stored in rows of up to 64 KiB,
// read back one by one, byte for byte; the bounds cut the oldest row at
// the exact update, by count and by bytes; an update larger than a row
// has one alone; a row whose framing does not add up is an error that
// names it.
func rows(t *testing.T, open Opener) {
	s := open.open(t, &acpstore.Options{MaxUpdates: 250, MaxBytes: 100000})
	rec := newRecord("sess_rows")
	if err := s.Save(ctx, rec, nil, true); err != nil {
		t.Fatal(err)
	}
	save := func(from, to int) {
		t.Helper()
		var updates [][]byte
		for i := from; i <= to; i++ {
			updates = append(updates, sized(i, 500))
		}
		if err := s.Save(ctx, rec, updates, true); err != nil {
			t.Fatal(err)
		}
	}
	// 300 updates of 500 bytes in rows of 131; 250 are 125,000 bytes, past
	// MaxBytes: the newest 200 are kept, the first row cut at 101.
	save(1, 300)
	wantHistory(t, s, "sess_rows", 101, 300, 500)
	if got := rowsOf(t, s, "sess_rows"); !slices.Equal(got, [][2]int64{{101, 31}, {132, 131}, {263, 38}}) {
		t.Fatalf("rows after the first bound: %v, want [101 31] [132 131] [263 38]", got)
	}
	save(301, 305)
	wantHistory(t, s, "sess_rows", 106, 305, 500)
	save(306, 335)
	wantHistory(t, s, "sess_rows", 136, 335, 500)
	if got := rowsOf(t, s, "sess_rows"); len(got) != 4 || got[0] != [2]int64{136, 127} {
		t.Fatalf("rows after the third bound: %v, want the first [136 127]", got)
	}
	got, err := s.Load(ctx, "sess_rows")
	if err != nil || got.Updates != 335 || got.Dropped != 135 {
		t.Fatalf("record: %+v %v, want 335 updates, 135 dropped", got, err)
	}

	// An update larger than a row is a row alone, between rows of one.
	big := newRecord("sess_big")
	updates := [][]byte{sized(1, 500), sized(2, 70000), sized(3, 500)}
	if err := s.Save(ctx, big, updates, true); err != nil {
		t.Fatal(err)
	}
	if _, bodies := history(t, s, "sess_big"); len(bodies) != 3 || bodies[1] != string(updates[1]) || bodies[2] != string(updates[2]) {
		t.Fatalf("history of a large update: %d updates", len(bodies))
	}
	if got := rowsOf(t, s, "sess_big"); !slices.Equal(got, [][2]int64{{1, 1}, {2, 1}, {3, 1}}) {
		t.Fatalf("rows of a large update: %v", got)
	}

	// Rows that say more or fewer updates than they frame.
	for _, id := range []string{"sess_rows", "sess_big"} {
		if _, err := s.DB().Exec(rebind(s, `UPDATE acp_history SET n = n + 1 WHERE session_id = $1 AND seq = (SELECT max(seq) FROM acp_history WHERE session_id = $1)`), id); err != nil {
			t.Fatal(err)
		}
		err := s.History(ctx, id, func(uint64, []byte) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), id) {
			t.Fatalf("history of a damaged row: %v, want an error that says %s is damaged", err, id)
		}
	}
}

// oldSchema: a store of schema version 1 (a row per update) is migrated
// at Open; its history reads back whole, new rows of several updates
// follow it, and the bound drops the old rows.
func oldSchema(t *testing.T, open Opener) {
	s := open.open(t, nil)
	rec := newRecord("sess_old")
	for i := 1; i <= 6; i++ { // a commit each: rows of one update, as version 1 wrote
		if err := s.Save(ctx, rec, [][]byte{sized(i, 200)}, true); err != nil {
			t.Fatal(err)
		}
	}
	for _, stmt := range []string{`ALTER TABLE acp_history DROP COLUMN sizes`, `ALTER TABLE acp_history DROP COLUMN n`,
		`UPDATE acp_store_schema SET version = 1`} {
		if _, err := s.DB().Exec(stmt); err != nil {
			t.Fatalf("make the store one of version 1: %s: %v", stmt, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open.open(t, &acpstore.Options{MaxUpdates: 8})
	var version int
	if err := s.DB().QueryRow(`SELECT version FROM acp_store_schema`).Scan(&version); err != nil || version != acpstore.SchemaVersion {
		t.Fatalf("schema version after Open: %d %v, want %d", version, err, acpstore.SchemaVersion)
	}
	wantHistory(t, s, "sess_old", 1, 6, 200)
	if rec, err := s.Load(ctx, "sess_old"); err != nil {
		t.Fatal(err)
	} else if err := s.Save(ctx, rec, [][]byte{sized(7, 200), sized(8, 200), sized(9, 200), sized(10, 200), sized(11, 200)}, true); err != nil {
		t.Fatal(err)
	}
	wantHistory(t, s, "sess_old", 4, 11, 200)
	if got := rowsOf(t, s, "sess_old"); !slices.Equal(got, [][2]int64{{4, 1}, {5, 1}, {6, 1}, {7, 5}}) {
		t.Fatalf("rows after the migration and a bound: %v", got)
	}
}
