package acphttp

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
)

// HeaderLastEventID is the header of a GET that resumes an SSE stream
// after the event of its cursor.
const HeaderLastEventID = "Last-Event-ID"

// serveResumableGet serves the SSE stream of a connection with resumable
// streams: as serveGet, but every event has the id of its cursor, a GET
// with Last-Event-ID resumes the stream after that cursor (taking it from
// a receiver that still holds it), and one whose cursor the stream cannot
// resume from is refused with 409 and the reason. Over HTTP/1.1 the
// stream is served on the connection taken over from net/http, as a plain
// one is, and a resume ends it by closing its response (see
// sockStream.takenOverLocked); otherwise net/http serves it, and a resume
// cancels its request.
func (s *Server) serveResumableGet(w http.ResponseWriter, r *http.Request) {
	if !strings.Contains(strings.ToLower(r.Header.Get("Accept")), mimeEventStream) {
		textResponse(w, http.StatusNotAcceptable, "Not Acceptable")
		return
	}
	c := s.lookup(w, r)
	if c == nil {
		return
	}
	session := r.Header.Get(HeaderSessionID)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	st := &sockStream{c: c, session: session, resumable: true}
	detach := func() {
		// Whichever serves the stream ends: the hijacked connection's
		// writer, or the handler through its request's context.
		cancel()
		st.takenOverLocked()
	}
	mb, gen, start, refusal := c.acquireResumable(session, r.Header.Get(HeaderLastEventID), detach)
	if mb == nil {
		refusal.write(w)
		s.wg.Done()
		return
	}
	h := w.Header()
	h.Set("Content-Type", mimeEventStream)
	h.Set("Cache-Control", "no-cache")
	var first []byte
	if start != "" {
		// The stream's position: a client that loses the stream before its
		// first event resumes from here.
		first = []byte("id: " + start + "\n\n")
	}
	if r.ProtoMajor == 1 && r.ProtoAtLeast(1, 1) {
		if netc, ok := hijackStreamWith(w, s.limits.MaxOutputStall, first); ok {
			st.mb, st.gen = mb, gen
			go st.serve(netc) // its watch counts in s.wg till it ends
			return
		}
	}
	defer s.wg.Done()
	defer c.releaseResumable(session, mb, gen)
	if r.ProtoMajor == 1 {
		h.Set("Connection", "keep-alive")
	}
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(s.limits.MaxOutputStall))
	w.WriteHeader(http.StatusOK)
	if first != nil {
		_, _ = w.Write(first)
	}
	if rc.Flush() != nil {
		return
	}
	if err := c.streamAs(ctx, &responseSink{w, rc}, mb, gen); err != nil {
		var lerr *LimitError
		if errors.As(err, &lerr) {
			panic(http.ErrAbortHandler)
		}
	}
}

// refusal is why a stream was not given: a status and a text, or a JSON
// body.
type refusal struct {
	status int
	text   string
	json   []byte
}

func (f refusal) write(w http.ResponseWriter) {
	if f.json != nil {
		jsonResponse(w, f.status, f.json)
		return
	}
	textResponse(w, f.status, f.text)
}

// acquireResumable attaches a receiver, whose detach ends it, to the
// stream of session ("" for the connection's), resuming it after cursor
// when cursor is not "". It returns the stream, the receiver's
// generation and, for a stream opened without a cursor, the cursor of its
// position; or nil and the refusal.
func (c *conn) acquireResumable(session, cursor string, detach func()) (*mailbox, uint64, string, refusal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, 0, "", refusal{status: http.StatusNotFound, text: "Unknown Acp-Connection-Id"}
	}
	mb := &c.main
	var sessions []string
	if session != "" {
		if err := c.limits.idTooLong("Session ID", session); err != nil {
			return nil, 0, "", refusal{status: http.StatusBadRequest, text: err.Text}
		}
		mb = c.sessions[session]
		switch {
		case mb == nil && cursor != "":
			// A stream this connection does not have: its cursor is foreign.
			return nil, 0, "", refusal{status: http.StatusConflict, json: resumeFailure(reasonForeign, cursor)}
		case mb == nil && c.finished:
			return nil, 0, "", refusal{status: http.StatusNotFound, text: "Unknown Acp-Connection-Id"}
		case mb == nil:
			mb = c.newMailbox()
			c.sessions[session] = mb
		case !mb.receiver && mb.gen == 0 && len(mb.queue) > 0:
			// Opened by the agent's output, counted as unclaimed till now.
			c.unclaimed--
		}
		sessions = []string{session}
	}
	if mb.aborted {
		return nil, 0, "", refusal{status: http.StatusNotFound, text: "Unknown Acp-Connection-Id"}
	}
	if cursor == "" && mb.receiver {
		return nil, 0, "", refusal{status: http.StatusConflict, text: "Outbound stream already has an active receiver"}
	}
	start := ""
	if cursor == "" {
		start = mb.log.cursor(mb.log.base + uint64(mb.log.sent.len()) - 1)
	}
	gen, reason := c.resumeLocked(mb, session, cursor, sessions)
	if reason != "" {
		return nil, 0, "", refusal{status: http.StatusConflict, json: resumeFailure(reason, cursor)}
	}
	mb.detach = detach
	return mb, gen, start, refusal{}
}
