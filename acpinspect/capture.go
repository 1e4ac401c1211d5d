package acpinspect

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite", pure Go
)

// captureFormat is the value of the capture table's "format" row: readers
// refuse a file of another format.
const captureFormat = "acpinspect-capture-1"

// captureSchema makes the tables of a capture: one row per frame, in the
// order the frames passed.
const captureSchema = `
CREATE TABLE capture (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE frames (
	seq       INTEGER PRIMARY KEY,
	conn      INTEGER NOT NULL,
	time_ns   INTEGER NOT NULL,
	sender    TEXT NOT NULL,
	truncated INTEGER NOT NULL DEFAULT 0,
	data      BLOB NOT NULL
);`

// flushEvery is how often a Capture writes the frames it was handed.
const flushEvery = 100 * time.Millisecond

// flushSize is the number of frames pending that makes a Capture write
// them at once; Record waits while twice as many are pending, so that a
// file slower than the traffic slows the recorder (which a tap's queue
// bounds) rather than filling memory.
const flushSize = 8192

// A Capture records frames in an SQLite file that OpenCapture reads back.
// Frames are written in batches, each in one transaction, at most
// flushEvery after they were handed over, and all of them by Close.
type Capture struct {
	db      *sql.DB
	path    string
	mu      sync.Mutex
	room    *sync.Cond // signalled when pending is written
	pending []Frame
	err     error // the first write error
	seq     int64
	dropped int // lines that passed unrecorded
	kick    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// CreateCapture makes a new capture file at path, which must not exist,
// and records into it until Close. about is kept in the file (the command
// that was inspected, say).
func CreateCapture(path, about string) (*Capture, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("acpinspect: capture: %w", err)
	}
	f.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("acpinspect: capture %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	init := captureSchema + `
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;`
	if _, err := db.Exec(init); err == nil {
		_, err = db.Exec(`INSERT INTO capture (key, value) VALUES ('format', ?), ('about', ?), ('created', ?)`,
			captureFormat, about, time.Now().UTC().Format(time.RFC3339Nano))
	}
	if err != nil {
		db.Close()
		os.Remove(path)
		return nil, fmt.Errorf("acpinspect: capture %s: %w", path, err)
	}
	c := &Capture{db: db, path: path, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	c.room = sync.NewCond(&c.mu)
	go c.loop()
	return c, nil
}

// Record queues f for the file. It waits while 2*flushSize frames are
// pending.
func (c *Capture) Record(f Frame) {
	c.mu.Lock()
	for len(c.pending) >= 2*flushSize && !c.closing() {
		c.room.Wait()
	}
	c.pending = append(c.pending, f)
	n := len(c.pending)
	c.mu.Unlock()
	if n == flushSize {
		select {
		case c.kick <- struct{}{}:
		default:
		}
	}
}

// closing reports whether Close has begun (its flush writes everything).
func (c *Capture) closing() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// Gap counts lines that passed unrecorded; Close keeps their number in the
// file, as "dropped".
func (c *Capture) Gap(conn int64, from Sender, lines, bytes int) {
	c.mu.Lock()
	c.dropped += lines
	c.mu.Unlock()
}

// loop writes the pending frames every flushEvery until Close.
func (c *Capture) loop() {
	defer close(c.done)
	t := time.NewTicker(flushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			c.flush()
		case <-c.kick:
			c.flush()
		case <-c.stop:
			c.flush()
			return
		}
	}
}

// flush writes the pending frames in one transaction.
func (c *Capture) flush() {
	c.mu.Lock()
	frames := c.pending
	c.pending = nil
	c.room.Broadcast()
	c.mu.Unlock()
	if len(frames) == 0 {
		return
	}
	if err := c.write(frames); err != nil {
		c.mu.Lock()
		if c.err == nil {
			c.err = err
		}
		c.mu.Unlock()
	}
}

func (c *Capture) write(frames []Frame) error {
	tx, err := c.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st, err := tx.Prepare(`INSERT INTO frames (seq, conn, time_ns, sender, truncated, data) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, f := range frames {
		c.seq++
		if _, err := st.Exec(c.seq, f.Conn, f.Time.UnixNano(), f.From.String(), f.Truncated, f.Data); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Close writes what is pending, leaves the file whole in one piece (no
// write-ahead log beside it) and closes it. It returns the first error
// writing the file met.
func (c *Capture) Close() error {
	c.once.Do(func() {
		close(c.stop)
		<-c.done
		c.mu.Lock()
		c.room.Broadcast()
		dropped := c.dropped
		c.mu.Unlock()
		var err error
		if dropped > 0 {
			_, err = c.db.Exec(`INSERT INTO capture (key, value) VALUES ('dropped', ?)`, fmt.Sprint(dropped))
		}
		if _, perr := c.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;`); err == nil {
			err = perr
		}
		if cerr := c.db.Close(); err == nil {
			err = cerr
		}
		c.mu.Lock()
		if c.err == nil && err != nil {
			c.err = err
		}
		c.mu.Unlock()
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return fmt.Errorf("acpinspect: capture %s: %w", c.path, c.err)
	}
	return nil
}

// sqliteMagic starts every SQLite file.
const sqliteMagic = "SQLite format 3\x00"

// IsCapture reports whether the file at path is an SQLite file (a capture,
// or another database that OpenCapture will refuse).
func IsCapture(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [len(sqliteMagic)]byte
	_, err = io.ReadFull(f, b[:])
	return err == nil && string(b[:]) == sqliteMagic
}

// ReadCapture hands every frame of the capture at path to rec, in order,
// and returns what the capture says about itself.
func ReadCapture(ctx context.Context, path string, rec Recorder) (about string, err error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return "", fmt.Errorf("acpinspect: %s: %w", path, err)
	}
	defer db.Close()
	var format string
	if err := db.QueryRowContext(ctx, `SELECT value FROM capture WHERE key = 'format'`).Scan(&format); err != nil {
		return "", fmt.Errorf("acpinspect: %s is not a capture: %w", path, err)
	}
	if format != captureFormat {
		return "", fmt.Errorf("acpinspect: %s is a capture of format %q; this program reads %q", path, format, captureFormat)
	}
	if err := db.QueryRowContext(ctx, `SELECT value FROM capture WHERE key = 'about'`).Scan(&about); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("acpinspect: %s: %w", path, err)
	}
	rows, err := db.QueryContext(ctx, `SELECT seq, conn, time_ns, sender, truncated, data FROM frames ORDER BY seq`)
	if err != nil {
		return "", fmt.Errorf("acpinspect: %s: %w", path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var seq, conn, ns int64
		var sender string
		var truncated bool
		var data []byte
		if err := rows.Scan(&seq, &conn, &ns, &sender, &truncated, &data); err != nil {
			return "", fmt.Errorf("acpinspect: %s: frame %d: %w", path, seq, err)
		}
		from, ok := parseSender(sender)
		if !ok {
			return "", fmt.Errorf("acpinspect: %s: frame %d: unknown sender %q", path, seq, sender)
		}
		rec.Record(Frame{Conn: conn, Time: time.Unix(0, ns), From: from, Data: data, Truncated: truncated})
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("acpinspect: %s: %w", path, err)
	}
	return about, nil
}
