package acpstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// SchemaVersion is the version of the schema this package writes: Open
// migrates a store of an older version to it, and refuses a newer one.
const SchemaVersion = 2

// migrations are the statements that take the schema from version i to
// i+1, per dialect; {blob}, {int} and {serial} name the dialect's types.
var migrations = [][]string{
	1: {
		`CREATE TABLE acp_sessions (
			n {serial},
			id TEXT NOT NULL UNIQUE,
			protocol INTEGER NOT NULL,
			cwd TEXT NOT NULL,
			title TEXT,
			updated_at TEXT NOT NULL,
			created {int} NOT NULL,
			config_options {blob},
			modes {blob},
			mcp_servers {blob},
			meta {blob},
			turn_state TEXT NOT NULL,
			turn_stop_reason {blob},
			turn_started {int} NOT NULL,
			turn_ended {int} NOT NULL,
			updates {int} NOT NULL,
			dropped {int} NOT NULL,
			bytes {int} NOT NULL,
			revision {int} NOT NULL
		)`,
		`CREATE INDEX acp_sessions_cwd ON acp_sessions (cwd, n)`,
		`CREATE TABLE acp_history (
			session_id TEXT NOT NULL,
			seq {int} NOT NULL,
			body {blob} NOT NULL,
			PRIMARY KEY (session_id, seq)
		)`,
	},
	// Version 2 stores a commit's updates of a session in few rows rather
	// than a row each (history.go): a row holds the n updates at positions
	// seq to seq+n-1, their JSON one after the other in body, and in sizes
	// the length of each as a uvarint, NULL for a row of one update. The
	// rows of version 1 become rows of one update. body comes last, so that
	// SQLite reads n and sizes without reading a long body.
	2: {
		`CREATE TABLE acp_history_2 (
			session_id TEXT NOT NULL,
			seq {int} NOT NULL,
			n {int} NOT NULL,
			sizes {blob},
			body {blob} NOT NULL,
			PRIMARY KEY (session_id, seq)
		)`,
		`INSERT INTO acp_history_2 (session_id, seq, n, sizes, body) SELECT session_id, seq, 1, NULL, body FROM acp_history`,
		`DROP TABLE acp_history`,
		`ALTER TABLE acp_history_2 RENAME TO acp_history`,
	},
}

// ddl writes statement stmt in dialect d.
func ddl(d Dialect, stmt string) string {
	r := strings.NewReplacer("{blob}", "BLOB", "{int}", "INTEGER", "{serial}", "INTEGER PRIMARY KEY AUTOINCREMENT")
	if d == Postgres {
		r = strings.NewReplacer("{blob}", "BYTEA", "{int}", "BIGINT", "{serial}", "BIGSERIAL PRIMARY KEY")
	}
	return r.Replace(stmt)
}

// migrate takes the schema of db to SchemaVersion, in one transaction
// that holds the database (Postgres: an advisory lock) so that processes
// starting together migrate once.
func migrate(ctx context.Context, db *sql.DB, d Dialect) error {
	if d == SQLite {
		if err := refuseForeign(ctx, db); err != nil {
			return err
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("acpstore: open the store: %w", err)
	}
	defer tx.Rollback()
	if d == Postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(4306271043)`); err != nil {
			return fmt.Errorf("acpstore: lock the schema: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS acp_store_schema (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("acpstore: open the store: %w", err)
	}
	version := 0
	err = tx.QueryRowContext(ctx, `SELECT version FROM acp_store_schema`).Scan(&version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO acp_store_schema (version) VALUES (0)`); err != nil {
			return fmt.Errorf("acpstore: open the store: %w", err)
		}
	case err != nil:
		return fmt.Errorf("acpstore: read the schema version: %w", err)
	case version > SchemaVersion:
		return fmt.Errorf("%w: it is at version %d, this program knows versions up to %d; use a newer program", ErrNewerSchema, version, SchemaVersion)
	case version == SchemaVersion:
		return nil
	}
	for v := version + 1; v <= SchemaVersion; v++ {
		for _, stmt := range migrations[v] {
			if _, err := tx.ExecContext(ctx, ddl(d, stmt)); err != nil {
				return fmt.Errorf("acpstore: migrate the schema to version %d: %w", v, err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE acp_store_schema SET version = `+strconv.Itoa(SchemaVersion)); err != nil {
		return fmt.Errorf("acpstore: migrate the schema: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("acpstore: migrate the schema: %w", err)
	}
	return nil
}

// refuseForeign returns ErrForeignDatabase for a SQLite database that has
// tables and no acp_store_schema: one file is one store.
func refuseForeign(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return fmt.Errorf("acpstore: open the store: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return fmt.Errorf("acpstore: open the store: %w", err)
		}
		if name == "acp_store_schema" {
			return nil
		}
		if !strings.HasPrefix(name, "sqlite_") {
			names = append(names, name)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("acpstore: open the store: %w", err)
	}
	if len(names) > 0 {
		if len(names) > 5 {
			names = append(names[:5], "…")
		}
		return fmt.Errorf("%w: it holds other tables (%s)", ErrForeignDatabase, strings.Join(names, ", "))
	}
	return nil
}
