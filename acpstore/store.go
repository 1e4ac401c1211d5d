package acpstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Dialect is the SQL dialect of a Store's database.
type Dialect int

const (
	// SQLite is SQLite 3 (modernc.org/sqlite and others).
	SQLite Dialect = iota + 1
	// Postgres is PostgreSQL (github.com/jackc/pgx/v5/stdlib and others).
	Postgres
)

func (d Dialect) String() string {
	switch d {
	case SQLite:
		return "sqlite"
	case Postgres:
		return "postgres"
	}
	return fmt.Sprintf("Dialect(%d)", int(d))
}

// Options tune a Store; the zero value is ready to use.
type Options struct {
	// MaxUpdates is how many updates a session's history keeps at most,
	// the oldest dropped past it; 0: 10,000 (the MemoryStore's default).
	MaxUpdates int
	// MaxBytes is how many bytes of JSON a session's history keeps at
	// most; 0: 16 MiB.
	MaxBytes int
	// MaxPending is how many updates may wait for their commit before a
	// Save waits for it too; 0: 4096.
	MaxPending int
	// RetryInterval is how long the writer waits before it commits again
	// after a failed commit; 0: 200ms.
	RetryInterval time.Duration
}

// The defaults of Options.
const (
	DefaultMaxUpdates    = 10000
	DefaultMaxBytes      = 16 << 20
	DefaultMaxPending    = 4096
	DefaultRetryInterval = 200 * time.Millisecond
)

var (
	// ErrNotStored is the error of a Store for a session it does not have.
	ErrNotStored = errors.New("acpstore: the session is not in the store")
	// ErrConflict is the error of a Save whose session was written by
	// another writer (another process, a runner of another connection)
	// since it was read.
	ErrConflict = errors.New("acpstore: the session was changed by another writer")
	// ErrBadCursor is the error of List for a cursor it did not give.
	ErrBadCursor = errors.New("acpstore: the cursor was not given by this store")
	// ErrNewerSchema is the error of Open for a database whose schema a
	// newer version of this package has migrated.
	ErrNewerSchema = errors.New("acpstore: the store's schema is newer than this program knows")
	// ErrForeignDatabase is the error of Open for a database that holds
	// tables of another program and no session store.
	ErrForeignDatabase = errors.New("acpstore: the database is not a session store")
	// ErrClosed is the error of a Store's methods after Close.
	ErrClosed = errors.New("acpstore: the store is closed")
)

// Store is a session store in a SQL database. Its methods are safe for use
// by many goroutines at once.
type Store struct {
	db      *sql.DB
	dialect Dialect
	opts    Options
	q       queries

	mu      sync.Mutex
	cur     *batch            // what Saves queue now
	flight  *batch            // the batch being committed, nil when none
	spare   []*pending        // of committed batches, for their buffers
	revs    map[string]uint64 // the last revision this store wrote or read of a session
	failed  map[string]error  // sessions whose queued writes failed: their next Save's error
	fault   error             // the error of the last commit, nil once one succeeds
	closed  bool
	stats   Stats
	kick    chan struct{}
	stop    chan struct{}
	stopped chan struct{}
}

// Stats are counters of a Store's writer.
type Stats struct {
	// Commits is how many batches the writer committed.
	Commits uint64
	// Updates is how many updates it committed.
	Updates uint64
	// Failures is how many commits failed.
	Failures uint64
	// MaxLag is the longest an update waited between its Save and the end
	// of its commit: what a crash would have lost at worst.
	MaxLag time.Duration
}

// Open returns the store in db, whose dialect is d, migrating its schema to
// this package's version (creating it in an empty database). The store
// owns db from then on: Close closes it.
func Open(ctx context.Context, db *sql.DB, d Dialect, opts *Options) (*Store, error) {
	s := &Store{db: db, dialect: d, q: newQueries(d), revs: map[string]uint64{}, failed: map[string]error{},
		kick: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	if opts != nil {
		s.opts = *opts
	}
	s.opts.MaxUpdates = orDefault(s.opts.MaxUpdates, DefaultMaxUpdates)
	s.opts.MaxBytes = orDefault(s.opts.MaxBytes, DefaultMaxBytes)
	s.opts.MaxPending = orDefault(s.opts.MaxPending, DefaultMaxPending)
	if s.opts.RetryInterval <= 0 {
		s.opts.RetryInterval = DefaultRetryInterval
	}
	if d != SQLite && d != Postgres {
		return nil, fmt.Errorf("acpstore: unknown dialect %v", d)
	}
	if err := migrate(ctx, db, d); err != nil {
		return nil, err
	}
	s.cur = newBatch()
	go s.writer()
	return s, nil
}

func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

// DB returns the store's database.
func (s *Store) DB() *sql.DB { return s.db }

// Dialect returns the dialect of the store's database.
func (s *Store) Dialect() Dialect { return s.dialect }

// Stats returns the writer's counters.
func (s *Store) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Close commits what is queued, stops the writer and closes the database;
// it returns the error of that last commit.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	close(s.stop)
	<-s.stopped
	s.mu.Lock()
	err := s.fault
	s.mu.Unlock()
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	return err
}
