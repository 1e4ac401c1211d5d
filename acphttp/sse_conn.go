package acphttp

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// An SSE stream over HTTP/1.1, resumable or not, is served on the
// connection it takes over from net/http (http.Hijacker): the handler
// returns once the response's head is written, and with it the handler's
// goroutine, net/http's goroutine that watches the connection while a
// handler runs, and the connection's read and write buffers (10 KiB) go.
// What is left of an idle stream is what waits for the client to close
// the connection, which holds no goroutine while the client sends nothing
// (see parkedSock), and its events are written by a goroutine that runs
// only while there is something to write. The body is chunked, as
// net/http writes it: a stream that ends cleanly ends with the last chunk,
// and one aborted (its connection broke a limit) without it. A resumable
// stream that another receiver resumes ends cleanly.

// hijackStream takes over the connection of the SSE response w and
// writes the head of the response with w's headers. It reports false,
// having written nothing, when w cannot be taken over (HTTP/2, or a
// ResponseWriter of a middleware without Hijack).
func hijackStream(w http.ResponseWriter, stall time.Duration) (net.Conn, bool) {
	return hijackStreamWith(w, stall, nil)
}

// hijackStreamWith is hijackStream, writing first (whole events, or nil)
// as the body's first chunk in the same write as the head.
func hijackStreamWith(w http.ResponseWriter, stall time.Duration, first []byte) (net.Conn, bool) {
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
	if len(first) > 0 {
		at := head.Len()
		head.WriteString(chunkRoom)
		head.Write(first)
		chunk(&head, at)
	}
	_ = netc.SetDeadline(time.Time{}) // the server's ReadTimeout no longer applies
	_ = netc.SetWriteDeadline(time.Now().Add(stall))
	if _, err := netc.Write(head.Bytes()); err != nil {
		// The stream ends at once: its client has gone.
		netc.Close()
	}
	return netc, true
}

// streamConn serves mb, the stream of session, on netc, the connection
// of its response (see sockStream.serve).
func (c *conn) streamConn(netc net.Conn, session string, mb *mailbox) {
	st := &sockStream{c: c, mb: mb, session: session}
	st.serve(netc)
}

// serve serves the stream on netc, the connection of its response: the
// stream's events are written by a goroutine that runs only while there
// is something to write (flush), and its watch waits for the client to
// close the connection, or for the stream to end and close it; then it
// lets the stream go.
func (st *sockStream) serve(netc net.Conn) {
	c := st.c
	st.netc = netc
	st.parking.init(netc)
	c.mu.Lock()
	st.keepAlive = time.AfterFunc(c.keepAlive(), st.ping)
	st.attached = true
	if !st.replaced {
		st.mb.sock = st
	}
	st.kickLocked() // what is queued already, or the end of a stream replaced
	c.mu.Unlock()
	st.watch()
}

// watch waits for the client to close the stream's connection, or for the
// stream to end and close it, and then lets the stream go. While nothing
// comes from the client, it parks (see parkedSock): the server's poller
// calls it again on a goroutine of its own when something does.
func (st *sockStream) watch() {
	c := st.c
	// A read ends when the client closes the connection, or when the
	// stream ends and closes it; what a client sends is not looked at.
	var b [1]byte
	for {
		if st.parking.park(&c.s.poll, st.rewatch) {
			return
		}
		if _, err := st.netc.Read(b[:]); err != nil {
			break
		}
	}
	defer c.s.wg.Done()
	c.mu.Lock()
	if st.mb.sock == st {
		st.mb.sock = nil
	}
	st.closed = true // no flush starts now
	c.mu.Unlock()
	st.keepAlive.Stop()
	st.parking.stop(&c.s.poll) // the watch is not parked: it returns nil
	st.netc.Close()
	st.flushing.Wait()
	if st.resumable {
		c.releaseResumable(st.session, st.mb, st.gen)
		return
	}
	c.release(st.session, st.mb)
}

// rewatch is what the poller calls to wake a parked watch.
func (st *sockStream) rewatch() { go st.watch() }

// sockStream is an SSE stream served on a connection of its own.
type sockStream struct {
	c         *conn
	netc      net.Conn
	mb        *mailbox
	session   string
	resumable bool           // the stream is resumable: its receiver is of generation gen
	gen       uint64         // the receiver's generation, when resumable
	parking   parkedSock     // its watch's
	keepAlive *time.Timer    // sends a comment when the stream is idle
	flushing  sync.WaitGroup // the flush running
	// Under c.mu:
	running  bool // a flush is running, or the stream has ended
	idle     bool // the keep-alive is due
	attached bool // serve has started: flush may write
	replaced bool // another receiver resumed the stream: this one ends
	closed   bool // the watch has let the stream go: no flush starts
}

// kickLocked starts writing the stream's events, when the stream of mb is
// served on a connection of its own and nothing is writing them; c.mu is
// held.
func (mb *mailbox) kickLocked() {
	if mb.sock != nil {
		mb.sock.kickLocked()
	}
}

// kickLocked starts a flush of the stream, unless one is running or the
// stream has ended; c.mu is held.
func (st *sockStream) kickLocked() {
	if st.running || st.closed {
		return
	}
	st.running = true
	st.flushing.Add(1)
	go st.flush()
}

// takenOverLocked ends the stream for another receiver that resumes it: it
// takes nothing more of the stream, and its response ends; c.mu is held.
// It may be called before serve starts, which then ends the response at
// once.
func (st *sockStream) takenOverLocked() {
	st.replaced = true
	if !st.attached {
		return
	}
	if st.mb.sock == st {
		st.mb.sock = nil
	}
	st.kickLocked()
}

// ping is the keep-alive of an idle stream, every keep-alive interval.
func (st *sockStream) ping() {
	st.c.checkAgent()
	st.c.mu.Lock()
	defer st.c.mu.Unlock()
	if st.mb.sock == st {
		st.idle = true
		st.mb.kickLocked()
	}
}

// flush writes what the stream holds, each batch one chunk with one
// system call, until it holds nothing more, and ends the stream once it
// has ended.
func (st *sockStream) flush() {
	defer st.flushing.Done()
	c := st.c
	buf := framePool.Get().(*bytes.Buffer)
	defer putFrameBuffer(buf)
	for {
		buf.Reset()
		buf.WriteString(chunkRoom)
		c.mu.Lock()
		mb := st.mb
		end, clean := false, false
		switch {
		case st.replaced:
			// Another receiver resumed the stream: this response ends, as
			// one served by net/http whose request is cancelled does.
			end, clean = true, true
		case mb.aborted:
			// Ended by the client or the server: the stream ends; for a
			// limit, without its last chunk, as an aborted response.
			end, clean = true, mb.abortErr == nil || errors.Is(mb.abortErr, errShutdown)
		case len(mb.queue) > 0:
			for len(mb.queue) > 0 && buf.Len() < maxBatch {
				writeEvent(buf, mb, c.dequeueLocked(mb))
			}
		case mb.finished:
			end, clean = true, true
		case st.idle:
			buf.WriteString(":\n\n")
		default:
			st.running = false
			c.mu.Unlock()
			return
		}
		st.idle = false
		c.mu.Unlock()
		if end {
			st.end(clean)
			return
		}
		_ = st.netc.SetWriteDeadline(time.Now().Add(c.limits.MaxOutputStall))
		if _, err := st.netc.Write(chunk(buf, 0)); err != nil {
			st.end(false)
			return
		}
		st.keepAlive.Reset(c.keepAlive())
	}
}

// end ends the stream, with the last chunk when it ended cleanly, and
// closes its connection (which ends streamConn). It stays running: no
// other flush starts.
func (st *sockStream) end(clean bool) {
	if clean {
		// A client that cannot take the last chunk within writeGrace is not
		// waited for.
		_ = st.netc.SetWriteDeadline(time.Now().Add(writeGrace))
		_, _ = st.netc.Write([]byte("0\r\n\r\n"))
	}
	resume := st.parking.stop(&st.c.s.poll)
	_ = st.netc.Close()
	if resume != nil {
		resume() // the watch finds the connection closed
	}
}

// chunkRoom is the room a batch of events leaves at its start for the
// size line of its chunk: eight hexadecimal digits, leading zeros allowed.
const chunkRoom = "00000000\r\n"

// chunk makes the batch in buf, which has chunkRoom at offset at and the
// batch after it, one chunk of a chunked body, to be written with one
// system call, and returns buf's bytes.
func chunk(buf *bytes.Buffer, at int) []byte {
	b := buf.Bytes()[at:]
	n := len(b) - len(chunkRoom)
	const hex = "0123456789abcdef"
	for i := 7; i >= 0; i-- {
		b[i] = hex[n&0xf]
		n >>= 4
	}
	buf.WriteString("\r\n")
	return buf.Bytes()
}
