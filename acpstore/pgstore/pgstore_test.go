package pgstore_test

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/acpgen/acpgen/acpstore"
	"github.com/acpgen/acpgen/acpstore/internal/storetest"
	"github.com/acpgen/acpgen/acpstore/pgstore"
	"github.com/acpgen/acpgen/internal/pgtest"
)

// database makes a new database on server s and returns its DSN.
func database(t *testing.T, s *pgtest.Server, n *atomic.Int64) string {
	t.Helper()
	db, err := sql.Open("pgx", s.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	name := fmt.Sprintf("store%d", n.Add(1))
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	return s.DSN[:len(s.DSN)-len("dbname=postgres sslmode=disable")] + "dbname=" + name + " sslmode=disable"
}

func TestStore(t *testing.T) {
	server := pgtest.Start(t)
	var n atomic.Int64
	storetest.Run(t, func(t *testing.T) storetest.Opener {
		dsn := database(t, server, &n)
		return func(opts *acpstore.Options) (*acpstore.Store, error) {
			return pgstore.Open(context.Background(), dsn, opts)
		}
	})
}
