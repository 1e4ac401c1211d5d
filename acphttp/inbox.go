package acphttp

import (
	"context"
	"io"
	"sync"
)

// inbox is the reader the agent's connection reads the client's messages
// from, one line at a time. It parks the agent's reader while no message
// waits (see ReadOrPark), so that an idle connection holds no goroutine.
type inbox struct {
	ch      chan []byte // holds one line handed over and not yet taken
	done    chan struct{}
	once    sync.Once
	err     error
	cur     []byte
	onClose func() // called when the agent closes its reader

	mu     sync.Mutex
	resume func() // the parked reader's, until it is called
}

func newInbox() *inbox {
	return &inbox{ch: make(chan []byte, 1), done: make(chan struct{})}
}

// Read returns the next bytes of the client's messages; once the
// connection has closed, the reason (io.EOF when the client or the server
// ended it). It is not safe for concurrent use.
func (p *inbox) Read(b []byte) (int, error) {
	if len(p.cur) == 0 {
		select {
		case m := <-p.ch:
			p.cur = m
		case <-p.done:
			return 0, p.err
		}
	}
	return p.take(b), nil
}

// ReadOrPark is Read, except that while no message waits it returns
// parked, and calls resume once one is handed over or the connection
// closes.
func (p *inbox) ReadOrPark(b []byte, resume func()) (n int, parked bool, err error) {
	if len(p.cur) == 0 {
		p.mu.Lock()
		select {
		case m := <-p.ch:
			p.cur = m
		case <-p.done:
			p.mu.Unlock()
			return 0, false, p.err
		default:
			p.resume = resume
			p.mu.Unlock()
			return 0, true, nil
		}
		p.mu.Unlock()
	}
	return p.take(b), false, nil
}

// take copies what b holds of the current message into b.
func (p *inbox) take(b []byte) int {
	n := copy(b, p.cur)
	p.cur = p.cur[n:]
	if len(p.cur) == 0 {
		p.cur = nil // an idle connection keeps no message
	}
	return n
}

// wake starts the parked reader again, if it is parked. A line handed
// over, or the closing, happens before: the reader finds it.
func (p *inbox) wake() {
	p.mu.Lock()
	resume := p.resume
	p.resume = nil
	p.mu.Unlock()
	if resume != nil {
		resume()
	}
}

// Close is called by the agent's connection when it ends on its own: the
// ACP connection finishes.
func (p *inbox) Close() error {
	p.close(io.EOF)
	if p.onClose != nil {
		p.onClose()
	}
	return nil
}

// send hands line to the reader, waiting while the one handed over before
// is not taken, until the agent, whose Done is agentDone, ends.
func (p *inbox) send(ctx context.Context, line []byte, agentDone <-chan struct{}) error {
	select {
	case <-p.done:
		return ErrClosed
	case <-agentDone:
		return ErrClosed
	default:
	}
	select {
	case p.ch <- line:
		p.wake()
		return nil
	case <-p.done:
		return ErrClosed
	case <-agentDone:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// close ends the reader with err.
func (p *inbox) close(err error) {
	p.once.Do(func() {
		p.err = err
		close(p.done)
		p.wake()
	})
}
