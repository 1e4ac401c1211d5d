package acpinspect

import (
	"bytes"
	"sync"
	"time"
)

// Sender says who wrote a frame.
type Sender uint8

// The senders of frames.
const (
	// FromClient is a frame the client wrote to the agent.
	FromClient Sender = iota + 1
	// FromAgent is a frame the agent wrote to the client.
	FromAgent
	// FromStderr is a line of the agent's standard error.
	FromStderr
)

// String returns "client", "agent" or "stderr".
func (s Sender) String() string {
	switch s {
	case FromClient:
		return "client"
	case FromAgent:
		return "agent"
	case FromStderr:
		return "stderr"
	}
	return "unknown"
}

// parseSender is the inverse of Sender.String.
func parseSender(s string) (Sender, bool) {
	switch s {
	case "client":
		return FromClient, true
	case "agent":
		return FromAgent, true
	case "stderr":
		return FromStderr, true
	}
	return 0, false
}

// A Frame is one line that passed: a JSON-RPC message (or a line that
// should have been one), or a line of standard error.
type Frame struct {
	// Conn numbers the connection, from 1.
	Conn int64
	// Time is when the line was read.
	Time time.Time
	// From is who wrote it.
	From Sender
	// Data is the line without its newline; the recorder owns it.
	Data []byte
	// Truncated is set when Data is only the start of the line (a wire
	// log cuts long lines).
	Truncated bool
}

// A Recorder receives frames in the order they passed. f.Data is handed
// over: the caller does not use or change it again, so a recorder may keep
// it.
type Recorder interface {
	Record(f Frame)
}

// Recorders hands each frame to every recorder in turn.
type Recorders []Recorder

// Record hands f to each recorder.
func (rs Recorders) Record(f Frame) {
	for _, r := range rs {
		r.Record(f)
	}
}

// lineSplitter cuts a byte stream into lines and hands them to a queue as
// frames, the lines of one write at once. It copies what it keeps, once a
// write, so the caller may reuse its buffer.
type lineSplitter struct {
	conn    int64
	from    Sender
	rec     *queue
	partial []byte
	batch   []Frame
}

// write records every complete line in p, and keeps the rest for later.
func (l *lineSplitter) write(p []byte) {
	now := time.Now()
	i := bytes.LastIndexByte(p, '\n')
	if i < 0 {
		l.partial = append(l.partial, p...)
		return
	}
	whole := p[:i+1]
	var b []byte
	if len(l.partial) > 0 {
		b = append(l.partial, whole...)
		l.partial = nil
	} else {
		b = bytes.Clone(whole)
	}
	l.batch = l.batch[:0]
	for len(b) > 0 {
		j := bytes.IndexByte(b, '\n')
		line := b[:j:j] // the next line's bytes stay out of reach
		l.batch = append(l.batch, Frame{Conn: l.conn, Time: now, From: l.from, Data: bytes.TrimSuffix(line, []byte{'\r'})})
		b = b[j+1:]
	}
	l.rec.add(l.batch)
	if rest := p[i+1:]; len(rest) > 0 {
		l.partial = append([]byte(nil), rest...)
	}
}

// flush records a last line that had no newline.
func (l *lineSplitter) flush() {
	if len(l.partial) > 0 {
		l.rec.add([]Frame{{Conn: l.conn, Time: time.Now(), From: l.from, Data: l.partial}})
		l.partial = nil
	}
}

// queue is an unbounded FIFO of frames between the goroutines that pass
// traffic, which must never wait for a slow recorder, and the one that
// records.
type queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	frames []Frame
	closed bool
}

func newQueue() *queue {
	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// add adds frames to the queue.
func (q *queue) add(frames []Frame) {
	q.mu.Lock()
	if !q.closed {
		q.frames = append(q.frames, frames...)
	}
	q.mu.Unlock()
	q.cond.Signal()
}

// close makes take return false once the queue is empty.
func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// take waits for frames and returns all of them, or false once the queue
// is closed and empty.
func (q *queue) take(buf []Frame) ([]Frame, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.frames) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.frames) == 0 {
		return buf, false
	}
	buf = append(buf[:0], q.frames...)
	clear(q.frames)
	q.frames = q.frames[:0]
	return buf, true
}

// pump hands the frames of q to rec, in order, until q is closed and
// drained; done is closed then.
func pump(q *queue, rec Recorder, done chan<- struct{}) {
	defer close(done)
	var buf []Frame
	for {
		var ok bool
		if buf, ok = q.take(buf); !ok {
			return
		}
		for _, f := range buf {
			rec.Record(f)
		}
	}
}
