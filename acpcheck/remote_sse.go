package acpcheck

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// An sseEvent is one event of an SSE stream.
type sseEvent struct {
	id, data string
}

// sseStream reads one SSE stream until its context ends.
type sseStream struct {
	resp    *http.Response
	events  chan sseEvent
	cancel  context.CancelFunc
	done    sync.WaitGroup
	reading bool
	// positions: events with an id alone (a resumable stream's position)
	// are given too, with empty data.
	positions bool
	// refusal holds the start of the body of an answer other than 200.
	refusal []byte
	// comments is signalled at each comment line (a keep-alive).
	comments chan struct{}
}

// openSSE sends the GET of a stream and, when it is answered 200, reads
// its events on a goroutine that close ends.
func (r *remoteRun) openSSE(header map[string]string) (*sseStream, error) {
	return r.openSSEWith(r.ctx, r.client.Transport, header, true)
}

// openSSEWith is openSSE with the stream's parent context and transport;
// unless read, the stream is not read until startRead.
func (r *remoteRun) openSSEWith(parent context.Context, tr http.RoundTripper, header map[string]string, read bool) (*sseStream, error) {
	ctx, cancel := context.WithCancel(parent)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
	if err != nil {
		cancel()
		return nil, err
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	r.logf(">", "GET %v", header)
	client := &http.Client{Transport: tr} // no overall timeout: a stream lasts
	resp, err := client.Do(req)
	if err != nil {
		cancel()
		r.logf("#", "%v", err)
		return nil, err
	}
	r.logf("<", "%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	s := &sseStream{resp: resp, events: make(chan sseEvent, 64), cancel: cancel, comments: make(chan struct{}, 1)}
	if resp.StatusCode != http.StatusOK {
		s.refusal, _ = io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		close(s.events)
		return s, nil
	}
	if read {
		s.startRead()
	}
	return s, nil
}

// startRead starts reading the stream's events.
func (s *sseStream) startRead() {
	s.reading = true
	s.done.Add(1)
	go s.read()
}

func (s *sseStream) read() {
	defer s.done.Done()
	defer close(s.events)
	defer s.resp.Body.Close()
	sc := bufio.NewScanner(s.resp.Body)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	var ev sseEvent
	var data []string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data == nil && ev.id != "" && s.positions {
				data = []string{}
			}
			if data != nil {
				ev.data = strings.Join(data, "\n")
				select {
				case s.events <- ev:
				default: // the check stopped reading; drop
				}
			}
			ev, data = sseEvent{}, nil
		case strings.HasPrefix(line, ":"):
			select {
			case s.comments <- struct{}{}:
			default:
			}
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		case strings.HasPrefix(line, "id:"):
			ev.id = strings.TrimSpace(strings.TrimPrefix(line, "id:"))
		}
	}
}

// close ends the stream and waits for its goroutine.
func (s *sseStream) close() {
	s.cancel()
	if !s.reading && s.resp.StatusCode == http.StatusOK {
		s.resp.Body.Close()
	}
	s.done.Wait()
}

// next returns the next event, or false after timeout or the stream's end.
func (s *sseStream) next(timeout time.Duration) (sseEvent, bool) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case ev, ok := <-s.events:
		return ev, ok
	case <-t.C:
		return sseEvent{}, false
	}
}

// checkStreams opens the connection's SSE stream, posts session/new and
// expects its answer as an event; then opens the session's stream.
func (r *remoteRun) checkStreams(conn string) {
	s, err := r.openSSE(map[string]string{"Accept": "text/event-stream", "Acp-Connection-Id": conn})
	if err != nil {
		r.verdict(RemoteHTTPSSE, Fail, "%v", err)
		return
	}
	defer s.close()
	if s.resp.StatusCode != http.StatusOK || !strings.HasPrefix(s.resp.Header.Get("Content-Type"), "text/event-stream") {
		r.verdict(RemoteHTTPSSE, Fail, "the GET was answered %d %q", s.resp.StatusCode, s.resp.Header.Get("Content-Type"))
		return
	}
	body := `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`
	resp, data, err := r.do(http.MethodPost, jsonHeader(map[string]string{"Acp-Connection-Id": conn}), []byte(body))
	switch {
	case err != nil:
		r.verdict(RemoteHTTPAccepted, Fail, "%v", err)
		return
	case resp.StatusCode != http.StatusAccepted || len(data) > 0:
		r.verdict(RemoteHTTPAccepted, Fail, "session/new answered %d with %d bytes", resp.StatusCode, len(data))
	default:
		r.verdict(RemoteHTTPAccepted, Pass, "202, empty body")
	}
	var framing []string
	var sid string
	var ids sseIDs
	deadline := time.Now().Add(r.opts.Timeout)
	for sid == "" {
		ev, ok := s.next(time.Until(deadline))
		if !ok {
			break
		}
		r.logf("<", "event id=%q data=%s", ev.id, clip([]byte(ev.data)))
		ids.add(ev.id)
		var m msg
		if err := json.Unmarshal([]byte(ev.data), &m); err != nil || !strings.HasPrefix(strings.TrimSpace(ev.data), "{") {
			framing = append(framing, clip([]byte(ev.data)))
			continue
		}
		if string(compactJSON(m.ID)) == "2" && m.Method == "" {
			var res struct {
				SessionID string `json:"sessionId"`
			}
			_ = json.Unmarshal(m.Result, &res)
			sid = res.SessionID
			if sid == "" {
				sid = "-"
			}
		}
	}
	if sid == "" {
		r.verdict(RemoteHTTPSSE, Fail, "the answer to session/new did not arrive on the stream in %v", r.opts.Timeout)
	} else {
		r.verdict(RemoteHTTPSSE, Pass, "the answer to session/new arrived on the connection's stream")
	}
	if len(framing) > 0 {
		r.verdict(RemoteHTTPSSEFraming, Fail, "events whose data is not one JSON-RPC message: %s", strings.Join(framing, "; "))
	} else {
		r.verdict(RemoteHTTPSSEFraming, Pass, "every event one JSON-RPC message")
	}
	r.verdict(RemoteHTTPSSEEventIDs, Pass, "%s", ids.String())
	if sid != "" && sid != "-" {
		ss, err := r.openSSE(map[string]string{"Accept": "text/event-stream", "Acp-Connection-Id": conn, "Acp-Session-Id": sid})
		switch {
		case err != nil:
			r.verdict(RemoteHTTPSessionStream, Fail, "%v", err)
		case ss.resp.StatusCode != http.StatusOK:
			r.verdict(RemoteHTTPSessionStream, Fail, "answered %d", ss.resp.StatusCode)
		default:
			r.verdict(RemoteHTTPSessionStream, Pass, "200 %s", ss.resp.Header.Get("Content-Type"))
		}
		if ss != nil {
			ss.close()
		}
	}
}

// sseIDs notes the ids of a stream's events, for the informational
// remote.http.sse-event-ids: how many events carried one and whether the
// numeric ids increased.
type sseIDs struct {
	events, withID int
	last           int64
	numeric        bool // every id so far is an integer
	increasing     bool // each numeric id is above the one before
}

func (s *sseIDs) add(id string) {
	s.events++
	if id == "" {
		return
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if s.withID == 0 {
		s.numeric, s.increasing = err == nil, true
	} else if err != nil {
		s.numeric = false
	} else if n <= s.last {
		s.increasing = false
	}
	s.withID++
	s.last = n
}

func (s *sseIDs) String() string {
	switch {
	case s.withID == 0:
		return fmt.Sprintf("none of %d events carried an id", s.events)
	case !s.numeric:
		return fmt.Sprintf("%d of %d events carried an id (not all integers)", s.withID, s.events)
	case s.increasing:
		return fmt.Sprintf("%d of %d events carried an id, increasing", s.withID, s.events)
	}
	return fmt.Sprintf("%d of %d events carried an id, not increasing", s.withID, s.events)
}
