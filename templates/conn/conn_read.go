//go:build ignore

package acp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// The first stage of a line's path: reading it from the input, into a
// buffer the reader keeps small while it is idle. The reader hands each
// line to the next stage, parse (line), and a line longer than the limit
// to tooLong.

// read handles the lines of r until it ends, or the connection does, then
// ends the connection; when r parks the reader (see parker), it returns
// at once, and the goroutine that r's resume starts reads on.
func (c *connection) read() {
	if c.readLines() {
		return
	}
	c.lr.release()
	close(c.readerDone)
}

// readLines handles the lines of r until the connection ends, or r parks
// the reader, which it reports.
func (c *connection) readLines() (parked bool) {
	lr := &c.lr
	for {
		line, tooLong, err := lr.next(&c.reading, &c.over)
		switch {
		case err == errParked:
			return true
		case err == errOutboxClosed:
			return false
		case errors.Is(err, io.EOF):
			// What is queued still goes out: the peer may read on. An input
			// that knows why it ended (a process's exit) says so by an
			// error that wraps io.EOF.
			c.flushing.Store(true)
			if err == io.EOF {
				c.end(ErrPeerClosed)
			} else {
				c.end(fmt.Errorf("%w: %w", ErrPeerClosed, err))
			}
			return false
		case err != nil:
			c.end(fmt.Errorf("reading: %w", err))
			return false
		case tooLong:
			if c.wire != nil {
				c.wire.log(true, line)
			}
			c.tooLong(line)
			lr.skipping = true // next reads past the rest of it first
		default:
			if c.wire != nil {
				c.wire.log(true, line)
			}
			if !c.line(line) {
				return false
			}
		}
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
	busy       bool    // the last read filled the room it had: more input is likely waiting
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
	if lr.pooled != nil && lr.start == lr.end && !lr.busy || !lr.long && len(lr.buf) > pooledLineBuffer && lr.end-lr.start <= initialLineBuffer/2 {
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
	if lr.start == lr.end {
		lr.start, lr.end = 0, 0
	}
	if lr.end < len(lr.buf) {
		return
	}
	n := lr.end - lr.start
	// While input keeps coming (the last read filled the buffer), the
	// small buffer grows to a pooled one instead of making room, so that
	// each read takes many lines.
	grow := lr.busy && len(lr.buf) < pooledLineBuffer
	if lr.start > 0 && n < len(lr.buf)/2 && !grow {
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
			lr.busy = false
			return lr.park()
		}
	}
	lr.end += n
	lr.busy = n > 0 && lr.end == len(lr.buf)
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
