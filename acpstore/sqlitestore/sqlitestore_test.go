package sqlitestore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/acpgen/acpgen/acpstore"
	"github.com/acpgen/acpgen/acpstore/internal/storetest"
	"github.com/acpgen/acpgen/acpstore/sqlitestore"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Opener {
		path := filepath.Join(t.TempDir(), "sessions.db")
		return func(opts *acpstore.Options) (*acpstore.Store, error) {
			return sqlitestore.Open(context.Background(), path, opts)
		}
	})
}
