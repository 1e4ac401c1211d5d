package acpconductor

import (
	"bufio"
	"io"
	"sync"
)

// outbox is the writer of one peer: messages queue without bound, so
// that the conductor never blocks a reader on a peer that is slow to
// read (two peers each waiting on the other could otherwise stall the
// chain), and a goroutine writes them in order, one line each.
type outbox struct {
	mu     sync.Mutex
	cond   sync.Cond
	items  [][]byte
	closed bool
	done   chan struct{} // closed when the writer has ended
	err    error         // the first write error
}

func newOutbox() *outbox {
	o := &outbox{done: make(chan struct{})}
	o.cond.L = &o.mu
	return o
}

// put queues line, which must not end in a newline; after close it is
// dropped.
func (o *outbox) put(line []byte) {
	o.mu.Lock()
	if !o.closed {
		o.items = append(o.items, line)
		o.cond.Signal()
	}
	o.mu.Unlock()
}

// putQuiet queues line, as put does, without waking the writer (see
// kick); it reports whether it queued it.
func (o *outbox) putQuiet(line []byte) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.closed {
		o.items = append(o.items, line)
	}
	return !o.closed
}

// kick wakes the writer for what putQuiet queued.
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
	bw := bufio.NewWriterSize(w, 64<<10)
	var batch [][]byte
	for {
		o.mu.Lock()
		for len(o.items) == 0 && !o.closed {
			o.cond.Wait()
		}
		batch, o.items = o.items, batch[:0]
		closed := o.closed
		o.mu.Unlock()
		for i, line := range batch {
			if o.err == nil {
				bw.Write(line)
				bw.WriteByte('\n')
			}
			if log != nil {
				log(line)
			}
			batch[i] = nil
		}
		if o.err == nil {
			o.err = bw.Flush()
		}
		if closed && len(batch) == 0 {
			return
		}
		if closed {
			o.mu.Lock()
			empty := len(o.items) == 0
			o.mu.Unlock()
			if empty {
				return
			}
		}
	}
}
