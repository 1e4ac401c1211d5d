package acphttp

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strconv"
	"time"
)

// An SSE stream over HTTP/1.1 is served on the connection it takes over
// from net/http (http.Hijacker): the handler returns once the response's
// head is written, and with it the handler's goroutine, net/http's
// goroutine that watches the connection while a handler runs, and the
// connection's read and write buffers (10 KiB) go. What is left of an idle
// stream is the goroutine that waits for its messages and one that waits
// for the client to close the connection. The body is chunked, as net/http
// writes it: a stream that ends cleanly ends with the last chunk, and one
// aborted (its connection broke a limit) without it.

// hijackStream takes over the connection of the SSE response w and
// writes the head of the response with w's headers. It reports false,
// having written nothing, when w cannot be taken over (HTTP/2, or a
// ResponseWriter of a middleware without Hijack).
func hijackStream(w http.ResponseWriter, stall time.Duration) (net.Conn, bool) {
	netc, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return nil, false
	}
	h := w.Header()
	h.Set("Transfer-Encoding", "chunked")
	h.Set("Connection", "close")
	h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	var head bytes.Buffer
	head.WriteString("HTTP/1.1 200 OK\r\n")
	_ = h.Write(&head)
	head.WriteString("\r\n")
	_ = netc.SetDeadline(time.Time{}) // the server's ReadTimeout no longer applies
	_ = netc.SetWriteDeadline(time.Now().Add(stall))
	if _, err := netc.Write(head.Bytes()); err != nil {
		// The stream ends at once: its client has gone.
		netc.Close()
	}
	return netc, true
}

// streamConn streams the messages of mb, the stream of session, on netc,
// the connection of its response, until mb ends or the client closes the
// connection; then it closes netc and lets the stream go.
func (c *conn) streamConn(netc net.Conn, session string, mb *mailbox) {
	defer c.s.wg.Done()
	defer c.release(session, mb)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	watched := make(chan struct{})
	go func() {
		// A read ends when the client closes the connection (or netc is
		// closed below); what a client sends on it is not looked at.
		defer close(watched)
		defer cancel()
		var b [1]byte
		for {
			if _, err := netc.Read(b[:]); err != nil {
				return
			}
		}
	}()
	out := &connSink{netc: netc}
	if err := c.stream(ctx, out, mb); err == nil {
		// The last chunk ends the response cleanly; a client that cannot
		// take it within writeGrace is not waited for.
		_ = netc.SetWriteDeadline(time.Now().Add(writeGrace))
		_, _ = netc.Write([]byte("0\r\n\r\n"))
	}
	netc.Close()
	<-watched
}

// connSink writes events as chunks of the body of a hijacked response.
type connSink struct {
	netc net.Conn
}

func (s *connSink) setWriteDeadline(t time.Time) { _ = s.netc.SetWriteDeadline(t) }

// writeEvents writes b as one chunk, with one system call.
func (s *connSink) writeEvents(b []byte) error {
	size := strconv.AppendInt(make([]byte, 0, 18), int64(len(b)), 16)
	size = append(size, '\r', '\n')
	bufs := net.Buffers{size, b, []byte("\r\n")}
	_, err := bufs.WriteTo(s.netc)
	return err
}
