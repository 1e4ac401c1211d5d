//go:build ignore

package acp

import (
	"context"
	"errors"
	"sync"
)

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

// putBuffer gives a message buffer back to the pool.
func putBuffer(buf *[]byte) {
	if cap(*buf) <= maxPooled {
		*buf = (*buf)[:0]
		encodeBuffers.Put(buf)
	}
}
