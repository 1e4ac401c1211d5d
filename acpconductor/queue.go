package acpconductor

import (
	"bytes"
	"io"
	"sync"
)

// outbox is the writer of one peer: messages queue without bound, so
// that the conductor never blocks a reader on a peer that is slow to
// read (two peers each waiting on the other could otherwise stall the
// chain), and a goroutine writes them in order, one line each. The
// lines queue in one buffer, written in one Write: routing appends a
// message to it as it makes it, with no copy of its own.
type outbox struct {
	mu     sync.Mutex
	cond   sync.Cond
	buf    []byte // the lines queued, each ending in a newline
	closed bool
	done   chan struct{} // closed when the writer has ended
	err    error         // the first write error
}

// maxSpare is the largest buffer the writer keeps for the next batch.
const maxSpare = 4 << 20

func newOutbox() *outbox {
	o := &outbox{done: make(chan struct{})}
	o.cond.L = &o.mu
	return o
}

// put queues line, which must not hold a newline; after close it is
// dropped.
func (o *outbox) put(line []byte) {
	o.add(true, func(b []byte) []byte { return append(b, line...) })
}

// add queues the line that appendLine appends to the buffer it is given,
// waking the writer when wake (else see kick); it reports whether it
// queued it, which it does not after close.
func (o *outbox) add(wake bool, appendLine func([]byte) []byte) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return false
	}
	o.buf = append(appendLine(o.buf), '\n')
	if wake {
		o.cond.Signal()
	}
	return true
}

// kick wakes the writer for what add queued without waking it.
func (o *outbox) kick() {
	o.mu.Lock()
	o.cond.Signal()
	o.mu.Unlock()
}

// close lets the writer end once the queue is written.
func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.cond.Signal()
	o.mu.Unlock()
}

// run writes the queue to w until close, logging each line with log.
func (o *outbox) run(w io.Writer, log func([]byte)) {
	defer close(o.done)
	var spare []byte
	for {
		o.mu.Lock()
		for len(o.buf) == 0 && !o.closed {
			o.cond.Wait()
		}
		batch := o.buf
		o.buf, spare = spare[:0], nil
		closed := o.closed
		o.mu.Unlock()
		if o.err == nil && len(batch) > 0 {
			_, o.err = w.Write(batch)
		}
		if log != nil {
			for rest := batch; len(rest) > 0; {
				line, after, _ := bytes.Cut(rest, []byte("\n"))
				log(line)
				rest = after
			}
		}
		if cap(batch) <= maxSpare {
			spare = batch
		}
		if closed && len(batch) == 0 {
			return
		}
		if closed {
			o.mu.Lock()
			empty := len(o.buf) == 0
			o.mu.Unlock()
			if empty {
				return
			}
		}
	}
}
