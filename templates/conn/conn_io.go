//go:build ignore

package acp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Limits bound what a connection holds for its peer. A zero field takes its
// default (see DefaultLimits); a negative one lifts the limit.
type Limits struct {
	// MaxMessageBytes is the length of the longest line read, newline
	// excluded. A longer line is read past without being held whole, and
	// answered: a request whose id can be read -32600, any other line -32700
	// with id null; a response to a call fails the call. The connection
	// serves on.
	MaxMessageBytes int
	// MaxIDLength is the length, in characters of its JSON text (without a
	// string's quotes), of the longest id a request may have; a request with
	// a longer one is answered -32600 with id null and not handled.
	MaxIDLength int
	// MaxConcurrentRequests is how many inbound requests are served at once.
	// When that many are being served, the connection stops reading until
	// one of them is answered: a handler that waits for the peer's answer to
	// an outbound call may then wait for good (responses are read in turn
	// with the requests).
	MaxConcurrentRequests int
	// MaxBufferedBytes is how many bytes of outbound messages are queued for
	// the writer before a sender waits (for at most its context).
	MaxBufferedBytes int
	// OutputStall is how long a write may stay blocked (the peer not
	// reading) before the connection ends with an error that says so.
	OutputStall time.Duration
}

// The default limits: those of the TypeScript SDK where it has them.
const (
	defaultMaxMessageBytes       = 32 << 20
	defaultMaxIDLength           = 1024
	defaultMaxConcurrentRequests = 256
	defaultMaxBufferedBytes      = 64 << 20
	defaultOutputStall           = 60 * time.Second
)

// DefaultLimits returns the limits of a connection made without WithLimits:
// messages of 32 MiB, ids of 1,024 characters, 256 requests served at
// once, 64 MiB of output queued and an output stall of 60 s.
func DefaultLimits() Limits {
	return Limits{
		MaxMessageBytes:       defaultMaxMessageBytes,
		MaxIDLength:           defaultMaxIDLength,
		MaxConcurrentRequests: defaultMaxConcurrentRequests,
		MaxBufferedBytes:      defaultMaxBufferedBytes,
		OutputStall:           defaultOutputStall,
	}
}

// A ConnOption sets up a connection when it is made.
type ConnOption func(*connConfig)

// connConfig is what the options of a connection set.
type connConfig struct {
	limits     Limits
	logger     *slog.Logger
	middleware []Middleware // WithMiddleware's, outermost first
	wire       *wireConfig  // WithWireLog's
}

// WithLimits sets the limits of the connection: a zero field keeps its
// default, a negative one lifts the limit.
func WithLimits(l Limits) ConnOption {
	return func(c *connConfig) {
		d := DefaultLimits()
		c.limits = Limits{
			MaxMessageBytes:       pick(l.MaxMessageBytes, d.MaxMessageBytes),
			MaxIDLength:           pick(l.MaxIDLength, d.MaxIDLength),
			MaxConcurrentRequests: pick(l.MaxConcurrentRequests, d.MaxConcurrentRequests),
			MaxBufferedBytes:      pick(l.MaxBufferedBytes, d.MaxBufferedBytes),
			OutputStall:           pick(l.OutputStall, d.OutputStall),
		}
	}
}

// WithLogger sets the logger that records what the connection cannot tell
// its peer: a handler's panic, with its value and stack. Without it, the
// connection logs to slog.Default(); WithLogger(nil) logs nothing.
func WithLogger(l *slog.Logger) ConnOption {
	return func(c *connConfig) {
		if l == nil {
			l = slog.New(discardHandler{})
		}
		c.logger = l
	}
}

// pick is v, or def when v is zero, or the largest value when v is negative.
func pick[T int | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return T(int(^uint(0) >> 1))
	}
	return v
}

// newConfig applies opts to the defaults.
func newConfig(opts []ConnOption) connConfig {
	c := connConfig{limits: DefaultLimits()}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.logger == nil {
		c.logger = slog.Default()
	}
	return c
}

// discardHandler is the slog.Handler of WithLogger(nil).
type discardHandler struct{}

func (discardHandler) Enabled(context.Context, slog.Level) bool  { return false }
func (discardHandler) Handle(context.Context, slog.Record) error { return nil }
func (h discardHandler) WithAttrs([]slog.Attr) slog.Handler      { return h }
func (h discardHandler) WithGroup(string) slog.Handler           { return h }

// outbox is the bounded queue of outbound messages. They are written in
// order by the goroutine that holds the writer role: the sender that finds
// nobody writing takes it, and either writes the queue itself (see
// sendDirect) or starts a goroutine that writes it. The role is given up
// when the queue is empty: no goroutine waits to write while there is
// nothing to write.
type outbox struct {
	mu      sync.Mutex
	queue   []*[]byte     // the messages, each with its newline
	bytes   int           // queued and being written
	max     int           // the bound of bytes
	space   chan struct{} // closed, and replaced, when bytes have gone out and senders wait
	waiting int           // the senders waiting for room
	writer  bool          // a goroutine holds the writer role
	closed  bool          // the connection has ended: no message is taken

	batch []*[]byte // the messages being written, owned by the writer
}

func newOutbox(max int) *outbox {
	return &outbox{max: max, space: make(chan struct{})}
}

// put queues buf, waiting for room until ctx or the connection ends (or,
// when wait is false, not at all). When nobody holds the writer role, the
// caller takes it: claimed says it must then see that the queue is written.
func (o *outbox) put(ctx context.Context, done <-chan struct{}, buf *[]byte, wait bool) (claimed bool, err error) {
	n := len(*buf)
	for {
		o.mu.Lock()
		if o.closed {
			o.mu.Unlock()
			return false, errOutboxClosed
		}
		if o.bytes == 0 || o.bytes+n <= o.max {
			o.queue = append(o.queue, buf)
			o.bytes += n
			claimed = !o.writer
			o.writer = true
			o.mu.Unlock()
			return claimed, nil
		}
		if !wait {
			o.mu.Unlock()
			return false, errOutboxFull
		}
		space := o.space
		o.waiting++
		o.mu.Unlock()
		select {
		case <-space:
		case <-ctx.Done():
			err = ctx.Err()
		case <-done:
			err = errOutboxClosed
		}
		o.mu.Lock()
		o.waiting--
		o.mu.Unlock()
		if err != nil {
			return false, err
		}
	}
}

var (
	errOutboxClosed = errors.New("the connection has ended")
	errOutboxFull   = errors.New("the output queue is full")
)

// take moves the queued messages to the writer's batch, for the holder of
// the writer role. When there are none, or the connection has ended and
// flush is false (the queue is then dropped), it gives the role up instead
// and reports, in ended, whether the connection had ended by then. When
// handOff is set, it leaves the messages queued and reports them in more:
// the role then goes to a goroutine of its own.
func (o *outbox) take(flush, handOff bool) (batch []*[]byte, ended, more bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.takeLocked(flush, handOff)
}

// takeLocked is take, with o.mu held.
func (o *outbox) takeLocked(flush, handOff bool) (batch []*[]byte, ended, more bool) {
	if o.closed && !flush {
		for _, buf := range o.queue {
			putBuffer(buf)
		}
		clear(o.queue)
		o.queue, o.bytes = o.queue[:0], 0
	}
	switch {
	case len(o.queue) == 0:
		o.writer = false
		if cap(o.queue) > 64 {
			o.queue = nil // a burst is over: its queue goes
		}
		return nil, o.closed, false
	case handOff:
		return nil, false, true
	}
	o.batch = append(o.batch[:0], o.queue...)
	clear(o.queue)
	o.queue = o.queue[:0]
	return o.batch, false, false
}

// sent records that n bytes have been written, and wakes the senders that
// wait for room.
func (o *outbox) sent(n int) {
	o.mu.Lock()
	o.sentLocked(n)
	o.mu.Unlock()
}

func (o *outbox) sentLocked(n int) {
	o.bytes -= n
	if o.waiting > 0 {
		close(o.space)
		o.space = make(chan struct{})
	}
}

// claim takes the writer role for a message of n bytes that its sender
// writes itself, without queueing it, when nobody writes and nothing is
// queued; it reports whether it did.
func (o *outbox) claim(n int) (bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.closed:
		return false, errOutboxClosed
	case o.writer || len(o.queue) > 0:
		return false, nil
	}
	o.writer = true
	o.bytes += n
	return true, nil
}

// wrote records that the claimed message of n bytes is out, then gives
// the role up, or reports in more that messages were queued meanwhile (as
// take with handOff).
func (o *outbox) wrote(n int, flush bool) (ended, more bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sentLocked(n)
	_, ended, more = o.takeLocked(flush, true)
	return ended, more
}

// close stops the queue: later messages are refused. It returns whether
// the writer role was free, and takes it if messages are queued and flush
// is set (claimed: the caller must see that they are written).
func (o *outbox) close(flush bool) (idle, claimed bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	if o.writer {
		return false, false
	}
	if flush && len(o.queue) > 0 {
		o.writer = true
		return false, true
	}
	return true, false
}

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

// putBuffer gives a message buffer back to the pool.
func putBuffer(buf *[]byte) {
	if cap(*buf) <= maxPooled {
		*buf = (*buf)[:0]
		encodeBuffers.Put(buf)
	}
}

// lineReader reads lines from r into its buffer, handing out each line as
// a slice of it, valid until the next call, without copying.
type lineReader struct {
	r          io.Reader
	parker     parker // r, when it can park the reader
	resume     func() // what r's parker calls to start the reader again
	buf        []byte
	own        []byte  // the small buffer the reader keeps
	pooled     *[]byte // buf, when it is one of lineBuffers
	start, end int     // the bytes read and not yet handed out
	max        int     // the longest line
	long       bool    // the last line was a large one
	skipping   bool    // the rest of a line too long is still to be read past
	err        error
	parking    atomic.Int32 // readerActive, readerParked or readerWoken
}

// The states of a reader that parks: it is active, or has parked, or was
// woken before it was done parking (and reads on).
const (
	readerActive = iota
	readerParked
	readerWoken
)

// A parker is an input that can park the goroutine that reads it, so that
// an idle connection holds none: when no input waits, ReadOrPark returns
// parked instead of blocking, and calls resume once, from any goroutine,
// when some may be read or the input has closed. Otherwise it is Read.
type parker interface {
	ReadOrPark(p []byte, resume func()) (n int, parked bool, err error)
}

// errParked is what fill returns when the input parked the reader.
var errParked = errors.New("the reader is parked")

// A line reader reads into a small buffer of its own, of
// initialLineBuffer bytes, which most messages fit: that is all an idle
// connection holds. A line that needs more is read into a buffer of
// pooledLineBuffer bytes taken from a pool shared by the connections, given
// back once the lines read are handed out and no byte waits. A longer line
// gets a buffer of its own that doubles up to maxDoubled, and then takes
// the size of the longest line at once, which makes less garbage on the
// way there; it keeps its size while large lines come, and goes after a
// shorter one.
const (
	initialLineBuffer = 512
	pooledLineBuffer  = 64 << 10
	maxDoubled        = 4 << 20
)

// lineBuffers are the buffers of pooledLineBuffer bytes that line readers
// borrow.
var lineBuffers = sync.Pool{New: func() any {
	b := make([]byte, pooledLineBuffer)
	return &b
}}

// next returns the next line, without its newline. A line longer than max
// comes back as its first bytes, with tooLong set; skip then reads past the
// rest of it. After the last line, next returns the error of r (io.EOF when
// it ended).
func (lr *lineReader) next(reading, over *atomic.Bool) (line []byte, tooLong bool, err error) {
	if lr.skipping {
		if err := lr.skip(reading, over); err != nil {
			return nil, false, err
		}
	}
	if lr.pooled != nil && lr.start == lr.end || !lr.long && len(lr.buf) > pooledLineBuffer && lr.end-lr.start <= initialLineBuffer/2 {
		lr.shrink()
	}
	scan := lr.start
	for {
		if i := bytes.IndexByte(lr.buf[scan:lr.end], '\n'); i >= 0 {
			line = lr.buf[lr.start : scan+i]
			lr.start = scan + i + 1
			lr.long = len(line) > pooledLineBuffer
			return line, false, nil
		}
		scan = lr.end
		if lr.end-lr.start > lr.max {
			lr.long = true
			return lr.buf[lr.start:lr.end], true, nil
		}
		if lr.err != nil {
			if lr.start < lr.end {
				line, lr.start = lr.buf[lr.start:lr.end], lr.end
				return line, false, nil
			}
			return nil, false, lr.err
		}
		scanned := lr.end - lr.start
		lr.room()
		if err := lr.fill(reading, over); err != nil {
			return nil, false, err
		}
		scan = lr.start + scanned
	}
}

// shrink goes back to the reader's own buffer, with the bytes not yet
// handed out, which fit it.
func (lr *lineReader) shrink() {
	if lr.own == nil {
		lr.own = make([]byte, initialLineBuffer)
	}
	n := copy(lr.own, lr.buf[lr.start:lr.end])
	lr.release()
	lr.buf, lr.start, lr.end = lr.own, 0, n
}

// release gives a pooled buffer back.
func (lr *lineReader) release() {
	if lr.pooled != nil {
		lineBuffers.Put(lr.pooled)
		lr.pooled = nil
	}
}

// room makes room at the end of the buffer: it moves the unread bytes to
// its start, or grows it, up to a line of max bytes and its newline.
func (lr *lineReader) room() {
	if lr.end < len(lr.buf) {
		return
	}
	n := lr.end - lr.start
	if lr.start > 0 && n < len(lr.buf)/2 {
		copy(lr.buf, lr.buf[lr.start:lr.end])
		lr.start, lr.end = 0, n
		return
	}
	var buf []byte
	var pooled *[]byte
	switch size := 2 * len(lr.buf); {
	case lr.buf == nil:
		lr.own = make([]byte, initialLineBuffer)
		buf = lr.own
	case len(lr.buf) < pooledLineBuffer && lr.max >= pooledLineBuffer:
		pooled = lineBuffers.Get().(*[]byte)
		buf = *pooled
	default:
		if lr.max < size || size > maxDoubled && lr.max < 1<<40 {
			size = lr.max + 1 // room for a line one byte too long, to tell
		}
		buf = make([]byte, size)
	}
	copy(buf, lr.buf[lr.start:lr.end])
	lr.release()
	lr.buf, lr.pooled, lr.start, lr.end = buf, pooled, 0, n
}

// fill reads once into the free end of the buffer. It returns an error
// only when the connection has ended meanwhile, or the input parked the
// reader (errParked); r's error is kept for next.
func (lr *lineReader) fill(reading, over *atomic.Bool) error {
	reading.Store(true)
	defer reading.Store(false)
	if over.Load() {
		return errOutboxClosed
	}
	var n int
	var err error
	if lr.parker == nil {
		n, err = lr.r.Read(lr.buf[lr.end:])
	} else {
		var parked bool
		if n, parked, err = lr.parker.ReadOrPark(lr.buf[lr.end:], lr.resume); parked {
			return lr.park()
		}
	}
	lr.end += n
	if err != nil {
		lr.err = err
	}
	return nil
}

// park ends the reading goroutine's part once the input has parked it,
// and returns errParked; it lets go of the buffer, unless that holds the
// start of a line. When the input's resume has been called meanwhile, it
// returns nil instead, and the goroutine reads on.
func (lr *lineReader) park() error {
	if lr.start == lr.end {
		lr.release()
		lr.buf, lr.own, lr.start, lr.end = nil, nil, 0, 0
	}
	if lr.parking.CompareAndSwap(readerActive, readerParked) {
		return errParked // lr is the next reader's from here on
	}
	lr.parking.Store(readerActive)
	return nil
}

// woken records that the input's resume was called, and reports whether
// the reader had parked, for the caller to start it again.
func (lr *lineReader) woken() bool {
	if lr.parking.CompareAndSwap(readerActive, readerWoken) {
		return false // the reader reads on
	}
	lr.parking.Store(readerActive)
	return true
}

// skip reads past the rest of the line that next returned as too long,
// without keeping it.
func (lr *lineReader) skip(reading, over *atomic.Bool) error {
	for {
		if i := bytes.IndexByte(lr.buf[lr.start:lr.end], '\n'); i >= 0 {
			lr.start += i + 1
			lr.skipping = false
			return nil
		}
		if lr.err != nil {
			lr.start = lr.end
			lr.skipping = false
			return nil
		}
		lr.start, lr.end = 0, 0
		lr.room()
		if err := lr.fill(reading, over); err != nil {
			return err
		}
	}
}
