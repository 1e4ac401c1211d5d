package acphttp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// keepAliveInterval is how often an idle SSE stream sends a comment, as
// the TypeScript SDK's do.
const keepAliveInterval = 15 * time.Second

// serveGet opens the connection's SSE stream, or with Acp-Session-Id that
// session's, and streams its messages until the connection ends or the
// client goes.
func (s *Server) serveGet(w http.ResponseWriter, r *http.Request) {
	if !strings.Contains(strings.ToLower(r.Header.Get("Accept")), mimeEventStream) {
		textResponse(w, http.StatusNotAcceptable, "Not Acceptable")
		return
	}
	c := s.lookup(w, r)
	if c == nil {
		return
	}
	session := r.Header.Get(HeaderSessionID)
	mb, status, text := c.acquire(session)
	if mb == nil {
		textResponse(w, status, text)
		s.wg.Done()
		return
	}
	h := w.Header()
	h.Set("Content-Type", mimeEventStream)
	h.Set("Cache-Control", "no-cache")
	if r.ProtoAtLeast(1, 1) && r.ProtoMajor == 1 {
		// Over HTTP/1.1 (a chunked body), the stream goes on in a goroutine
		// of its own, without the handler's goroutine and net/http's buffers.
		if netc, ok := hijackStream(w, s.limits.MaxOutputStall); ok {
			go c.streamConn(netc, session, mb)
			return
		}
	}
	if r.ProtoMajor == 1 {
		h.Set("Connection", "keep-alive")
	}
	defer s.wg.Done()
	defer c.release(session, mb)
	rc := http.NewResponseController(w)
	// A stream lasts as long as its connection, whatever the server's
	// WriteTimeout: each write has MaxOutputStall instead.
	_ = rc.SetWriteDeadline(time.Now().Add(s.limits.MaxOutputStall))
	w.WriteHeader(http.StatusOK)
	if rc.Flush() != nil {
		return
	}
	if err := c.stream(r.Context(), &responseSink{w, rc}, mb); err != nil {
		var lerr *LimitError
		if errors.As(err, &lerr) {
			// The connection broke a limit: abort the response rather than
			// end it as if the stream were complete.
			panic(http.ErrAbortHandler)
		}
	}
}

// eventSink is where a stream writes its events.
type eventSink interface {
	// setWriteDeadline sets the deadline of the writes.
	setWriteDeadline(t time.Time)
	// writeEvents writes b, whole events, and flushes them.
	writeEvents(b []byte) error
}

// responseSink is the response of an SSE stream served by net/http.
type responseSink struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func (s *responseSink) setWriteDeadline(t time.Time) { _ = s.rc.SetWriteDeadline(t) }

func (s *responseSink) writeEvents(b []byte) error {
	if _, err := s.w.Write(b); err != nil {
		return err
	}
	return s.rc.Flush()
}

// stream writes each message of mb to out as an SSE event until mb ends or
// ctx does. A write the client takes none of for MaxOutputStall fails, and
// so does one still under way writeGrace after the connection closes.
func (c *conn) stream(ctx context.Context, out eventSink, mb *mailbox) (err error) {
	c.mu.Lock()
	gen := mb.gen
	c.mu.Unlock()
	return c.streamAs(ctx, out, mb, gen)
}

// streamAs is stream for the receiver of generation gen of mb: once
// another receiver has resumed the stream, it takes nothing more of it.
func (c *conn) streamAs(ctx context.Context, out eventSink, mb *mailbox, gen uint64) (err error) {
	keepAlive := time.NewTicker(c.keepAlive())
	defer keepAlive.Stop()
	var mu sync.Mutex // out is not used once stream returns
	done := false
	stop := context.AfterFunc(c.stopWrites, func() {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			out.setWriteDeadline(time.Now())
		}
	})
	defer func() {
		stop()
		mu.Lock()
		done = true
		mu.Unlock()
		if err == nil {
			// A stream that ended cleanly ends its response cleanly.
			out.setWriteDeadline(time.Now().Add(c.limits.MaxOutputStall))
		}
	}()
	write := func(b []byte) error {
		out.setWriteDeadline(time.Now().Add(c.limits.MaxOutputStall))
		return out.writeEvents(b)
	}
	idle := func() error { return write([]byte(":\n\n")) }
	for {
		msg, err := c.next(ctx, mb, keepAlive.C, idle)
		if err != nil {
			if errors.Is(err, ErrClosed) || errors.Is(err, errShutdown) {
				return nil
			}
			return err
		}
		if msg == nil {
			return nil
		}
		// Write what else is queued with it, then flush once, from a
		// buffer that an idle stream does not keep.
		buf := framePool.Get().(*bytes.Buffer)
		for msg != nil {
			writeEvent(buf, mb, msg)
			msg = nil
			if buf.Len() < maxBatch && ctx.Err() == nil {
				msg = c.takeFor(mb, gen)
			}
		}
		err = write(buf.Bytes())
		putFrameBuffer(buf)
		if err != nil {
			return err
		}
	}
}

// maxBatch is the size past which a stream flushes what it has written
// without taking more of its queue.
const maxBatch = 64 << 10

// errMessageTooLarge is the error of a message over MaxMessageBytes.
var errMessageTooLarge = errors.New("acphttp: message too large: it exceeds MaxMessageBytes")

// sseReader reads the events of an SSE stream, each the text of one JSON
// message.
type sseReader struct {
	br   *bufio.Reader
	max  int
	data []byte
	// id is the last event id the stream gave (its id field), as the
	// cursor of a resumable stream; idSeen says the event next returned
	// had one.
	id     string
	idSeen bool
}

// sseReadBuffer is the size of an SSE reader's buffer: a line longer than
// that is put together from several reads. Each stream of a client has
// one for as long as it is open; a larger one made every stream opened
// cost its client's garbage collector that much more.
const sseReadBuffer = 4 << 10

func newSSEReader(r io.Reader, max int) *sseReader {
	return &sseReader{br: bufio.NewReaderSize(r, sseReadBuffer), max: max}
}

// next returns the data of the next event that has data, or empty data
// for an event with an id alone (the position of a resumable stream);
// io.EOF at the end.
func (s *sseReader) next() ([]byte, error) {
	s.data = s.data[:0]
	s.idSeen = false
	has := false
	for {
		line, err := s.line()
		if err != nil {
			if err == io.EOF && has {
				return s.data, nil
			}
			return nil, err
		}
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		if len(line) == 0 {
			if has || s.idSeen {
				return s.data, nil
			}
			continue
		}
		if id, ok := bytes.CutPrefix(line, []byte("id:")); ok {
			if id = bytes.TrimPrefix(id, []byte(" ")); bytes.IndexByte(id, 0) < 0 {
				s.id, s.idSeen = string(id), true
			}
			continue
		}
		value, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if has {
			s.data = append(s.data, '\n')
		}
		if len(s.data)+len(value) > s.max {
			return nil, errMessageTooLarge
		}
		s.data = append(s.data, value...)
		has = true
	}
}

// line returns the next line without its ending (LF or CRLF); it is
// valid until the next call.
func (s *sseReader) line() ([]byte, error) {
	b, err := s.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		line := bytes.Clone(b)
		for err == bufio.ErrBufferFull {
			if len(line) > s.max+16 {
				return nil, errMessageTooLarge
			}
			b, err = s.br.ReadSlice('\n')
			line = append(line, b...)
		}
		b = line
	}
	if err != nil && (err != io.EOF || len(b) == 0) {
		return nil, err
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r")), nil
}
