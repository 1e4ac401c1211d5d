package acphttp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/coder/websocket"
)

// rawEvent is one event of an SSE stream as the wire has it.
type rawEvent struct{ id, data string }

// rawStream reads an SSE stream event by event.
type rawStream struct {
	resp   *http.Response
	br     *bufio.Reader
	cancel context.CancelFunc
}

// openRaw GETs the stream of session ("" for the connection's) of conn,
// after cursor last when not "".
func openRaw(t *testing.T, url, conn, session, last string) (*http.Response, *rawStream) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(acphttp.HeaderConnectionID, conn)
	if session != "" {
		req.Header.Set(acphttp.HeaderSessionID, session)
	}
	if last != "" {
		req.Header.Set(acphttp.HeaderLastEventID, last)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	s := &rawStream{resp: resp, br: bufio.NewReader(resp.Body), cancel: cancel}
	t.Cleanup(s.close)
	return resp, s
}

func (s *rawStream) close() {
	s.cancel()
	s.resp.Body.Close()
}

// next returns the next event, an id alone included; comments skipped.
func (s *rawStream) next(t *testing.T) rawEvent {
	t.Helper()
	var ev rawEvent
	has := false
	for {
		line, err := s.br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if has {
				return ev
			}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "id: "):
			ev.id, has = line[4:], true
		case strings.HasPrefix(line, "data: "):
			ev.data, has = line[6:], true
		}
	}
}

// postRaw POSTs body to conn (and session) and returns the response.
func postRaw(t *testing.T, url, conn, session, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if conn != "" {
		req.Header.Set(acphttp.HeaderConnectionID, conn)
	}
	if session != "" {
		req.Header.Set(acphttp.HeaderSessionID, session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// cursorOf returns _meta["acp/cursor"] of the message data, in its params
// or result.
func cursorOf(t *testing.T, data string) string {
	t.Helper()
	var m struct {
		Params, Result struct {
			Meta map[string]any `json:"_meta"`
		}
	}
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	c, _ := m.Params.Meta["acp/cursor"].(string)
	if c == "" {
		c, _ = m.Result.Meta["acp/cursor"].(string)
	}
	return c
}

// seq returns the number of a cursor of acphttp's, to check that they
// grow (a client never parses them).
func seq(t *testing.T, cursor string) int {
	t.Helper()
	_, n, _ := strings.Cut(cursor, ".")
	v, err := strconv.Atoi(n)
	if err != nil {
		t.Fatalf("cursor %q", cursor)
	}
	return v
}

// TestResumeWireHTTP checks the RFD on the wire of Streamable HTTP: the
// advertisement, a cursor on every event as its id and in _meta, cursors
// that grow, a replay after Last-Event-ID identical to what was sent, v1's
// turn state after it, 409 with the reason for a foreign, unknown or
// expired cursor, and a second resume of the same stream taking it over
// with the same replay.
func TestResumeWireHTTP(t *testing.T) {
	_, addr := resumableServer(t, &acphttp.Resumable{RetentionMessages: 3})
	url := "http://" + addr + "/"
	resp := postRaw(t, url, "", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	body, _ := io.ReadAll(resp.Body)
	if want := `"acp/transport":{"resumable":{"retentionMessages":3,"retentionSeconds":300}}`; !strings.Contains(string(body), want) {
		t.Fatalf("initialize result %s lacks %s", body, want)
	}
	conn := resp.Header.Get(acphttp.HeaderConnectionID)
	_, main := openRaw(t, url, conn, "", "")
	start := main.next(t)
	if start.data != "" || start.id == "" {
		t.Fatalf("the stream starts with %+v, want its position alone", start)
	}
	postRaw(t, url, conn, "", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`)
	created := main.next(t)
	if created.id != cursorOf(t, created.data) || seq(t, created.id) != seq(t, start.id)+1 {
		t.Fatalf("event %+v after %q", created, start.id)
	}
	var r struct {
		Result struct{ SessionID string }
	}
	_ = json.Unmarshal([]byte(created.data), &r)
	sid := r.Result.SessionID

	_, s1 := openRaw(t, url, conn, sid, "")
	s1.next(t) // its position
	postRaw(t, url, conn, sid, `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"`+sid+`","prompt":[{"type":"text","text":"a"},{"type":"text","text":"b"},{"type":"text","text":"c"}]}}`)
	var sent []rawEvent
	for range 4 { // three chunks, the permission request
		ev := s1.next(t)
		if ev.id != cursorOf(t, ev.data) {
			t.Fatalf("id %q, cursor %q", ev.id, cursorOf(t, ev.data))
		}
		if len(sent) > 0 && seq(t, ev.id) <= seq(t, sent[len(sent)-1].id) {
			t.Fatalf("cursor %q after %q", ev.id, sent[len(sent)-1].id)
		}
		sent = append(sent, ev)
	}
	if !strings.Contains(sent[3].data, "session/request_permission") {
		t.Fatalf("fourth event %s", sent[3].data)
	}

	// Resume after the second chunk: the rest again, identical, then the
	// turn's state; twice, the second taking the stream over, which ends
	// the first's response cleanly (its last chunk).
	var taken *rawStream
	for round := range 2 {
		resp, s := openRaw(t, url, conn, sid, sent[1].id)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("round %d: resume answered %d", round, resp.StatusCode)
		}
		if !resp.Close || len(resp.TransferEncoding) != 1 {
			t.Errorf("round %d: Close %v, Transfer-Encoding %q: not served on its own connection", round, resp.Close, resp.TransferEncoding)
		}
		if taken != nil {
			if rest, err := io.ReadAll(taken.br); err != nil || strings.Contains(string(rest), "data:") {
				t.Errorf("the stream taken over: %q, %v, want a clean end", rest, err)
			}
		}
		taken = s
		for _, want := range sent[2:] {
			if got := s.next(t); got != want {
				t.Fatalf("round %d: replayed %+v, want %+v", round, got, want)
			}
		}
		state := s.next(t)
		if !strings.Contains(state.data, `"stream/resumed"`) || !strings.Contains(state.data, `"acp/turnState":{"state":"requires_action","promptRequestId":2}`) {
			t.Fatalf("round %d: after the replay %s", round, state.data)
		}
	}

	refusesCursors(t, url, conn, sid, start.id, sent[0].id, main)
}

// refusesCursors checks that resumes of the session sid (and of the
// connection's stream, from its position start, older than its ring) are
// refused with 409 and the RFD's reason: a foreign cursor, an unknown one,
// an expired one. first is a cursor the session's stream sent.
func refusesCursors(t *testing.T, url, conn, sid, start, first string, main *rawStream) {
	t.Helper()
	for _, c := range []struct{ cursor, reason string }{
		{"bogus", "foreign_cursor"},
		{strings.Split(first, ".")[0] + ".999", "unknown_cursor"},
		{start, "expired_cursor"}, // the connection's stream kept 3 messages; its position is older
	} {
		stream := sid
		if c.cursor == start {
			stream = ""
			postRaw(t, url, conn, "", `{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`)
			postRaw(t, url, conn, "", `{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`)
			postRaw(t, url, conn, "", `{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`)
			for range 3 {
				main.next(t)
			}
		}
		resp, _ := openRaw(t, url, conn, stream, c.cursor)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusConflict || !strings.Contains(string(body), `"reason":"`+c.reason+`"`) {
			t.Errorf("cursor %q: %d %s, want 409 %s", c.cursor, resp.StatusCode, body, c.reason)
		}
	}
}

// TestResumeWireWebSocket checks the RFD over WebSocket: cursors in _meta,
// stream/resume as the first frame of a new socket replaying what follows
// the cursor identically and then the state, and stream/resume_failed
// with the reason for a cursor of no stream of the connection.
func TestResumeWireWebSocket(t *testing.T) {
	_, addr := resumableServer(t, nil)
	url := "ws://" + addr + "/"
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn := resp.Header.Get(acphttp.HeaderConnectionID)
	send := func(ws *websocket.Conn, msg string) {
		t.Helper()
		if err := ws.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	read := func(ws *websocket.Conn) string {
		t.Helper()
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	send(ws, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	if init := read(ws); cursorOf(t, init) == "" || !strings.Contains(init, `"resumable"`) {
		t.Fatalf("initialize answered %s", init)
	}
	send(ws, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`)
	created := read(ws)
	var r struct {
		Result struct{ SessionID string }
	}
	_ = json.Unmarshal([]byte(created), &r)
	sid := r.Result.SessionID
	send(ws, `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"`+sid+`","prompt":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}`)
	var got []string
	for range 3 { // two chunks, the permission request
		got = append(got, read(ws))
	}
	_ = ws.CloseNow() // a drop, without a close frame

	h := http.Header{}
	h.Set(acphttp.HeaderConnectionID, conn)
	ws2, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	defer ws2.CloseNow()
	send(ws2, `{"jsonrpc":"2.0","method":"stream/resume","params":{"cursors":{"connection":"`+cursorOf(t, got[0])+`"}}}`)
	for _, want := range got[1:] {
		if again := read(ws2); again != want {
			t.Fatalf("replayed %s, want %s", again, want)
		}
	}
	if state := read(ws2); !strings.Contains(state, `"acp/turnState":{"state":"requires_action","promptRequestId":2}`) {
		t.Fatalf("after the replay %s", state)
	}

	ws3, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	defer ws3.CloseNow()
	send(ws3, `{"jsonrpc":"2.0","method":"stream/resume","params":{"cursors":{"connection":"0000.1"}}}`)
	if failed := read(ws3); !strings.Contains(failed, `"method":"stream/resume_failed"`) || !strings.Contains(failed, `"reason":"foreign_cursor"`) {
		t.Fatalf("a foreign cursor answered %s", failed)
	}
	if _, _, err := ws3.Read(ctx); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Fatalf("after the refusal: %v", err)
	}
	// The refusal left the connection and its resumed socket alone.
	send(ws2, `{"jsonrpc":"2.0","id":`+permissionID(t, got[2])+`,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`)
	for {
		msg := read(ws2)
		if strings.Contains(msg, `"stopReason":"end_turn"`) {
			break
		}
	}
}

// permissionID returns the id of the request msg.
func permissionID(t *testing.T, msg string) string {
	t.Helper()
	var m struct{ ID json.RawMessage }
	if err := json.Unmarshal([]byte(msg), &m); err != nil || m.ID == nil {
		t.Fatalf("not a request: %s", msg)
	}
	return string(m.ID)
}
