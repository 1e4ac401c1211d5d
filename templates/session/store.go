//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"
)

// A SessionStore keeps the sessions a TurnRunner serves: for each, its
// record (SessionRecord) and its replayable history, the session/update
// notifications of the session in the order they were sent, each as the
// JSON of its params. A store never decodes ACP: the runner writes and
// reads the JSON, so one store implementation serves every protocol
// version. The runner keeps a session's record in memory while it serves
// the session and writes it back, with the updates sent since, by Save;
// sessions that no runner serves (after a reconnect, a restart) it reads
// back by Load and History.
//
// A store is safe for use by many goroutines and runners at once. The
// default is a MemoryStore of the runner's own (TurnOptions.Store); a
// store given to the runners of several connections lets a client load
// or resume on one connection the sessions it created on another.
type SessionStore interface {
	// Save writes rec, and appends the updates appended (the params of
	// session/update notifications, in the order they were sent) to the
	// session's history, at once: a reader sees both or neither. The
	// record is written only over the revision it was read at: Save
	// fails with ErrSessionConflict when the stored revision is not
	// rec.Revision (0 for a session the store does not have yet, which
	// Save creates), and sets rec.Revision to the new revision on
	// success. The store does not keep appended: it copies what it
	// keeps, and the caller may reuse the slices once Save returns. A
	// store may drop the oldest updates of a history past its bound
	// (rec.Dropped counts them).
	Save(ctx context.Context, rec *SessionRecord, appended ...json.RawMessage) error
	// Load returns the record of session id, or ErrSessionNotStored.
	Load(ctx context.Context, id SessionID) (*SessionRecord, error)
	// History calls f with the history of session id that the store
	// retains, in order, each update with its position (1 for the first
	// update ever appended, counting those dropped), until f returns an
	// error, which History returns. f must not modify update nor keep it
	// after it returns.
	History(ctx context.Context, id SessionID, f func(seq uint64, update json.RawMessage) error) error
	// List returns the records of the sessions that q selects, in the
	// order they were created, at most q.Limit, and the cursor of the
	// next page ("" when this is the last).
	List(ctx context.Context, q SessionQuery) (page []SessionRecord, next string, err error)
	// Delete removes session id and its history; removing a session the
	// store does not have succeeds.
	Delete(ctx context.Context, id SessionID) error
}

// SessionRecord is what a SessionStore keeps of a session besides its
// history. The members that hold ACP values hold them as the JSON that
// was received or sent.
type SessionRecord struct {
	// ID is the session's id.
	ID SessionID
	// Protocol is the protocol version of the runner that created the
	// session (1, 2): a runner of another version does not serve it.
	Protocol int
	// Cwd is the working directory the session was created in.
	Cwd string
	// Title is the session's title as the last session_info_update set
	// it; nil for none.
	Title *string
	// UpdatedAt is the time of the session's last activity, as the last
	// session_info_update gave it or the runner set it (RFC 3339).
	UpdatedAt string
	// Created is when the session was created.
	Created time.Time
	// ConfigOptions is the session's config options (a JSON array), nil
	// for none.
	ConfigOptions json.RawMessage
	// Modes is the session's modes with the current one (v1's
	// SessionModeState), nil for none.
	Modes json.RawMessage
	// MCPServers is the MCP servers of the request that created or last
	// loaded the session, as received (a JSON array).
	MCPServers json.RawMessage
	// Meta is the _meta of that request, as received.
	Meta json.RawMessage
	// Turn is the state of the session's last prompt turn.
	Turn TurnRecord
	// Updates is how many updates the session's history has had: the
	// position of the last one.
	Updates uint64
	// Dropped is how many of the oldest the store has dropped: the
	// history retained starts at position Dropped+1.
	Dropped uint64
	// Revision is the store's revision of the record (see Save).
	Revision uint64
}

// TurnRecord is the state of a session's last prompt turn.
type TurnRecord struct {
	// State is TurnNone before the first turn, TurnRunning while one
	// runs and TurnEnded after.
	State TurnState
	// StopReason is the stop reason the turn ended with, as sent (v1: a
	// string such as "end_turn"; v2: the idle state update), nil while it
	// runs.
	StopReason json.RawMessage
	// Started is when the turn started.
	Started time.Time
	// Ended is when the turn ended; it is zero while the turn runs.
	Ended time.Time
}

// TurnState says where a session's last turn is.
type TurnState string

const (
	// TurnNone: the session has had no turn.
	TurnNone TurnState = ""
	// TurnRunning: a turn runs. Read from a store after a restart, it
	// says the turn was interrupted.
	TurnRunning TurnState = "running"
	// TurnEnded: the last turn has ended.
	TurnEnded TurnState = "ended"
)

// SessionQuery selects sessions in SessionStore.List.
type SessionQuery struct {
	// Cwd, if not "", selects the sessions of that working directory.
	Cwd string
	// Protocol, if not 0, selects the sessions of that protocol version.
	Protocol int
	// Cursor is "" for the first page, or the next cursor of the last.
	Cursor string
	// Limit is the most sessions of a page; 0 or less: 100.
	Limit int
}

var (
	// ErrSessionNotStored is the error of a SessionStore for a session it
	// does not have.
	ErrSessionNotStored = errors.New("acp: the session is not in the store")
	// ErrSessionConflict is the error of SessionStore.Save when the
	// session's record has changed since it was read: another runner
	// (another connection, another process) wrote it meanwhile.
	ErrSessionConflict = errors.New("acp: the session was changed by another writer")
	// ErrBadCursor is the error of SessionStore.List for a cursor that it
	// did not give.
	ErrBadCursor = errors.New("acp: the cursor was not given by this store")
)

// The bounds of a MemoryStore's history of one session, by default.
const (
	// DefaultHistoryUpdates is how many updates a session's history
	// keeps at most.
	DefaultHistoryUpdates = 10000
	// DefaultHistoryBytes is how many bytes of JSON a session's history
	// keeps at most.
	DefaultHistoryBytes = 16 << 20
)

// MemoryStore is a SessionStore in memory, the default of a TurnRunner:
// it lasts as long as the process. It bounds each session's history by
// MaxUpdates and MaxBytes, dropping the oldest updates past either. The
// zero value is ready to use; a MemoryStore must not be copied after
// first use.
type MemoryStore struct {
	// MaxUpdates is how many updates a session's history keeps at most;
	// 0: DefaultHistoryUpdates.
	MaxUpdates int
	// MaxBytes is how many bytes of JSON a session's history keeps at
	// most; 0: DefaultHistoryBytes.
	MaxBytes int

	mu       sync.Mutex
	sessions map[SessionID]*memorySession
	order    []*memorySession // by creation
	created  uint64           // sessions ever created: the next one's number
}

// memorySession is a session of a MemoryStore.
type memorySession struct {
	n   uint64 // creation number, 1, 2, …
	rec SessionRecord
	// ring holds the retained history, oldest first from head: count
	// updates, each in a block of arena. It grows, doubling, to at most
	// the bound of updates, and then the newest take the slots of the
	// oldest, so that appending moves none.
	ring        []json.RawMessage
	head, count int
	bytes       int    // the size of the retained history
	arena       []byte // the free end of the block the next update is copied to
}

// arenaBlock is the size of the blocks a MemoryStore copies updates into,
// once a session has had a few: one allocation for many updates; a block
// is freed once the updates in it are dropped. A session's first blocks
// are smaller (firstBlock, doubling), so that a short history holds
// little.
const (
	arenaBlock = 32 << 10
	firstBlock = 1 << 10
)

// keep copies u to the arena of s and returns the copy.
func (s *memorySession) keep(u json.RawMessage) json.RawMessage {
	if len(u) > arenaBlock/4 {
		return append(json.RawMessage(nil), u...)
	}
	if cap(s.arena)-len(s.arena) < len(u) {
		size := min(max(2*cap(s.arena), firstBlock), arenaBlock)
		for size < len(u) {
			size *= 2
		}
		s.arena = make([]byte, 0, size)
	}
	start := len(s.arena)
	s.arena = append(s.arena, u...)
	return s.arena[start:len(s.arena):len(s.arena)]
}

// push appends u, copied, to the retained history of s, first dropping
// the oldest updates as many as it takes for u to fit in maxUpdates
// updates and maxBytes bytes; it returns how many it dropped, u itself
// counted when it alone is larger than maxBytes.
func (s *memorySession) push(u json.RawMessage, maxUpdates, maxBytes int) (dropped int) {
	for s.count > 0 && (s.count >= maxUpdates || s.bytes+len(u) > maxBytes) {
		s.bytes -= len(s.ring[s.head])
		s.ring[s.head] = nil
		s.head = (s.head + 1) % len(s.ring)
		s.count--
		dropped++
	}
	if len(u) > maxBytes {
		return dropped + 1
	}
	if s.count == len(s.ring) {
		s.grow(min(max(2*len(s.ring), 16), maxUpdates))
	}
	s.ring[(s.head+s.count)%len(s.ring)] = s.keep(u)
	s.count++
	s.bytes += len(u)
	return dropped
}

// grow moves the retained history of s to a ring of n slots, oldest
// first; n is at least one more than it holds.
func (s *memorySession) grow(n int) {
	ring := make([]json.RawMessage, n)
	s.copyTo(ring)
	s.ring, s.head = ring, 0
}

// copyTo copies the retained history of s, oldest first, to dst, which
// has room for it.
func (s *memorySession) copyTo(dst []json.RawMessage) {
	n := copy(dst[:s.count], s.ring[s.head:min(s.head+s.count, len(s.ring))])
	copy(dst[n:s.count], s.ring)
}

// Save writes rec and appends appended to its history (SessionStore).
func (m *MemoryStore) Save(ctx context.Context, rec *SessionRecord, appended ...json.RawMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[rec.ID]
	switch {
	case s == nil && rec.Revision != 0, s != nil && s.rec.Revision != rec.Revision:
		return ErrSessionConflict
	case s == nil:
		if m.sessions == nil {
			m.sessions = map[SessionID]*memorySession{}
		}
		m.created++
		s = &memorySession{n: m.created}
		m.sessions[rec.ID] = s
		m.order = append(m.order, s)
	}
	rec.Updates = s.rec.Updates + uint64(len(appended))
	rec.Dropped = s.rec.Dropped
	maxUpdates, maxBytes := orDefault(m.MaxUpdates, DefaultHistoryUpdates), orDefault(m.MaxBytes, DefaultHistoryBytes)
	for _, u := range appended {
		rec.Dropped += uint64(s.push(u, maxUpdates, maxBytes))
	}
	rec.Revision++
	s.rec = *rec
	return nil
}

// orDefault returns n, or def when n is 0 or less.
func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

// Load returns the record of session id (SessionStore).
func (m *MemoryStore) Load(ctx context.Context, id SessionID) (*SessionRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		return nil, ErrSessionNotStored
	}
	rec := s.rec
	return &rec, nil
}

// History calls f with the retained history of session id (SessionStore).
func (m *MemoryStore) History(ctx context.Context, id SessionID, f func(seq uint64, update json.RawMessage) error) error {
	m.mu.Lock()
	s := m.sessions[id]
	if s == nil {
		m.mu.Unlock()
		return ErrSessionNotStored
	}
	// The updates stay as they are; their slots do not: a Save may
	// reuse them once the lock is released.
	history, first := make([]json.RawMessage, s.count), s.rec.Dropped+1
	s.copyTo(history)
	m.mu.Unlock()
	for i, u := range history {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := f(first+uint64(i), u); err != nil {
			return err
		}
	}
	return nil
}

// List returns the sessions q selects (SessionStore). Its cursor is the
// creation number of the last session of the page.
func (m *MemoryStore) List(ctx context.Context, q SessionQuery) ([]SessionRecord, string, error) {
	after := uint64(0)
	if q.Cursor != "" {
		n, err := strconv.ParseUint(q.Cursor, 10, 64)
		if err != nil {
			return nil, "", ErrBadCursor
		}
		after = n
	}
	limit := orDefault(q.Limit, 100)
	m.mu.Lock()
	defer m.mu.Unlock()
	var page []SessionRecord
	for _, s := range m.order {
		switch {
		case s.n <= after, q.Cwd != "" && s.rec.Cwd != q.Cwd, q.Protocol != 0 && s.rec.Protocol != q.Protocol:
			continue
		case len(page) == limit:
			return page, strconv.FormatUint(after, 10), nil
		}
		page = append(page, s.rec)
		after = s.n
	}
	return page, "", nil
}

// Delete removes session id (SessionStore).
func (m *MemoryStore) Delete(ctx context.Context, id SessionID) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		return nil
	}
	delete(m.sessions, id)
	for i, x := range m.order {
		if x == s {
			m.order = append(m.order[:i:i], m.order[i+1:]...)
			break
		}
	}
	return nil
}
