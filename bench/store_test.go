package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpstore"
	"github.com/acpgen/acpgen/acpstore/pgstore"
	"github.com/acpgen/acpgen/acpstore/sqlitestore"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/pgtest"
)

// The session stores against each other and against memory: updates
// appended per second (one op is one Save of one update, as a turn makes
// it, and what the writer queued is committed before the timer stops),
// the time to resume a session of 10,000 updates through a TurnRunner
// (one op is a session/resume with replayFrom start on a new connection:
// the record and history read, the state rebuilt, the history replayed),
// and a TurnRunner's chunks per second on each store (BenchmarkTurnSay's
// cases). Postgres is pgtest's throwaway server, which runs with
// fsync=off: its numbers say what the protocol and the SQL cost, not the
// disk.

// storeBackend opens a store of one backend for a benchmark.
type storeBackend struct {
	name string
	// open returns the store of the backend (nil for memory), closed when
	// b ends.
	open func(b *testing.B) *acpstore.Store
}

var pgServer atomic.Pointer[pgtest.Server]

func storeBackends() []storeBackend {
	return []storeBackend{
		{"memory", func(*testing.B) *acpstore.Store { return nil }},
		{"sqlite", func(b *testing.B) *acpstore.Store {
			s, err := sqlitestore.Open(context.Background(), filepath.Join(b.TempDir(), "s.db"), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		}},
		{"postgres", func(b *testing.B) *acpstore.Store {
			server := pgServer.Load()
			if server == nil {
				b.Skip("SKIPPED: no Postgres server")
			}
			s, err := pgstore.Open(context.Background(), server.DSN, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		}},
	}
}

// withPostgres starts the Postgres server of the benchmarks of b.
func withPostgres(b *testing.B) {
	if pgServer.Load() == nil {
		pgServer.Store(pgtest.Start(b))
		b.Cleanup(func() { pgServer.Store(nil) })
	}
}

var sessionN atomic.Int64

// newSessionID returns an id no store of the run has.
func newSessionID() string {
	return "sess_bench" + strconv.FormatInt(time.Now().UnixNano(), 36) + "_" + strconv.FormatInt(sessionN.Add(1), 10)
}

func benchUpdate(id string, i int) json.RawMessage {
	return fmt.Appendf(nil, `{"sessionId":"%s","update":{"sessionUpdate":"agent_message_chunk","messageId":"msg_2","content":{"type":"text","text":"%s %d"}}}`, id, chunkText, i)
}

// BenchmarkStoreAppend appends updates to one session's history: one op
// is one update saved.
func BenchmarkStoreAppend(b *testing.B) {
	withPostgres(b)
	for _, backend := range storeBackends() {
		b.Run(backend.name, func(b *testing.B) {
			s := backend.open(b)
			var store acpv2.SessionStore = &acpv2.MemoryStore{}
			if s != nil {
				store = s.V2()
			}
			ctx := context.Background()
			id := newSessionID()
			rec := &acpv2.SessionRecord{ID: acpv2.SessionID(id), Protocol: 2, Cwd: "/w", Created: time.Now()}
			if err := store.Save(ctx, rec); err != nil {
				b.Fatal(err)
			}
			updates := make([]json.RawMessage, 64)
			for i := range updates {
				updates[i] = benchUpdate(id, i)
			}
			measured(b, func() {
				for i := range b.N {
					if err := store.Save(ctx, rec, updates[i%len(updates)]); err != nil {
						b.Fatal(err)
					}
				}
				if s != nil {
					if err := s.Flush(ctx); err != nil {
						b.Fatal(err)
					}
				}
			})
			if s != nil {
				reportLag(b, s)
			}
		})
	}
}

// BenchmarkStoreResume resumes a session of 10,000 updates with
// replayFrom start on a new connection: one op is one resume, answered.
func BenchmarkStoreResume(b *testing.B) {
	const updates = 10000
	withPostgres(b)
	for _, backend := range storeBackends() {
		b.Run(backend.name, func(b *testing.B) {
			s := backend.open(b)
			var store acpv2.SessionStore = &acpv2.MemoryStore{}
			if s != nil {
				store = s.V2()
			}
			ctx := context.Background()
			id := newSessionID()
			rec := &acpv2.SessionRecord{ID: acpv2.SessionID(id), Protocol: 2, Cwd: "/w", Created: time.Now(), Turn: acpv2.TurnRecord{State: acpv2.TurnEnded}}
			for i := range updates {
				if err := store.Save(ctx, rec, benchUpdate(id, i)); err != nil {
					b.Fatal(err)
				}
			}
			if err := store.Save(ctx, rec); err != nil {
				b.Fatal(err)
			}
			resume := `{"jsonrpc":"2.0","id":1,"method":"session/resume","params":{"sessionId":"` + id + `","cwd":"/w","replayFrom":{"type":"start"}}}`
			measured(b, func() {
				for range b.N {
					in, out := newWireIn(), newLineSink()
					conn := acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
						return turnAgentV2{TurnRunner: acpv2.NewTurnRunner(c, nil, &acpv2.TurnOptions{Store: store})}
					}, out, in.r)
					in.send(b, initV2)
					in.send(b, resume)
					out.waitFor(1 + updates + 2) // initialize, the history, the state and the answer
					in.w.Close()
					<-conn.Done()
				}
			})
		})
	}
}

// BenchmarkTurnSayStore sends a TurnRunner's chunks with its sessions in
// memory (the default MemoryStore) and in a SQLite store: one op is one
// chunk sent and kept.
func BenchmarkTurnSayStore(b *testing.B) {
	open := func(b *testing.B) *acpstore.Store {
		s := storeBackends()[1].open(b)
		b.Cleanup(func() { reportLag(b, s) })
		return s
	}
	b.Run("v1/memory", func(b *testing.B) { runnerV1(b, nil) })
	b.Run("v1/sqlite", func(b *testing.B) { runnerV1(b, open(b).V1()) })
	b.Run("v2/memory", func(b *testing.B) { runnerV2(b, nil) })
	b.Run("v2/sqlite", func(b *testing.B) { runnerV2(b, open(b).V2()) })
}

// reportLag reports the crash loss window of store s: the longest an
// update waited for its commit (Stats.MaxLag), and how many updates a
// commit wrote on average.
func reportLag(b *testing.B, s *acpstore.Store) {
	st := s.Stats()
	b.ReportMetric(float64(st.MaxLag.Microseconds())/1000, "maxlag-ms")
	b.ReportMetric(float64(st.Updates)/float64(max(st.Commits, 1)), "updates/commit")
}

// BenchmarkStoreLagPaced appends an update every millisecond, the pace of
// a model's streamed output, and reports the crash loss window then
// (maxlag-ms): one op is one update.
func BenchmarkStoreLagPaced(b *testing.B) {
	withPostgres(b)
	for _, backend := range storeBackends()[1:] {
		b.Run(backend.name, func(b *testing.B) {
			s := backend.open(b)
			ctx := context.Background()
			id := newSessionID()
			rec := &acpstore.Record{ID: id, Protocol: 2, Cwd: "/w", Created: time.Now()}
			if err := s.Save(ctx, rec, nil, true); err != nil {
				b.Fatal(err)
			}
			measured(b, func() {
				for i := range b.N {
					if err := s.Save(ctx, rec, [][]byte{benchUpdate(id, i)}, false); err != nil {
						b.Fatal(err)
					}
					time.Sleep(time.Millisecond)
				}
				if err := s.Flush(ctx); err != nil {
					b.Fatal(err)
				}
			})
			reportLag(b, s)
		})
	}
}
