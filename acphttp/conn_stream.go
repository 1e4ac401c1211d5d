package acphttp

import (
	"context"
	"time"
)

// acquire attaches a receiver to the stream of session ("" for the
// connection stream). It returns nil and the HTTP status and text of the
// refusal when the stream cannot take one.
func (c *conn) acquire(session string) (*mailbox, int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, 404, "Unknown Acp-Connection-Id"
	}
	if session == "" {
		if c.ws || c.main.receiver || c.main.aborted {
			return nil, 409, "Outbound stream already has an active receiver"
		}
		c.main.receiver = true
		return &c.main, 0, ""
	}
	if err := c.limits.idTooLong("Session ID", session); err != nil {
		return nil, 400, err.Text
	}
	if c.ws {
		return nil, 409, "Outbound stream already has an active receiver"
	}
	if mb := c.sessions[session]; mb != nil {
		if mb.receiver {
			return nil, 409, "Outbound stream already has an active receiver"
		}
		mb.receiver = true
		c.unclaimed--
		return mb, 0, ""
	}
	if c.finished {
		return nil, 404, "Unknown Acp-Connection-Id"
	}
	mb := c.newMailbox()
	mb.receiver = true
	c.sessions[session] = mb
	return mb, 0, ""
}

// release detaches the receiver of the stream mb of session. A session
// stream left with nothing queued goes; one with messages queued waits for
// another receiver, within MaxBufferedSessionStreams.
func (c *conn) release(session string, mb *mailbox) {
	c.mu.Lock()
	defer c.mu.Unlock()
	mb.receiver = false
	if c.closed || session == "" || c.ws {
		return
	}
	if len(mb.queue) == 0 {
		if c.sessions[session] == mb && mb.log == nil {
			// A resumable stream stays, for its client to resume it.
			delete(c.sessions, session)
		}
		return
	}
	c.unclaimed++
	if !c.finished && c.unclaimed > c.limits.MaxBufferedSessionStreams {
		c.closeLocked(exceeded("MaxBufferedSessionStreams", c.limits.MaxBufferedSessionStreams))
	}
}

// next waits for the next message of mb, for its receiver. It returns nil
// and a nil error once mb has finished and is drained, and the abort
// reason (ErrClosed for a clean close) once the connection has closed.
// Each tick of keepAlive while nothing comes calls idle.
func (c *conn) next(ctx context.Context, mb *mailbox, keepAlive <-chan time.Time, idle func() error) ([]byte, error) {
	c.mu.Lock()
	for {
		if mb.aborted {
			err := mb.abortErr
			c.mu.Unlock()
			if err == nil {
				err = ErrClosed
			}
			return nil, err
		}
		if ctx.Err() != nil {
			// Another receiver resumed the stream (see resume_conn.go).
			c.mu.Unlock()
			return nil, ctx.Err()
		}
		if len(mb.queue) > 0 {
			msg := c.dequeueLocked(mb)
			c.mu.Unlock()
			return msg, nil
		}
		if mb.finished {
			c.mu.Unlock()
			return nil, nil
		}
		changed := c.waitLocked()
		c.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-keepAlive:
			c.checkAgent()
			if err := idle(); err != nil {
				return nil, err
			}
		}
		c.mu.Lock()
	}
}

// take returns the next message of mb without waiting, or nil.
func (c *conn) take(mb *mailbox) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if mb.aborted || len(mb.queue) == 0 {
		return nil
	}
	return c.dequeueLocked(mb)
}

// dequeueLocked takes the first message of mb, which has one.
func (c *conn) dequeueLocked(mb *mailbox) []byte {
	msg := mb.queue[0]
	mb.queue[0] = nil
	mb.queue = mb.queue[1:]
	if len(mb.queue) == 0 {
		mb.queue = nil
	}
	c.buffered -= len(msg)
	c.lastProgress = time.Now()
	if mb.log != nil {
		mb.log.retain(msg, c.rs.opts, c.lastProgress)
	}
	c.broadcastLocked()
	return msg
}

// waitRoom waits while the streams hold MaxBufferedBytes, until the client
// takes some, the connection closes or ctx ends. A client that takes
// none for MaxOutputStall is not coming back for it: the connection
// closes.
func (c *conn) waitRoom(ctx context.Context) error {
	c.mu.Lock()
	for !c.closed && !c.finished && c.buffered >= c.limits.MaxBufferedBytes {
		start := c.lastProgress
		changed := c.waitLocked()
		c.mu.Unlock()
		timer := time.NewTimer(c.limits.MaxOutputStall)
		select {
		case <-changed:
			timer.Stop()
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
			c.mu.Lock()
			if c.lastProgress.Equal(start) {
				c.closeLocked(c.limits.stalled())
			}
			c.mu.Unlock()
		}
		c.mu.Lock()
	}
	c.mu.Unlock()
	return nil
}
