// Package pgstore opens a session store (package acpstore) in PostgreSQL,
// for sessions that any of several machines serves: the agents behind a
// load balancer share one database, and a client whose node died resumes
// its sessions on another. The driver is github.com/jackc/pgx/v5 through
// its database/sql adapter.
package pgstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/acpgen/acpgen/acpstore"
	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx"
)

// Open opens the store in the Postgres database that dsn names (a URL,
// postgres://user@host/db, or key=value pairs), creating its tables
// (acp_store_schema, acp_sessions, acp_history) when they are not there.
// Processes that open one database at once migrate it once. It refuses a
// schema newer than this program's (acpstore.ErrNewerSchema).
func Open(ctx context.Context, dsn string, opts *acpstore.Options) (*acpstore.Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("pgstore: connect: %w", err)
	}
	s, err := acpstore.Open(ctx, db, acpstore.Postgres, opts)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	return s, nil
}
