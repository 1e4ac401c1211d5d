package acpcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// The bounds of the slow-reader checks: how many requests the kit sends
// on the stalled connection and for how long at most, and how soon a
// second connection must be served meanwhile.
const (
	slowRequests = 8000
	slowPosters  = 4
	slowFlood    = 6 * time.Second
	slowBound    = 5 * time.Second
	slowPushBack = time.Second
	slowIDPad    = 960 // bytes of padding in each request id (under 1 KiB in all), echoed in its answer
)

// slowTransport returns a transport whose connections have a small
// receive buffer, so that a stream the kit does not read backs up into the
// server after a few kilobytes rather than a few megabytes.
func slowTransport() *http.Transport {
	d := &net.Dialer{Timeout: slowBound}
	return &http.Transport{
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.DialContext(ctx, network, addr)
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetReadBuffer(4096)
			}
			return c, err
		},
	}
}

// slowRequest is the n-th session/new of a flood: its answer, which
// echoes the padded id, goes to the stalled stream.
func slowRequest(n int) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":"acpcheck-slow-%d-%s","method":"session/new","params":{"cwd":"/","mcpServers":[]}}`,
		n, strings.Repeat("x", slowIDPad)))
}

// checkSlowReaders checks, in each profile, that a connection whose
// stream the kit stops reading does not stop the server serving another.
func (r *remoteRun) checkSlowReaders() {
	if r.opts.NoSlowReader {
		r.verdict(RemoteHTTPSlowReader, NotApplicable, "skipped")
		r.verdict(RemoteWSSlowReader, NotApplicable, "skipped")
		return
	}
	r.checkSlowSSE()
	r.checkSlowWS()
}

// checkSlowSSE stalls one connection's SSE stream with a flood of
// session/new and then opens a second connection.
func (r *remoteRun) checkSlowSSE() {
	const req = RemoteHTTPSlowReader
	resp, _, err := r.do(http.MethodPost, jsonHeader(nil), r.init)
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Acp-Connection-Id") == "" {
		r.verdict(req, NotExercised, "no connection to stall: initialize failed")
		return
	}
	conn := resp.Header.Get("Acp-Connection-Id")
	tr := slowTransport()
	defer tr.CloseIdleConnections()
	s, err := r.openSSEWith(r.ctx, tr, map[string]string{"Accept": "text/event-stream", "Acp-Connection-Id": conn}, false)
	if err != nil || s.resp.StatusCode != http.StatusOK {
		if s != nil {
			s.close()
		}
		r.verdict(req, NotExercised, "the stream to stall did not open")
		return
	}
	sent, size := r.floodHTTP(conn)
	probe, took, perr := r.probeHTTP()
	// Closing the stalled stream lets a server that waited on it go.
	s.close()
	for _, c := range []string{conn, probe} {
		if c != "" {
			_, _, _ = r.do(http.MethodDelete, map[string]string{"Acp-Connection-Id": c}, nil)
		}
	}
	if perr != nil {
		r.verdict(req, Fail, "after %d session/new (%d KiB) on a stream not read, a new connection was not served in %v: %v", sent, size>>10, slowBound, perr)
		return
	}
	r.verdict(req, Pass, "after %d session/new (%d KiB) on a stream not read, a new connection was served in %v", sent, size>>10, took.Round(time.Millisecond))
}

// floodHTTP posts session/new on conn, from slowPosters at once, until
// slowRequests are sent, slowFlood has passed, or a POST is not accepted;
// it returns how many were accepted and their bytes.
func (r *remoteRun) floodHTTP(conn string) (sent, size int) {
	client := r.opts.Client
	if client == nil {
		client = &http.Client{Timeout: r.opts.Timeout, Transport: &http.Transport{MaxIdleConnsPerHost: slowPosters}}
		defer client.CloseIdleConnections()
	}
	ctx, cancel := context.WithTimeout(r.ctx, slowFlood)
	defer cancel()
	r.logf(">", "POST session/new ×%d at most, for %v at most, answers not read", slowRequests, slowFlood)
	var next, accepted, bytes atomic.Int64
	var failure atomic.Value
	var wg sync.WaitGroup
	for range slowPosters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := next.Add(1) - 1; n < slowRequests && ctx.Err() == nil; n = next.Add(1) - 1 {
				body := slowRequest(int(n))
				if err := postAccepted(ctx, client, r.url, conn, body); err != nil {
					failure.CompareAndSwap(nil, err.Error())
					cancel()
					return
				}
				accepted.Add(1)
				bytes.Add(int64(len(body)))
			}
		}()
	}
	wg.Wait()
	if f, ok := failure.Load().(string); ok && r.ctx.Err() == nil {
		r.logf("#", "a POST of the flood: %s", f)
	}
	return int(accepted.Load()), int(bytes.Load())
}

// postAccepted posts body on conn and expects a 2xx answer.
func postAccepted(ctx context.Context, client *http.Client, url, conn string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range jsonHeader(map[string]string{"Acp-Connection-Id": conn}) {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("answered %d", resp.StatusCode)
	}
	return nil
}

// probeHTTP opens a second connection and its stream, and waits for the
// answer of a session/new on it, all within slowBound. It returns the
// connection's id, for the caller to delete, and how long it took.
func (r *remoteRun) probeHTTP() (conn string, took time.Duration, err error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(r.ctx, slowBound)
	defer cancel()
	client := *r.client
	client.Timeout = 0 // slowBound bounds the whole probe
	resp, _, err := r.doWith(ctx, &client, http.MethodPost, jsonHeader(nil), r.init)
	switch {
	case err != nil:
		return conn, 0, fmt.Errorf("initialize: %w", err)
	case resp.StatusCode != http.StatusOK || resp.Header.Get("Acp-Connection-Id") == "":
		return conn, 0, fmt.Errorf("initialize answered %d", resp.StatusCode)
	}
	conn = resp.Header.Get("Acp-Connection-Id")
	s, err := r.openSSEWith(ctx, r.client.Transport, map[string]string{"Accept": "text/event-stream", "Acp-Connection-Id": conn}, true)
	if err != nil {
		return conn, 0, fmt.Errorf("the stream: %w", err)
	}
	defer s.close()
	if s.resp.StatusCode != http.StatusOK {
		return conn, 0, fmt.Errorf("the stream answered %d", s.resp.StatusCode)
	}
	body := `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`
	if _, _, err := r.doWith(ctx, &client, http.MethodPost, jsonHeader(map[string]string{"Acp-Connection-Id": conn}), []byte(body)); err != nil {
		return conn, 0, fmt.Errorf("session/new: %w", err)
	}
	for {
		ev, ok := s.next(time.Until(start.Add(slowBound)))
		if !ok {
			return conn, 0, fmt.Errorf("the answer to session/new did not arrive")
		}
		var m msg
		if json.Unmarshal([]byte(ev.data), &m) == nil && string(compactJSON(m.ID)) == "2" && m.Method == "" {
			return conn, time.Since(start), nil
		}
	}
}

// checkSlowWS stalls one WebSocket with a flood of session/new it does
// not read the answers of, and then opens a second WebSocket.
func (r *remoteRun) checkSlowWS() {
	const req = RemoteWSSlowReader
	ctx, cancel := context.WithTimeout(r.ctx, slowFlood+2*slowBound)
	defer cancel()
	tr := slowTransport()
	defer tr.CloseIdleConnections()
	r.logf(">", "GET Upgrade: websocket (not read)")
	c, _, err := websocket.Dial(ctx, r.url, &websocket.DialOptions{HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		r.verdict(req, NotExercised, "no WebSocket to stall: %v", err)
		return
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, r.init); err != nil {
		r.verdict(req, NotExercised, "no WebSocket to stall: %v", err)
		return
	}
	// The flood runs on while the second WebSocket is tried: a write that
	// waits is the server pushing back, and ending it would close the
	// socket (the WebSocket library closes on a cancelled write).
	var stop atomic.Bool
	var progress atomic.Int64
	sent, size := 0, 0
	flooded := make(chan struct{})
	go func() {
		defer close(flooded)
		for ; sent < slowRequests && !stop.Load(); sent++ {
			body := slowRequest(sent)
			if c.Write(ctx, websocket.MessageText, body) != nil {
				return
			}
			size += len(body)
			progress.Add(1)
		}
	}()
	r.waitFlood(flooded, &progress)
	stop.Store(true)
	took, perr := r.probeWS()
	c.CloseNow()
	<-flooded
	r.logf(">", "%d session/new frames, none of the answers read", sent)
	if perr != nil {
		r.verdict(req, Fail, "after %d session/new (%d KiB) on a WebSocket not read, a new one was not served in %v: %v", sent, size>>10, slowBound, perr)
		return
	}
	r.verdict(req, Pass, "after %d session/new (%d KiB) on a WebSocket not read, a new one was served in %v", sent, size>>10, took.Round(time.Millisecond))
}

// waitFlood returns when the flood ends, when slowFlood has passed, or
// when no frame of it has been written for slowPushBack: the server has
// stopped reading the socket, its writes to the kit waiting.
func (r *remoteRun) waitFlood(flooded <-chan struct{}, progress *atomic.Int64) {
	end := time.NewTimer(slowFlood)
	defer end.Stop()
	tick := time.NewTicker(slowPushBack / 4)
	defer tick.Stop()
	last, since := int64(-1), time.Now()
	for {
		select {
		case <-flooded:
			return
		case <-end.C:
			return
		case <-tick.C:
			if n := progress.Load(); n != last {
				last, since = n, time.Now()
			} else if time.Since(since) >= slowPushBack {
				r.logf("#", "the server stopped reading after %d frames", n)
				return
			}
		}
	}
}

// probeWS opens a second WebSocket and waits for the answer to its
// initialize, within slowBound.
func (r *remoteRun) probeWS() (time.Duration, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(r.ctx, slowBound)
	defer cancel()
	c, _, err := websocket.Dial(ctx, r.url, &websocket.DialOptions{HTTPClient: &http.Client{Transport: r.client.Transport}})
	if err != nil {
		return 0, fmt.Errorf("the upgrade: %w", err)
	}
	defer c.CloseNow()
	c.SetReadLimit(64 << 20)
	if err := c.Write(ctx, websocket.MessageText, r.init); err != nil {
		return 0, fmt.Errorf("sending initialize: %w", err)
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return 0, fmt.Errorf("the answer to initialize: %w", err)
		}
		var m msg
		if json.Unmarshal(data, &m) == nil && string(compactJSON(m.ID)) == "1" && m.Result != nil {
			_ = c.Close(websocket.StatusNormalClosure, "")
			return time.Since(start), nil
		}
	}
}
