package acpcheck

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/coder/websocket"
)

// shutdownBound is how long the streams have to end once the server's
// shutdown has begun.
const shutdownBound = 5 * time.Second

// checkShutdown opens an SSE stream and a WebSocket, calls the shutdown
// hook, and judges how they end and whether new connections are refused.
func (r *remoteRun) checkShutdown() {
	ids := []ID{RemoteShutdownSSE, RemoteShutdownWS, RemoteShutdownRefuse}
	if r.opts.Shutdown == nil {
		for _, id := range ids {
			r.verdict(id, NotExercised, "no shutdown hook: only a test that runs the server (RemoteOptions.Shutdown) can stop it")
		}
		return
	}
	ctx, cancel := context.WithTimeout(r.ctx, 2*shutdownBound+r.opts.Timeout)
	defer cancel()
	s := r.shutdownSSE(ctx)
	if s != nil {
		defer s.close()
	}
	wsEnd := r.shutdownWS(ctx)
	r.logf("#", "shutdown")
	hookDone := make(chan error, 1)
	go func() { hookDone <- r.opts.Shutdown(ctx) }()
	deadline := time.Now().Add(shutdownBound)
	if s == nil {
		r.verdict(ids[0], NotExercised, "no SSE stream was open")
	} else {
		r.judgeSSEEnd(ids[0], s, deadline)
	}
	if wsEnd == nil {
		r.verdict(ids[1], NotExercised, "no WebSocket was open")
	} else {
		r.judgeWSEnd(ids[1], wsEnd, deadline)
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case err := <-hookDone:
		if err != nil {
			r.logf("#", "the shutdown hook returned %v", err)
		}
	case <-t.C:
		r.logf("#", "the shutdown hook had not returned in %v", shutdownBound)
	}
	resp, _, err := r.do(http.MethodPost, jsonHeader(nil), r.init)
	switch {
	case err != nil:
		r.verdict(ids[2], Pass, "a new initialize could not connect: %v", err)
	case resp.StatusCode/100 == 2:
		r.verdict(ids[2], Fail, "after the shutdown, a new initialize was answered %d", resp.StatusCode)
	default:
		r.verdict(ids[2], Pass, "after the shutdown, a new initialize was answered %d", resp.StatusCode)
	}
}

// shutdownSSE opens a connection and its SSE stream, or returns nil.
func (r *remoteRun) shutdownSSE(ctx context.Context) *sseStream {
	resp, _, err := r.do(http.MethodPost, jsonHeader(nil), r.init)
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Acp-Connection-Id") == "" {
		return nil
	}
	s, err := r.openSSEWith(ctx, r.client.Transport, map[string]string{"Accept": "text/event-stream", "Acp-Connection-Id": resp.Header.Get("Acp-Connection-Id")}, true)
	if err != nil {
		return nil
	}
	if s.resp.StatusCode != http.StatusOK {
		s.close()
		return nil
	}
	return s
}

// shutdownWS opens an initialized WebSocket and returns what ends it
// (the error of its reads), or nil. The socket closes when ctx ends.
func (r *remoteRun) shutdownWS(ctx context.Context) <-chan error {
	c, _, err := websocket.Dial(ctx, r.url, &websocket.DialOptions{HTTPClient: &http.Client{Transport: r.client.Transport}})
	if err != nil {
		return nil
	}
	c.SetReadLimit(64 << 20)
	rctx, rcancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer rcancel()
	answered := false
	if c.Write(rctx, websocket.MessageText, r.init) == nil {
		for !answered {
			_, data, err := c.Read(rctx)
			if err != nil {
				break
			}
			var m msg
			answered = json.Unmarshal(data, &m) == nil && string(compactJSON(m.ID)) == "1" && m.Result != nil
		}
	}
	if !answered {
		c.CloseNow()
		return nil
	}
	end := make(chan error, 1)
	go func() {
		defer c.CloseNow()
		for {
			if _, _, err := c.Read(ctx); err != nil {
				end <- err
				return
			}
		}
	}()
	return end
}

// judgeSSEEnd waits for the stream to end before deadline.
func (r *remoteRun) judgeSSEEnd(id ID, s *sseStream, deadline time.Time) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	for {
		select {
		case _, ok := <-s.events:
			if !ok {
				r.verdict(id, Pass, "the SSE stream ended")
				return
			}
		case <-t.C:
			r.verdict(id, Fail, "the SSE stream was still open %v after the shutdown began", shutdownBound)
			return
		}
	}
}

// judgeWSEnd waits for the WebSocket's close frame before deadline.
func (r *remoteRun) judgeWSEnd(id ID, end <-chan error, deadline time.Time) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case err := <-end:
		switch code := websocket.CloseStatus(err); code {
		case websocket.StatusGoingAway, websocket.StatusNormalClosure:
			r.verdict(id, Pass, "the WebSocket got a close frame %d", code)
		case -1:
			r.verdict(id, Fail, "the WebSocket ended without a close frame: %v", err)
		default:
			r.verdict(id, Fail, "the WebSocket got a close frame %d, not 1001 (going away)", code)
		}
	case <-t.C:
		r.verdict(id, Fail, "the WebSocket was still open %v after the shutdown began", shutdownBound)
	}
}
