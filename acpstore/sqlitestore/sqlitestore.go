// Package sqlitestore opens a session store (package acpstore) in a SQLite
// file, for the sessions of one machine: a file in WAL mode, with
// synchronous=FULL (a commit is on disk when it ends; the store batches the
// updates of streaming turns, so a chunk never waits for it).
//
// The driver is modernc.org/sqlite: pure Go, so a program that uses the
// store still cross-compiles with CGO_ENABLED=0, and it is the driver the
// module's inspector (acpinspect) already uses: one SQLite in the build.
package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/acpgen/acpgen/acpstore"
	_ "modernc.org/sqlite" // the database/sql driver "sqlite", pure Go
)

// Open opens the store in the SQLite file at path, creating it when it
// does not exist. It refuses a file that is not a SQLite database, or is
// damaged, or is another program's (acpstore.ErrForeignDatabase), or
// whose schema is newer than this program's (acpstore.ErrNewerSchema).
func Open(ctx context.Context, path string, opts *acpstore.Options) (*acpstore.Store, error) {
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	// WAL is set once the store is accepted (below): the journal mode is
	// written in the file, and a file that is refused is left as it was.
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_txlock=immediate" +
		"&_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)&_pragma=foreign_keys(ON)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	// One connection writes at a time in SQLite; readers share the WAL.
	db.SetMaxOpenConns(4)
	s, err := acpstore.Open(ctx, db, acpstore.SQLite, opts)
	if err != nil {
		db.Close()
		if errors.Is(err, acpstore.ErrNewerSchema) || errors.Is(err, acpstore.ErrForeignDatabase) {
			return nil, fmt.Errorf("sqlitestore: %s: %w", path, err)
		}
		if msg := err.Error(); strings.Contains(msg, "not a database") || strings.Contains(msg, "malformed") {
			return nil, fmt.Errorf("sqlitestore: %s is not a SQLite database, or is damaged: %w", path, err)
		}
		return nil, fmt.Errorf("sqlitestore: %s: %w", path, err)
	}
	if _, err := db.ExecContext(ctx, `PRAGMA journal_mode=WAL`); err != nil {
		s.Close()
		return nil, fmt.Errorf("sqlitestore: %s: switch to WAL: %w", path, err)
	}
	return s, nil
}

// sqliteMagic starts every SQLite file.
const sqliteMagic = "SQLite format 3\x00"

// checkHeader refuses a file at path that is not empty and does not start
// as a SQLite file does, before SQLite would make a journal beside it.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sqlitestore: %w", err)
	}
	defer f.Close()
	var b [len(sqliteMagic)]byte
	n, _ := f.Read(b[:])
	if n == 0 {
		return nil
	}
	if string(b[:n]) != sqliteMagic {
		return fmt.Errorf("sqlitestore: %s is not a SQLite database (it does not start with the SQLite header)", path)
	}
	return nil
}
