package acpinspect

import (
	"bytes"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxPending bounds the bytes a tap or a proxy has passed on but
// its recorder has not yet taken: bursts up to this size pass at the
// speed of the pipes and are recorded a little later.
const DefaultMaxPending = 64 << 20

// recordDelay is the quiet the recorder waits for before it takes what is
// queued: while reads follow each other closer than this, and the bytes
// queued are under half their bound, the recorder leaves the CPU to the
// traffic, and it records a burst in batches instead of a wake-up a read.
const recordDelay = time.Millisecond

// blockSize is the size of the blocks the forwarding goroutines read into,
// and minRead the least room a read is given: each read goes to the free
// end of its stream's block, and is handed to the recorder as a slice of
// it, without a copy or an allocation; a block with less room left is
// replaced by one from the pool.
const (
	blockSize = copyBuffer
	minRead   = 8 << 10
)

// block is a buffer the forwarding goroutine of a stream reads into. It is
// counted once for that goroutine, while it reads into the block, and once
// for each read queued from it; the last of them to be done returns it to
// the pool.
type block struct {
	b    []byte
	refs atomic.Int32
}

var blocks = sync.Pool{New: func() any { return &block{b: make([]byte, blockSize)} }}

// newBlock returns a block of the pool, counted once for its reader.
func newBlock() *block {
	bl := blocks.Get().(*block)
	bl.refs.Store(1)
	return bl
}

func (bl *block) release() {
	if bl.refs.Add(-1) == 0 {
		blocks.Put(bl)
	}
}

// streamKey names one direction of one connection.
type streamKey struct {
	conn int64
	from Sender
}

// chunk is one read of a stream, queued for the recorder.
type chunk struct {
	streamKey
	time time.Time
	data []byte
	buf  *block // data's block, released once recorded; nil when data is the chunk's own
	eof  bool   // the stream ended after data
	gap  gap    // what was left out of the stream before data
}

func (c *chunk) free() {
	if c.buf != nil {
		c.buf.release()
	}
	*c = chunk{}
}

// gap counts what a stream passed without it being queued.
type gap struct {
	lines, bytes int
	cut          bool // the last byte left out was not a newline
}

// queue is the bounded FIFO of reads between the goroutines that pass
// traffic, which never wait for the recorder, and the one that records.
// While the bytes queued are at their bound, reads are passed on but not
// queued, and the queue counts them as a gap of their stream. The
// recorder holds mu only to swap the list of chunks for an empty one: it
// reads the time of the last chunk, the bytes pending and the end without
// it.
type queue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	chunks  []chunk
	waiting bool // the recorder waits for the first chunk
	gaps    map[streamKey]gap
	max     int
	epoch   time.Time
	pending atomic.Int64 // bytes queued or being recorded
	last    atomic.Int64 // when the last chunk was queued, in nanoseconds from epoch
	closed  atomic.Bool
}

func newQueue(max int) *queue {
	if max <= 0 {
		max = DefaultMaxPending
	}
	q := &queue{max: max, gaps: map[streamKey]gap{}, epoch: time.Now()}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// add queues c, or counts it as left out when the queue is full. It takes
// over c's reference to its block.
func (q *queue) add(c chunk) {
	q.mu.Lock()
	if q.closed.Load() {
		q.mu.Unlock()
		c.free()
		return
	}
	if len(c.data) > 0 && int(q.pending.Load())+len(c.data) > q.max {
		g := q.gaps[c.streamKey]
		g.bytes += len(c.data)
		g.lines += bytes.Count(c.data, []byte{'\n'})
		g.cut = c.data[len(c.data)-1] != '\n'
		q.gaps[c.streamKey] = g
		q.mu.Unlock()
		c.free()
		return
	}
	if len(q.gaps) > 0 {
		if g, ok := q.gaps[c.streamKey]; ok {
			c.gap = g
			delete(q.gaps, c.streamKey)
		}
	}
	q.pending.Add(int64(len(c.data)))
	q.last.Store(int64(c.time.Sub(q.epoch)))
	q.chunks = append(q.chunks, c)
	wake := q.waiting
	q.waiting = false
	q.mu.Unlock()
	if wake {
		q.cond.Signal()
	}
}

// close makes take return false once the queue is empty.
func (q *queue) close() {
	q.mu.Lock()
	q.closed.Store(true)
	q.mu.Unlock()
	q.cond.Broadcast()
}

// take waits for chunks and returns all of them in place of buf, whose
// chunks it keeps for the next (they are freed), or false once the queue
// is closed and empty. It takes them once no chunk has come for
// recordDelay, or the bytes queued reach half their bound, or the queue is
// closed.
func (q *queue) take(buf []chunk) ([]chunk, bool) {
	q.mu.Lock()
	for len(q.chunks) == 0 && !q.closed.Load() {
		q.waiting = true
		q.cond.Wait()
	}
	q.mu.Unlock()
	q.waitQuiet()
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.chunks) == 0 {
		return buf, false
	}
	buf, q.chunks = q.chunks, buf[:0]
	return buf, true
}

// waitQuiet waits until no chunk has come for recordDelay, or the bytes
// queued reach half their bound, or the queue is closed.
func (q *queue) waitQuiet() {
	for !q.closed.Load() && q.pending.Load() < int64(q.max/2) {
		quiet := time.Since(q.epoch) - time.Duration(q.last.Load())
		if quiet >= recordDelay {
			return
		}
		time.Sleep(recordDelay - quiet)
	}
}

// pause is waitQuiet for the recorder in the middle of what it took:
// when traffic starts again while it records, it leaves the CPU to the
// traffic until the traffic pauses (or the bytes waiting reach half their
// bound), as before it takes chunks.
func (q *queue) pause() { q.waitQuiet() }

// recorded says that n bytes taken have been recorded.
func (q *queue) recorded(n int) { q.pending.Add(-int64(n)) }

// pump hands the lines of the chunks of q to rec, in order, until q is
// closed and drained; done is closed then.
func pump(q *queue, rec Recorder, done chan<- struct{}) {
	defer close(done)
	s := splitter{rec: rec, streams: map[streamKey]*stream{}, pause: q.pause}
	s.gapRec, _ = rec.(GapRecorder)
	var buf []chunk
	for {
		var ok bool
		if buf, ok = q.take(buf); !ok {
			return
		}
		n := 0
		for i := range buf {
			n += len(buf[i].data)
			s.chunk(&buf[i])
			buf[i].free()
			q.pause()
		}
		q.recorded(n)
	}
}

// splitter cuts the chunks of each stream into lines, handed to rec as
// frames.
type splitter struct {
	rec     Recorder
	gapRec  GapRecorder
	streams map[streamKey]*stream
	frames  []Frame
	pause   func() // called between frames now and then: see queue.pause
}

// pauseEvery is the number of frames a splitter records between calls of
// its pause.
const pauseEvery = 64

// stream is what a splitter keeps of a stream between its chunks.
type stream struct {
	partial []byte // the start of a line without its newline yet
	skip    bool   // the start of the next line was left out: skip to its end
	gap     gap    // left out and not yet told: told once skip ends
}

func (s *splitter) chunk(c *chunk) {
	st := s.streams[c.streamKey]
	if st == nil {
		st = &stream{}
		s.streams[c.streamKey] = st
	}
	if c.gap.bytes > 0 {
		// The partial line's end was left out: it is one of the gap's lines.
		st.gap.bytes += len(st.partial) + c.gap.bytes
		st.gap.lines += c.gap.lines
		st.partial = nil
		if c.gap.cut {
			st.gap.lines++ // the line cut is skipped to its end
			st.skip = true
		}
	}
	p := c.data
	if st.skip {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			st.gap.bytes += len(p)
			p = nil
		} else {
			st.gap.bytes += i + 1
			p, st.skip = p[i+1:], false
		}
	}
	if st.gap.bytes > 0 && (!st.skip || c.eof) {
		if s.gapRec != nil {
			s.gapRec.Gap(c.conn, c.from, st.gap.lines, st.gap.bytes)
		}
		st.gap = gap{}
	}
	s.lines(c, st, p)
	if c.eof {
		if len(st.partial) > 0 {
			s.rec.Record(Frame{Conn: c.conn, Time: c.time, From: c.from, Data: st.partial})
		}
		delete(s.streams, c.streamKey)
	}
}

// lines records every complete line in p, and keeps the rest. It copies
// the complete lines once; the frames' data share that copy.
func (s *splitter) lines(c *chunk, st *stream, p []byte) {
	i := bytes.LastIndexByte(p, '\n')
	if i < 0 {
		st.partial = append(st.partial, p...)
		return
	}
	whole := p[:i+1]
	var b []byte
	if len(st.partial) > 0 {
		b = append(st.partial, whole...)
		st.partial = nil
	} else {
		b = bytes.Clone(whole)
	}
	s.frames = s.frames[:0]
	for len(b) > 0 {
		j := bytes.IndexByte(b, '\n')
		line := b[:j:j] // the next line's bytes stay out of reach
		s.frames = append(s.frames, Frame{Conn: c.conn, Time: c.time, From: c.from, Data: bytes.TrimSuffix(line, []byte{'\r'})})
		b = b[j+1:]
	}
	for k, f := range s.frames {
		s.rec.Record(f)
		if k%pauseEvery == pauseEvery-1 && s.pause != nil {
			s.pause()
		}
	}
	clear(s.frames)
	if rest := p[i+1:]; len(rest) > 0 {
		st.partial = append([]byte(nil), rest...)
	}
}

// pass copies r to w until r ends or w fails. It reads into the free
// end of a block, queues the read for the recorder as a slice of the
// block, and writes it on: queueing it first, so that an answer is never
// recorded before its question, takes a lock the recorder holds only to
// swap lists, with no copy and no allocation, and never waits for the
// recorder.
func pass(w io.Writer, r io.Reader, q *queue, key streamKey) {
	bl, off := newBlock(), 0
	defer func() {
		bl.release()
		q.add(chunk{streamKey: key, time: time.Now(), eof: true})
	}()
	for {
		if len(bl.b)-off < minRead {
			bl.release()
			bl, off = newBlock(), 0
		}
		n, err := r.Read(bl.b[off:])
		if n > 0 {
			data := bl.b[off : off+n : off+n]
			off += n
			bl.refs.Add(1)
			q.add(chunk{streamKey: key, time: time.Now(), data: data, buf: bl})
			if _, werr := w.Write(data); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// record queues p, a copy, as a read of key's stream.
func (q *queue) record(key streamKey, p []byte) {
	q.add(chunk{streamKey: key, time: time.Now(), data: bytes.Clone(p)})
}
