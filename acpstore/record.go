package acpstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// Record is what a Store keeps of a session besides its history: the
// generated SessionRecord of either version, with the values of ACP as the
// JSON that was received or sent.
type Record struct {
	ID            string
	Protocol      int
	Cwd           string
	Title         *string
	UpdatedAt     string
	Created       time.Time
	ConfigOptions []byte
	Modes         []byte
	MCPServers    []byte
	Meta          []byte
	TurnState     string
	TurnStop      []byte
	TurnStarted   time.Time
	TurnEnded     time.Time
	Updates       uint64
	Dropped       uint64
	Revision      uint64
}

// queries are the statements of a dialect.
type queries struct {
	insert, update, history, load, list, delSession, delHistory, bounds, trim, sizes, insertRow, cut string
}

const recordColumns = `protocol, cwd, title, updated_at, created, config_options, modes, mcp_servers, meta, turn_state, turn_stop_reason, turn_started, turn_ended`

var placeholder = regexp.MustCompile(`\$([0-9]+)`)

// rebind writes the placeholders $1, $2, … of query as dialect d wants
// them.
func rebind(d Dialect, query string) string {
	if d == SQLite {
		return placeholder.ReplaceAllString(query, "?$1")
	}
	return query
}

func newQueries(d Dialect) queries {
	q := queries{
		insert: `INSERT INTO acp_sessions (id, ` + recordColumns + `, updates, dropped, bytes, revision)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 0, $16, $17)
			ON CONFLICT (id) DO NOTHING RETURNING updates, dropped, bytes`,
		update: `UPDATE acp_sessions SET protocol = $2, cwd = $3, title = $4, updated_at = $5, created = $6,
			config_options = $7, modes = $8, mcp_servers = $9, meta = $10, turn_state = $11, turn_stop_reason = $12,
			turn_started = $13, turn_ended = $14, updates = updates + $15, bytes = bytes + $16, revision = $17
			WHERE id = $1 AND revision = $18 RETURNING updates, dropped, bytes`,
		load:       `SELECT id, ` + recordColumns + `, updates, dropped, revision FROM acp_sessions WHERE id = $1`,
		list:       `SELECT n, id, ` + recordColumns + `, updates, dropped, revision FROM acp_sessions WHERE n > $1 AND ($2 = '' OR cwd = $2) AND ($3 = 0 OR protocol = $3) ORDER BY n LIMIT $4`,
		history:    `SELECT seq, n, body, sizes FROM acp_history WHERE session_id = $1 ORDER BY seq`,
		delSession: `DELETE FROM acp_sessions WHERE id = $1`,
		delHistory: `DELETE FROM acp_history WHERE session_id = $1`,
		sizes:      `SELECT seq, n, length(body), sizes FROM acp_history WHERE session_id = $1 AND seq + n - 1 > $2 ORDER BY seq`,
		trim:       `DELETE FROM acp_history WHERE session_id = $1 AND seq + n - 1 <= $2`,
		insertRow:  `INSERT INTO acp_history (session_id, seq, n, body, sizes) VALUES ($1, $2, $3, $4, $5)`,
		cut:        `UPDATE acp_history SET seq = $3, n = $4, body = substr(body, $5), sizes = $6 WHERE session_id = $1 AND seq = $2`,
		bounds:     `UPDATE acp_sessions SET dropped = $2, bytes = bytes - $3 WHERE id = $1`,
	}
	for _, p := range []*string{&q.insert, &q.update, &q.load, &q.list, &q.history, &q.delSession, &q.delHistory, &q.sizes, &q.trim, &q.bounds, &q.insertRow, &q.cut} {
		*p = rebind(d, *p)
	}
	return q
}

// nanos is t as Unix nanoseconds, 0 for the zero time.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// fromNanos is the time of Unix nanoseconds n, the zero time for 0.
func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// scanRecord reads a record of the columns of queries.load, after those in
// extra.
func scanRecord(row scanner, extra ...any) (*Record, error) {
	var rec Record
	var title sql.NullString
	var created, started, ended int64
	var updates, dropped, revision int64
	dest := append(extra, &rec.ID, &rec.Protocol, &rec.Cwd, &title, &rec.UpdatedAt, &created, &rec.ConfigOptions, &rec.Modes,
		&rec.MCPServers, &rec.Meta, &rec.TurnState, &rec.TurnStop, &started, &ended, &updates, &dropped, &revision)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	if title.Valid {
		rec.Title = &title.String
	}
	rec.Created, rec.TurnStarted, rec.TurnEnded = fromNanos(created), fromNanos(started), fromNanos(ended)
	rec.Updates, rec.Dropped, rec.Revision = uint64(updates), uint64(dropped), uint64(revision)
	return &rec, nil
}

// Load returns the record of session id, or ErrNotStored. What Saves
// queued is committed first.
func (s *Store) Load(ctx context.Context, id string) (*Record, error) {
	if err := s.readable(ctx); err != nil {
		return nil, err
	}
	rec, err := scanRecord(s.db.QueryRowContext(ctx, s.q.load, id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, ErrNotStored
	case err != nil:
		return nil, fmt.Errorf("acpstore: load a session: %w", err)
	}
	s.mu.Lock()
	if _, queued := s.cur.sessions[id]; !queued {
		// Read afresh, a session that lost a write is written again.
		s.revs[id] = rec.Revision
		delete(s.failed, id)
	}
	s.mu.Unlock()
	return rec, nil
}

// History calls f with the history of session id that the store retains,
// in order, each update with its position (1 for the first ever
// appended), until f returns an error, which History returns.
func (s *Store) History(ctx context.Context, id string, f func(seq uint64, update []byte) error) error {
	if _, err := s.Load(ctx, id); err != nil {
		return err
	}
	rows, err := s.db.QueryContext(ctx, s.q.history, id)
	if err != nil {
		return fmt.Errorf("acpstore: read a history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var seq, n int64
		var body, sizes sql.RawBytes
		if err := rows.Scan(&seq, &n, &body, &sizes); err != nil {
			return fmt.Errorf("acpstore: read a history: %w", err)
		}
		if err := rowUpdates(id, seq, n, body, sizes, f); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("acpstore: read a history: %w", err)
	}
	return nil
}

// Query selects sessions in List.
type Query struct {
	Cwd      string
	Protocol int
	Cursor   string
	Limit    int
}

// List returns the records of the sessions q selects, in the order they
// were created, at most q.Limit (0: 100), and the cursor of the next page
// ("" for the last).
func (s *Store) List(ctx context.Context, q Query) ([]Record, string, error) {
	after := int64(0)
	if q.Cursor != "" {
		n, err := strconv.ParseInt(q.Cursor, 10, 64)
		if err != nil || n < 0 {
			return nil, "", ErrBadCursor
		}
		after = n
	}
	if err := s.readable(ctx); err != nil {
		return nil, "", err
	}
	limit := orDefault(q.Limit, 100)
	rows, err := s.db.QueryContext(ctx, s.q.list, after, q.Cwd, q.Protocol, limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("acpstore: list the sessions: %w", err)
	}
	defer rows.Close()
	var page []Record
	var last int64
	next := ""
	for rows.Next() {
		var n int64
		rec, err := scanRecord(rows, &n)
		if err != nil {
			return nil, "", fmt.Errorf("acpstore: list the sessions: %w", err)
		}
		if len(page) == limit {
			next = strconv.FormatInt(last, 10)
			break
		}
		page, last = append(page, *rec), n
	}
	if err := rows.Err(); err != nil {
		return nil, "", fmt.Errorf("acpstore: list the sessions: %w", err)
	}
	return page, next, nil
}

// Delete removes session id and its history; removing a session the store
// does not have succeeds.
func (s *Store) Delete(ctx context.Context, id string) error {
	if err := s.readable(ctx); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("acpstore: delete a session: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, s.q.delHistory, id); err != nil {
		return fmt.Errorf("acpstore: delete a session: %w", err)
	}
	if _, err := tx.ExecContext(ctx, s.q.delSession, id); err != nil {
		return fmt.Errorf("acpstore: delete a session: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("acpstore: delete a session: %w", err)
	}
	s.mu.Lock()
	delete(s.revs, id)
	s.mu.Unlock()
	return nil
}

// readable waits for what Saves queued to be committed, so that a read
// sees this process's writes; a failed commit is not the read's error.
func (s *Store) readable(ctx context.Context) error {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return ErrClosed
	}
	_ = s.Flush(ctx)
	return ctx.Err()
}
