package acpcheck

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// checkWebSocket checks the WebSocket profile.
func (r *remoteRun) checkWebSocket() {
	ctx, cancel := context.WithTimeout(r.ctx, 3*r.opts.Timeout)
	defer cancel()
	r.logf(">", "GET Upgrade: websocket")
	c, resp, err := websocket.Dial(ctx, r.url, &websocket.DialOptions{
		HTTPClient:   &http.Client{Transport: r.client.Transport},
		Subprotocols: []string{offeredSubprotocol},
	})
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		r.logf("#", "%v", err)
		r.verdict(RemoteWSUpgrade, Fail, "the upgrade failed (%d): %v", status, err)
		for _, id := range []ID{RemoteWSSubprotocol, RemoteWSTextFrames, RemoteWSBinaryIgnored, RemoteWSClose} {
			r.verdict(id, NotExercised, "no WebSocket")
		}
		return
	}
	defer c.CloseNow()
	r.checkSubprotocol(resp.Header.Get("Sec-WebSocket-Protocol"))
	c.SetReadLimit(64 << 20)
	conn := resp.Header.Get("Acp-Connection-Id")
	r.logf("<", "%d Acp-Connection-Id=%q", resp.StatusCode, conn)
	_ = c.Write(ctx, websocket.MessageBinary, r.init)
	if err := c.Write(ctx, websocket.MessageText, r.init); err != nil {
		r.verdict(RemoteWSUpgrade, Fail, "sending initialize: %v", err)
		return
	}
	var frames []string
	var answers int
	for {
		rctx, rcancel := context.WithTimeout(ctx, r.readWait(answers))
		typ, data, err := c.Read(rctx)
		rcancel()
		if err != nil {
			break
		}
		r.logf("<", "frame %v %s", typ, clip(data))
		var m msg
		if typ != websocket.MessageText || json.Unmarshal(data, &m) != nil || !strings.HasPrefix(strings.TrimSpace(string(data)), "{") {
			frames = append(frames, clip(data))
			continue
		}
		if string(compactJSON(m.ID)) == "1" && m.Result != nil {
			answers++
		}
	}
	switch {
	case conn == "":
		r.verdict(RemoteWSUpgrade, Fail, "the 101 has no Acp-Connection-Id")
	case answers == 0:
		r.verdict(RemoteWSUpgrade, Fail, "initialize was not answered in a text frame")
	default:
		r.verdict(RemoteWSUpgrade, Pass, "101, Acp-Connection-Id %s, initialize answered", conn)
	}
	if len(frames) > 0 {
		r.verdict(RemoteWSTextFrames, Fail, "frames that are not one JSON-RPC message in text: %s", strings.Join(frames, "; "))
	} else {
		r.verdict(RemoteWSTextFrames, Pass, "every frame a text frame with one message")
	}
	if answers > 1 {
		r.verdict(RemoteWSBinaryIgnored, Fail, "initialize in a binary frame was answered too")
	} else {
		r.verdict(RemoteWSBinaryIgnored, Pass, "the binary frame was ignored")
	}
	if err := c.Close(websocket.StatusNormalClosure, ""); err != nil && !errors.Is(err, context.Canceled) {
		r.verdict(RemoteWSClose, Fail, "closing: %v", err)
	} else {
		r.verdict(RemoteWSClose, Pass, "the server answered the close frame")
	}
}

// offeredSubprotocol is the subprotocol the kit offers in its upgrade: one
// that no transport defines, so that a server has none to select.
const offeredSubprotocol = "acpcheck.invalid"

// checkSubprotocol judges the subprotocol a 101 selected: none, as the
// transport defines none. (A selection the client did not offer already
// fails the upgrade, which RFC 6455 requires of the client.)
func (r *remoteRun) checkSubprotocol(selected string) {
	if selected != "" {
		r.verdict(RemoteWSSubprotocol, Fail, "offered %q, the server selected %q", offeredSubprotocol, selected)
		return
	}
	r.verdict(RemoteWSSubprotocol, Pass, "offered %q, the server selected none", offeredSubprotocol)
}

// readWait is how long to wait for the next frame: the timeout for the
// first answer, then a short while for anything more.
func (r *remoteRun) readWait(answers int) time.Duration {
	if answers == 0 {
		return r.opts.Timeout
	}
	return 300 * time.Millisecond
}

// checkLocal checks the protections of a loopback server against DNS
// rebinding and foreign origins.
func (r *remoteRun) checkLocal() {
	if !isLoopback(r.url) {
		r.verdict(RemoteLocalHost, NotApplicable, "the server is not on a loopback address")
		r.verdict(RemoteLocalOrigin, NotApplicable, "the server is not on a loopback address")
		return
	}
	r.refused(RemoteLocalHost, jsonHeader(map[string]string{"Host": "evil.example"}), "a foreign Host")
	if !r.refused(RemoteLocalOrigin, jsonHeader(map[string]string{"Origin": "http://evil.example"}), "a foreign Origin") {
		return
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.opts.Timeout)
	defer cancel()
	h := http.Header{}
	h.Set("Origin", "http://evil.example")
	c, resp, err := websocket.Dial(ctx, r.url, &websocket.DialOptions{HTTPHeader: h, HTTPClient: &http.Client{Transport: r.client.Transport}})
	if err == nil {
		c.CloseNow()
		r.rep.Verdicts = r.rep.Verdicts[:len(r.rep.Verdicts)-1]
		r.verdict(RemoteLocalOrigin, Fail, "a WebSocket upgrade with Origin http://evil.example was accepted (%d)", resp.StatusCode)
	}
}

// refused posts initialize with header and expects 403; it ends any
// connection the server opened. It reports whether the request was refused.
func (r *remoteRun) refused(req ID, header map[string]string, what string) bool {
	resp, _, err := r.do(http.MethodPost, header, r.init)
	switch {
	case err != nil:
		r.verdict(req, Fail, "%v", err)
		return false
	case resp.StatusCode == http.StatusForbidden:
		r.verdict(req, Pass, "initialize with %s answered 403", what)
		return true
	}
	if id := resp.Header.Get("Acp-Connection-Id"); id != "" {
		_, _, _ = r.do(http.MethodDelete, map[string]string{"Acp-Connection-Id": id}, nil)
	}
	r.verdict(req, Fail, "initialize with %s answered %d, not 403", what, resp.StatusCode)
	return false
}
