package sqlitestore_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpstore"
	"github.com/acpgen/acpgen/acpstore/sqlitestore"
)

// files returns the names of the files in dir.
func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// refused opens the file at path, which Open must refuse with an error
// that names the file and says want; the file must be left as it was,
// and no journal made beside it.
func refused(t *testing.T, path, want string) error {
	t.Helper()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, openErr := sqlitestore.Open(context.Background(), path, nil)
	if openErr == nil {
		s.Close()
		t.Fatalf("Open of %s succeeded", filepath.Base(path))
	}
	if !strings.Contains(openErr.Error(), path) || !strings.Contains(openErr.Error(), want) {
		t.Fatalf("Open: %v\nwant the path and %q", openErr, want)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatalf("Open changed the file it refused")
	}
	if names := files(t, filepath.Dir(path)); len(names) != 1 {
		t.Fatalf("files after the refusal: %v, want the refused file only", names)
	}
	return openErr
}

// TestOpenNotSQLite: a file that is not SQLite, and one that has the
// SQLite header and garbage after it, are refused, untouched.
func TestOpenNotSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("these are my notes, not a database\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	refused(t, path, "is not a SQLite database")

	path = filepath.Join(t.TempDir(), "garbage.db")
	garbage := append([]byte("SQLite format 3\x00"), bytes.Repeat([]byte{0xa5, 0x5a, 0x00, 0xff}, 2048)...)
	if err := os.WriteFile(path, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	refused(t, path, "not a SQLite database, or is damaged")
}

// TestOpenForeign: a valid SQLite database of another program is refused
// (ErrForeignDatabase) and left as it was: not switched to WAL, no table
// added.
func TestOpenForeign(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{`CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)`, `INSERT INTO users (name) VALUES ('ada')`} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	err = refused(t, path, "holds other tables (users)")
	if !errors.Is(err, acpstore.ErrForeignDatabase) {
		t.Fatalf("Open of another program's database: %v, want ErrForeignDatabase", err)
	}
}

// TestOpenNewer: a store that a newer program migrated is refused
// (ErrNewerSchema), its data left as it was.
func TestOpenNewer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s, err := sqlitestore.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := s.DB().QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal mode of a new store: %q %v, want wal", mode, err)
	}
	rec := &acpstore.Record{ID: "sess_1", Protocol: 2, Cwd: "/w", Created: time.Now()}
	if err := s.Save(context.Background(), rec, [][]byte{[]byte(`{"n":1}`)}, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Exec(`UPDATE acp_store_schema SET version = ` + fmt.Sprint(acpstore.SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	err = refused(t, path, "use a newer program")
	if !errors.Is(err, acpstore.ErrNewerSchema) {
		t.Fatalf("Open of a newer store: %v, want ErrNewerSchema", err)
	}
}

// TestDamagedPages: a store whose pages past the first are overwritten
// with garbage fails with an error that says the file is damaged, at Open
// or at the first read, and never panics.
func TestDamagedPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s, err := sqlitestore.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &acpstore.Record{ID: "sess_1", Protocol: 2, Cwd: "/w", Created: time.Now()}
	for i := range 200 {
		if err := s.Save(context.Background(), rec, [][]byte{fmt.Appendf(nil, `{"n":%d,"pad":"%s"}`, i, strings.Repeat("x", 200))}, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil { // checkpoints the WAL into the file
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 8*4096 {
		t.Fatalf("the store is %d bytes, want several pages", len(data))
	}
	for i := 4096; i < len(data); i++ {
		data[i] = byte(i*7 + 3)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = sqlitestore.Open(context.Background(), path, nil)
	if err == nil {
		defer s.Close()
		err = s.History(context.Background(), "sess_1", func(uint64, []byte) error { return nil })
	}
	if err == nil || !strings.Contains(err.Error(), "malformed") && !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("a damaged store: %v, want an error that says it is damaged", err)
	}
	t.Logf("damaged: %v", err)
}
