package acphttp

import (
	"context"
	"io"
	"sync"
)

// inbox is the reader the agent's connection reads the client's messages
// from, one line at a time.
type inbox struct {
	ch      chan []byte
	done    chan struct{}
	once    sync.Once
	err     error
	cur     []byte
	onClose func() // called when the agent closes its reader
}

func newInbox() *inbox {
	return &inbox{ch: make(chan []byte), done: make(chan struct{})}
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
	n := copy(b, p.cur)
	p.cur = p.cur[n:]
	if len(p.cur) == 0 {
		p.cur = nil // an idle connection keeps no message
	}
	return n, nil
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

// send hands line to the reader, waiting until it takes it or the agent,
// whose Done is agentDone, ends.
func (p *inbox) send(ctx context.Context, line []byte, agentDone <-chan struct{}) error {
	select {
	case p.ch <- line:
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
	})
}
