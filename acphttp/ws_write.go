package acphttp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"sync"
	"time"

	"github.com/gobwas/ws"
)

// sendFrame writes one frame to the socket.
func (w *wsSocket) sendFrame(f ws.Frame) error {
	b, err := ws.CompileFrame(f)
	if err != nil {
		return err
	}
	w.wmu.Lock()
	defer w.wmu.Unlock()
	return w.send(b)
}

// write takes the agent's output, one message per line: what it holds of
// whole messages goes to the socket in one write, a text frame each.
func (w *wsSocket) write(p []byte) (int, error) {
	<-w.ready
	if w.netc == nil {
		return 0, ErrClosed
	}
	w.wmu.Lock()
	defer w.wmu.Unlock()
	buf := framePool.Get().(*bytes.Buffer)
	defer putFrameBuffer(buf)
	initFailed := false
	fits, err := w.lines.split(p, w.c.limits.MaxMessageBytes, func(line []byte) error {
		send, failed := w.c.outboundWS(line)
		if failed != nil {
			// The agent did not answer initialize first.
			line = initializeFailed(failed)
			initFailed = true
		} else if !send {
			return nil
		}
		writeTextHeader(buf, len(line))
		buf.Write(line)
		return nil
	})
	if initFailed {
		defer w.c.close(&wsCloseError{ws.StatusInternalServerError, "Initialize failed"})
	}
	if err != nil {
		return 0, err
	}
	if !fits {
		w.c.close(exceeded("MaxMessageBytes", w.c.limits.MaxMessageBytes))
	}
	if buf.Len() > 0 {
		if err := w.send(buf.Bytes()); err != nil {
			return 0, ErrClosed
		}
	}
	if w.c.isClosed() {
		return 0, ErrClosed
	}
	return len(p), nil
}

// writeTextHeader writes the header of a server's text frame of n bytes,
// whole (FIN) and unmasked, as ws.WriteHeader writes it, without the
// allocation ws.WriteHeader makes for each.
func writeTextHeader(buf *bytes.Buffer, n int) {
	var h [10]byte
	h[0] = 0x80 | byte(ws.OpText)
	switch {
	case n <= 125:
		h[1] = byte(n)
		buf.Write(h[:2])
	case n <= 0xffff:
		h[1] = 126
		binary.BigEndian.PutUint16(h[2:], uint16(n))
		buf.Write(h[:4])
	default:
		h[1] = 127
		binary.BigEndian.PutUint64(h[2:], uint64(n))
		buf.Write(h[:10])
	}
}

// framePool holds the buffers the agent's output is framed in, between
// writes: an idle connection holds none.
var framePool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putFrameBuffer returns buf to framePool, unless it grew past what is
// worth keeping.
func putFrameBuffer(buf *bytes.Buffer) {
	if buf.Cap() > 256<<10 {
		return
	}
	buf.Reset()
	framePool.Put(buf)
}

// send writes b to the socket; w.wmu is held. A client that takes none of
// it for MaxOutputStall has stalled, and a write under way when the
// connection closes stops writeGrace after: either closes the connection.
func (w *wsSocket) send(b []byte) error {
	_ = w.netc.SetWriteDeadline(time.Now().Add(w.c.limits.MaxOutputStall))
	if w.closing.Load() {
		_ = w.netc.SetWriteDeadline(time.Now().Add(writeGrace))
	}
	_, err := w.netc.Write(b)
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) && !w.closing.Load() {
			w.c.close(w.c.limits.stalled())
		} else {
			w.c.close(nil)
		}
	}
	return err
}

// outboundWS checks one message of the agent before it goes out, and
// reports whether it goes: the first must answer initialize, and the
// session ids the agent hands out must be within MaxIDLength. When the
// first does not answer the initialize request already read, it returns
// that request's id, for the writer to answer it.
func (c *conn) outboundWS(msg []byte) (send bool, failed []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.initFailed {
		return false, nil
	}
	m, err := scan(msg)
	if !c.gotInitial {
		c.gotInitial = true
		if err != nil || !m.isResponse() || c.initialID == nil || !bytes.Equal(m.id, c.initialID) {
			// An initialize read later is answered by the reader.
			c.initFailed = true
			return false, c.initialID
		}
		return true, nil
	}
	if err != nil {
		c.s.logf("acphttp: connection %s: dropping agent output that is not a JSON-RPC message: %v", c.id, err)
		return false, nil
	}
	session := m.resultSession
	if !m.isResponse() && m.paramsSession != nil {
		session = *m.paramsSession
	}
	if err := c.limits.idTooLong("Session ID", session); err != nil {
		c.closeLocked(err)
		return false, nil
	}
	return true, nil
}
