package acpcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The requirements of the draft RFD "Durable & Resumable HTTP/WS
// Transport", judged where an endpoint advertises resumable streams.
var resumeRequirements = []ID{RemoteResumeCursors, RemoteResumeReplay, RemoteResumeUnknownCursor, RemoteResumeState, RemoteResumeKeepAlive}

// checkResume judges resumable streams, on a connection of its own: where
// the initialize result does not advertise them, every check is not
// applicable.
func (r *remoteRun) checkResume() {
	resp, body, err := r.do(http.MethodPost, jsonHeader(nil), []byte(initializeV1))
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Acp-Connection-Id") == "" {
		for _, id := range resumeRequirements {
			r.verdict(id, NotExercised, "no connection to check it on")
		}
		return
	}
	conn := resp.Header.Get("Acp-Connection-Id")
	defer r.do(http.MethodDelete, map[string]string{"Acp-Connection-Id": conn}, nil)
	var init struct {
		Result struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
	}
	_ = json.Unmarshal(body, &init)
	var transport struct {
		Resumable *struct {
			RetentionMessages, RetentionSeconds int64
		}
	}
	_ = json.Unmarshal(init.Result.Meta["acp/transport"], &transport)
	if transport.Resumable == nil {
		r.verdict(RemoteResumeAdvertised, Pass, `not advertised (no _meta["acp/transport"].resumable in the initialize result)`)
		for _, id := range resumeRequirements {
			r.verdict(id, NotApplicable, "the endpoint does not advertise resumable streams")
		}
		return
	}
	r.verdict(RemoteResumeAdvertised, Pass, "advertised: %d messages, %d s", transport.Resumable.RetentionMessages, transport.Resumable.RetentionSeconds)
	header := map[string]string{"Accept": "text/event-stream", "Acp-Connection-Id": conn}
	evs, sid := r.resumeEvents(header, conn)
	if len(evs) < 3 {
		for _, id := range resumeRequirements {
			r.verdict(id, Fail, "the answers to three session/new did not arrive on the connection's stream in %v", r.opts.Timeout)
		}
		return
	}
	r.checkCursors(evs)
	r.checkReplay(header, evs)
	r.checkUnknownCursor(header)
	r.checkResumeState(header, sid)
	r.checkKeepAlive(header, evs[len(evs)-1].id)
}

// defaultKeepAlive is the keep-alive interval expected when
// RemoteOptions.KeepAlive is 0: acphttp's default.
const defaultKeepAlive = 15 * time.Second

// checkKeepAlive resumes the connection's stream after last, its last
// event (taking it over from an earlier receiver), and, while nothing is
// sent on it, waits for a keep-alive, an SSE comment, for up to twice the
// expected interval.
func (r *remoteRun) checkKeepAlive(header map[string]string, last string) {
	if r.opts.NoKeepAlive {
		r.verdict(RemoteResumeKeepAlive, NotExercised, "skipped (NoKeepAlive)")
		return
	}
	h := map[string]string{"Last-Event-ID": last}
	for k, v := range header {
		h[k] = v
	}
	s, err := r.openSSE(h)
	if err != nil || s.resp.StatusCode != http.StatusOK {
		if s != nil {
			s.close()
		}
		r.verdict(RemoteResumeKeepAlive, Fail, "resuming the connection's stream after %q failed", last)
		return
	}
	defer s.close()
	wait := 2 * r.opts.KeepAlive
	start := time.Now()
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case <-s.comments:
			r.logf("<", ": (a comment)")
			r.verdict(RemoteResumeKeepAlive, Pass, "a keep-alive (an SSE comment) after %v of an idle stream", time.Since(start).Round(time.Millisecond))
			return
		case _, ok := <-s.events:
			if ok {
				continue // not idle: what was queued for the stream
			}
			r.verdict(RemoteResumeKeepAlive, Fail, "the stream ended after %v of silence, without a keep-alive", time.Since(start).Round(time.Millisecond))
			return
		case <-t.C:
			r.verdict(RemoteResumeKeepAlive, Fail, "an idle stream sent nothing for %v, twice the expected keep-alive interval (RemoteOptions.KeepAlive, -keepalive): a client takes a stream silent for five intervals for dead", wait)
			return
		}
	}
}

// resumeEvents opens the connection's stream, sends three session/new and
// returns the events of their answers and the first session's id.
func (r *remoteRun) resumeEvents(header map[string]string, conn string) ([]sseEvent, string) {
	s, err := r.openSSE(header)
	if err != nil || s.resp.StatusCode != http.StatusOK {
		if s != nil {
			s.close()
		}
		return nil, ""
	}
	defer s.close()
	for i := range 3 {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, 31+i)
		_, _, _ = r.do(http.MethodPost, jsonHeader(map[string]string{"Acp-Connection-Id": conn}), []byte(body))
	}
	var evs []sseEvent
	deadline := time.Now().Add(r.opts.Timeout)
	for len(evs) < 3 {
		ev, ok := s.next(time.Until(deadline))
		if !ok {
			break
		}
		r.logf("<", "event id=%q data=%s", ev.id, clip([]byte(ev.data)))
		evs = append(evs, ev)
	}
	var sid string
	if len(evs) > 0 {
		var m struct {
			Result struct{ SessionID string }
		}
		_ = json.Unmarshal([]byte(evs[0].data), &m)
		sid = m.Result.SessionID
	}
	return evs, sid
}

// cursorIn returns _meta["acp/cursor"] of the message data, in its params
// or result.
func cursorIn(data string) string {
	var m struct {
		Params, Result struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
	}
	_ = json.Unmarshal([]byte(data), &m)
	var c string
	if raw := m.Params.Meta["acp/cursor"]; raw != nil {
		_ = json.Unmarshal(raw, &c)
	} else if raw := m.Result.Meta["acp/cursor"]; raw != nil {
		_ = json.Unmarshal(raw, &c)
	}
	return c
}

// checkCursors: every event has an id, the cursor in its _meta, each a new
// one.
func (r *remoteRun) checkCursors(evs []sseEvent) {
	seen := map[string]bool{}
	for _, ev := range evs {
		c := cursorIn(ev.data)
		switch {
		case ev.id == "":
			r.verdict(RemoteResumeCursors, Fail, "an event without an id: %s", clip([]byte(ev.data)))
			return
		case c != ev.id:
			r.verdict(RemoteResumeCursors, Fail, "event id %q, _meta[\"acp/cursor\"] %q", ev.id, c)
			return
		case seen[c]:
			r.verdict(RemoteResumeCursors, Fail, "cursor %q given twice", c)
			return
		}
		seen[c] = true
	}
	r.verdict(RemoteResumeCursors, Pass, "%d events, each with its cursor as id and in _meta, each new", len(evs))
}

// checkReplay resumes the stream after its first event: the others must
// come again, identical and in order.
func (r *remoteRun) checkReplay(header map[string]string, evs []sseEvent) {
	h := map[string]string{"Last-Event-ID": evs[0].id}
	for k, v := range header {
		h[k] = v
	}
	s, err := r.openSSE(h)
	if err != nil {
		r.verdict(RemoteResumeReplay, Fail, "%v", err)
		return
	}
	defer s.close()
	if s.resp.StatusCode != http.StatusOK {
		r.verdict(RemoteResumeReplay, Fail, "resuming after %q was answered %d", evs[0].id, s.resp.StatusCode)
		return
	}
	for _, want := range evs[1:] {
		got, ok := s.next(r.opts.Timeout)
		if !ok {
			r.verdict(RemoteResumeReplay, Fail, "the replay ended before %q", want.id)
			return
		}
		if got != want {
			r.verdict(RemoteResumeReplay, Fail, "replayed id %q %s, sent as id %q %s", got.id, clip([]byte(got.data)), want.id, clip([]byte(want.data)))
			return
		}
	}
	r.verdict(RemoteResumeReplay, Pass, "after Last-Event-ID %q, the %d events after it again, identical, in order", evs[0].id, len(evs)-1)
}

// checkUnknownCursor: a cursor the stream never gave is refused with 409,
// never answered with a live stream.
func (r *remoteRun) checkUnknownCursor(header map[string]string) {
	h := map[string]string{"Last-Event-ID": "acpcheck-unknown-cursor"}
	for k, v := range header {
		h[k] = v
	}
	s, err := r.openSSE(h)
	if err != nil {
		r.verdict(RemoteResumeUnknownCursor, Fail, "%v", err)
		return
	}
	defer s.close()
	switch s.resp.StatusCode {
	case http.StatusConflict:
		// A 409 without a reason is the refusal of a second receiver of a
		// stream, not of the cursor.
		body := s.refusal
		if !bytes.Contains(body, []byte(`"reason"`)) {
			r.verdict(RemoteResumeUnknownCursor, Fail, "409 without a reason: %s", clip(body))
			return
		}
		r.verdict(RemoteResumeUnknownCursor, Pass, "409: %s", clip(body))
	case http.StatusOK:
		r.verdict(RemoteResumeUnknownCursor, Fail, "answered with a live stream: a client would miss what was sent")
	default:
		r.verdict(RemoteResumeUnknownCursor, Fail, "answered %d, not 409", s.resp.StatusCode)
	}
}

// checkResumeState resumes the stream of session sid from its position:
// the session's state must come before anything live (v1: the advisory
// _meta["acp/turnState"]; v2: a state_update).
func (r *remoteRun) checkResumeState(header map[string]string, sid string) {
	if sid == "" {
		r.verdict(RemoteResumeState, NotExercised, "session/new gave no session id")
		return
	}
	h := map[string]string{"Acp-Session-Id": sid}
	for k, v := range header {
		h[k] = v
	}
	s, err := r.openSSEWith(r.ctx, r.client.Transport, h, false)
	if err != nil || s.resp.StatusCode != http.StatusOK {
		if s != nil {
			s.close()
		}
		r.verdict(RemoteResumeState, Fail, "the session's stream did not open")
		return
	}
	s.positions = true
	s.startRead()
	pos, ok := s.next(r.opts.Timeout)
	s.close()
	if !ok || pos.id == "" || pos.data != "" {
		r.verdict(RemoteResumeState, NotExercised, "the session's stream gave no position (an event with an id alone) to resume from")
		return
	}
	h["Last-Event-ID"] = pos.id
	s2, err := r.openSSE(h)
	if err != nil || s2.resp.StatusCode != http.StatusOK {
		if s2 != nil {
			s2.close()
		}
		r.verdict(RemoteResumeState, Fail, "resuming the session's stream after %q failed", pos.id)
		return
	}
	defer s2.close()
	ev, ok := s2.next(r.opts.Timeout)
	switch {
	case !ok:
		r.verdict(RemoteResumeState, Fail, "nothing came after the resume in %v", r.opts.Timeout)
	case strings.Contains(ev.data, `"acp/turnState"`), bytes.Contains([]byte(ev.data), []byte(`"state_update"`)):
		r.verdict(RemoteResumeState, Pass, "the session's state first: %s", clip([]byte(ev.data)))
	default:
		r.verdict(RemoteResumeState, Fail, "the first message after the resume is not the session's state: %s", clip([]byte(ev.data)))
	}
}
