package main

import (
	"context"
	"flag"
	"strings"

	"github.com/acpgen/acpgen/acpstore"
	"github.com/acpgen/acpgen/acpstore/pgstore"
	"github.com/acpgen/acpgen/acpstore/sqlitestore"
)

var storeFlag = flag.String("store", "", "keep the sessions in the SQLite file `PATH` (or the Postgres database of a postgres:// URL), so that they outlive the process")

// openStore opens the store of -store, if any, as the sessions' store of
// both versions; the caller closes it (nil without -store).
func openStore(ctx context.Context) (*acpstore.Store, error) {
	var s *acpstore.Store
	var err error
	switch p := *storeFlag; {
	case p == "":
		return nil, nil
	case strings.HasPrefix(p, "postgres://"), strings.HasPrefix(p, "postgresql://"):
		s, err = pgstore.Open(ctx, p, nil)
	default:
		s, err = sqlitestore.Open(ctx, p, nil)
	}
	if err != nil {
		return nil, err
	}
	storeV1, storeV2 = s.V1(), s.V2()
	return s, nil
}
