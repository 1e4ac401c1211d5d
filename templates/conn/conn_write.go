//go:build ignore

package acp

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// The last stage of a message's path: writing the outbox, by the goroutine
// that holds the writer role, joining the queued messages into as few
// Writes as fit, and ending the connection when a write stalls.

// maxJoined is the most bytes of queued messages joined into one Write:
// as many as a pooled buffer keeps.
const maxJoined = maxPooled

// startWriter starts a goroutine that writes the queue, for a sender that
// took the writer role but must not block in a Write.
func (c *connection) startWriter() {
	go c.drain(false)
}

// drain writes the queue, as the holder of the writer role, until it is
// empty or, when once is set, after one batch (a goroutine of its own then
// takes over what was queued meanwhile); then it gives the role up. Once
// the connection has ended, it writes only if it is flushing (Close was
// called, or the peer closed its end), and it closes Done when it gives
// the role up.
func (c *connection) drain(once bool) {
	for first := true; ; first = false {
		batch, ended, more := c.out.take(c.flushing.Load(), once && !first)
		switch {
		case more:
			c.startWriter()
			return
		case batch == nil:
			if ended {
				c.finish()
			}
			return
		}
		if !c.writeBatch(batch) {
			c.flushing.Store(false) // what is left is dropped
		}
		clear(batch)
	}
}

// writeOwn writes buf, the message of a sender that claimed the writer
// role for it, then gives the role up or hands it to a goroutine.
func (c *connection) writeOwn(buf *[]byte) {
	n := len(*buf)
	if !c.writeOut(*buf) {
		c.flushing.Store(false) // what is left is dropped
	}
	putBuffer(buf)
	switch ended, more := c.out.wrote(n, c.flushing.Load()); {
	case more:
		c.startWriter()
	case ended:
		c.finish()
	}
}

// writeBatch writes the messages of batch, joined into as few Writes as
// fit maxJoined; a message is never split. It reports whether the writes
// went through.
func (c *connection) writeBatch(batch []*[]byte) bool {
	var joined *[]byte
	defer func() {
		if joined != nil {
			putBuffer(joined)
		}
	}()
	for i := 0; i < len(batch); {
		b, n := *batch[i], 1
		if len(b) < maxJoined && i+1 < len(batch) {
			if joined == nil {
				joined = encodeBuffer()
				if cap(*joined) < maxJoined {
					*joined = make([]byte, 0, maxJoined) // kept by the pool, once grown
				}
			}
			*joined = append((*joined)[:0], b...)
			for ; i+n < len(batch) && len(*joined)+len(*batch[i+n]) <= maxJoined; n++ {
				*joined = append(*joined, *batch[i+n]...)
			}
			b = *joined
		}
		if !c.writeOut(b) {
			for _, buf := range batch[i:] {
				putBuffer(buf)
			}
			return false
		}
		c.out.sent(len(b))
		for _, buf := range batch[i : i+n] {
			putBuffer(buf)
		}
		i += n
	}
	return true
}

// writeOut writes b, watched for stalls; it reports whether the write went
// through.
func (c *connection) writeOut(b []byte) bool {
	c.writing.Store(true)
	defer c.writing.Store(false)
	if c.ended() && !c.flushing.Load() {
		return false
	}
	c.stall.begin()
	_, err := c.w.Write(b)
	c.stall.finish()
	if err != nil {
		c.end(fmt.Errorf("writing: %w", err))
		return false
	}
	return true
}

// ended reports whether the connection has ended.
func (c *connection) ended() bool { return c.over.Load() }

// finish closes the channel of Done, once: the connection has ended, and
// its output has been written, or given up.
func (c *connection) finish() {
	c.finishOnce.Do(func() {
		c.stall.stop()
		close(c.finished)
	})
}

// stallWatch ends the connection when a write has been blocked for the
// stall limit. Its timer ticks every quarter of the limit while writes are
// being made; a write that is still the one in progress at five ticks in a
// row has been blocked for at least the limit (and at most a quarter more).
// A write costs two atomic additions, not a clock reading.
type stallWatch struct {
	c      *connection
	mu     sync.Mutex
	timer  *time.Timer // made by the first write
	armed  atomic.Bool
	writes atomic.Uint64 // incremented as each write begins and ends: odd during one
	last   uint64        // the count at the last tick that saw a write in progress
	ticks  int           // the ticks in a row that saw that same write
	ended  bool          // stop was called
}

// stallTicks is how many ticks in a row see one write in progress before
// it counts as stalled.
const stallTicks = 5

// period is the time between ticks.
func (s *stallWatch) period() time.Duration {
	return max(s.c.cfg.limits.OutputStall/(stallTicks-1), 1)
}

// begin records that a write begins.
func (s *stallWatch) begin() {
	s.writes.Add(1)
	if !s.armed.Load() {
		s.arm()
	}
}

// arm starts the ticks, unless they run.
func (s *stallWatch) arm() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || !s.armed.CompareAndSwap(false, true) {
		return
	}
	if s.timer == nil {
		s.timer = time.AfterFunc(s.period(), s.check)
	} else {
		s.timer.Reset(s.period())
	}
}

// finish records that the write has returned.
func (s *stallWatch) finish() { s.writes.Add(1) }

// stop stops the ticks for good.
func (s *stallWatch) stop() {
	s.mu.Lock()
	if s.timer != nil {
		s.timer.Stop()
	}
	s.ended = true
	s.mu.Unlock()
}

// check runs at each tick.
func (s *stallWatch) check() {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	w := s.writes.Load()
	if w%2 == 0 {
		// No write in progress: the ticks stop until the next one, and the
		// timer goes, for an idle connection keeps none.
		s.ticks, s.timer = 0, nil
		s.armed.Store(false)
		s.mu.Unlock()
		if s.writes.Load()%2 == 1 { // one began meanwhile, and saw them armed
			s.arm()
		}
		return
	}
	if w == s.last {
		s.ticks++
	} else {
		s.last, s.ticks = w, 1
	}
	if s.ticks < stallTicks {
		s.timer.Reset(s.period())
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	limit := s.c.cfg.limits.OutputStall
	s.c.flushing.Store(false)
	s.c.end(fmt.Errorf("writing stalled: the peer read nothing for %v", limit))
	s.c.closeIO(true, true)
	// The writer may stay blocked, if w cannot be closed: the connection
	// gives its output up.
	s.c.finish()
}
