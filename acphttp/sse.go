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
	defer s.wg.Done()
	session := r.Header.Get(HeaderSessionID)
	mb, status, text := c.acquire(session)
	if mb == nil {
		textResponse(w, status, text)
		return
	}
	defer c.release(session, mb)
	h := w.Header()
	h.Set("Content-Type", mimeEventStream)
	h.Set("Cache-Control", "no-cache")
	if r.ProtoMajor == 1 {
		h.Set("Connection", "keep-alive")
	}
	rc := http.NewResponseController(w)
	// A stream lasts as long as its connection, whatever the server's
	// WriteTimeout: each write has MaxOutputStall instead.
	_ = rc.SetWriteDeadline(time.Now().Add(s.limits.MaxOutputStall))
	w.WriteHeader(http.StatusOK)
	if rc.Flush() != nil {
		return
	}
	if err := c.stream(r, w, rc, mb); err != nil {
		var lerr *LimitError
		if errors.As(err, &lerr) {
			// The connection broke a limit: abort the response rather than
			// end it as if the stream were complete.
			panic(http.ErrAbortHandler)
		}
	}
}

// stream writes each message of mb to w as an SSE event until mb ends. A
// write the client takes none of for MaxOutputStall fails, and so does one
// still under way writeGrace after the connection closes.
func (c *conn) stream(r *http.Request, w io.Writer, rc *http.ResponseController, mb *mailbox) (err error) {
	keepAlive := time.NewTicker(keepAliveInterval)
	defer keepAlive.Stop()
	var mu sync.Mutex // rc is not used once stream returns
	done := false
	stop := context.AfterFunc(c.stopWrites, func() {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			_ = rc.SetWriteDeadline(time.Now())
		}
	})
	defer func() {
		stop()
		mu.Lock()
		done = true
		mu.Unlock()
		if err == nil {
			// A stream that ended cleanly ends its response cleanly.
			_ = rc.SetWriteDeadline(time.Now().Add(c.limits.MaxOutputStall))
		}
	}()
	write := func(b []byte) error {
		_ = rc.SetWriteDeadline(time.Now().Add(c.limits.MaxOutputStall))
		if _, err := w.Write(b); err != nil {
			return err
		}
		return rc.Flush()
	}
	idle := func() error { return write([]byte(":\n\n")) }
	var buf []byte
	for {
		msg, err := c.next(r.Context(), mb, keepAlive.C, idle)
		if err != nil {
			if errors.Is(err, ErrClosed) || errors.Is(err, errShutdown) {
				return nil
			}
			return err
		}
		if msg == nil {
			return nil
		}
		// Write what else is queued with it, then flush once.
		buf = buf[:0]
		for msg != nil {
			buf = append(append(append(buf, "data: "...), msg...), "\n\n"...)
			msg = nil
			if len(buf) < maxBatch {
				msg = c.take(mb)
			}
		}
		if err := write(buf); err != nil {
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
}

func newSSEReader(r io.Reader, max int) *sseReader {
	return &sseReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the data of the next event that has data; io.EOF at the end.
func (s *sseReader) next() ([]byte, error) {
	s.data = s.data[:0]
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
			if has {
				return s.data, nil
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
