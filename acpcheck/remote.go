package acpcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// RemoteOptions tunes CheckRemote.
type RemoteOptions struct {
	// Timeout bounds each request and each wait for an event; 0 means 3 s.
	Timeout time.Duration
	// Client makes the HTTP requests; nil means a client of the kit's own.
	Client *http.Client
	// NoBodyLimit skips the check that sends a 17 MiB body.
	NoBodyLimit bool
	// NoSlowReader skips the checks that stall a stream (remote.*.slow-reader).
	NoSlowReader bool
	// KeepAlive is the interval of the keep-alives expected of an idle
	// stream of an endpoint that advertises resumable streams
	// (remote.resume.keepalive, which waits up to twice it); 0 means 15 s,
	// acphttp's default.
	KeepAlive time.Duration
	// NoKeepAlive skips the wait for a keep-alive (remote.resume.keepalive).
	NoKeepAlive bool
	// Versions lists the protocol versions the endpoint is expected to
	// serve; the transport checks initialize with the lowest of 1 and 2
	// listed (version 1 when none is).
	Versions []int
	// Shutdown, when set, shuts the server down; the kit calls it last,
	// with an SSE stream and a WebSocket open, and judges how they end
	// (remote.shutdown.*). It must return once ctx ends. Without it (as
	// from the command line) those checks are not exercised.
	Shutdown func(ctx context.Context) error
}

// remoteRun is one run of the transport checks.
type remoteRun struct {
	ctx    context.Context
	rep    *Report
	url    string
	opts   RemoteOptions
	client *http.Client
	log    []Line
	start  time.Time
	init   []byte // the initialize the checks send
}

// The initialize requests the transport checks send, of each version.
const (
	initializeV1 = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{},"clientInfo":{"name":"acpcheck","version":"1.0.0"}}}`
	initializeV2 = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2,"capabilities":{},"info":{"name":"acpcheck","version":"1.0.0"}}}`
)

// remoteInitialize returns the initialize of the lowest of versions 1 and 2
// that versions lists: a v2-only endpoint is checked with a v2 initialize.
func remoteInitialize(versions []int) []byte {
	v1, v2 := len(versions) == 0, false
	for _, v := range versions {
		v1 = v1 || v == 1
		v2 = v2 || v == 2
	}
	if !v1 && v2 {
		return []byte(initializeV2)
	}
	return []byte(initializeV1)
}

// CheckRemote checks the transport of an ACP endpoint (http:// URL of its
// path, conventionally /acp) in both profiles, Streamable HTTP and
// WebSocket. It opens a few connections, sends initialize and session/new
// on them, and never a prompt.
func CheckRemote(ctx context.Context, endpoint string, opts RemoteOptions) *Report {
	if opts.Timeout == 0 {
		opts.Timeout = 3 * time.Second
	}
	if opts.KeepAlive <= 0 {
		opts.KeepAlive = defaultKeepAlive
	}
	r := &remoteRun{ctx: ctx, rep: &Report{Mode: "remote", Target: endpoint, Started: time.Now()}, url: endpoint, opts: opts, client: opts.Client, start: time.Now(), init: remoteInitialize(opts.Versions)}
	if r.client == nil {
		r.client = &http.Client{Timeout: opts.Timeout, Transport: &http.Transport{DisableKeepAlives: true}}
	}
	defer func() {
		r.rep.Duration = time.Since(r.rep.Started)
		r.rep.sortVerdicts()
	}()
	id := r.checkInitialize()
	if id != "" {
		r.checkStreams(id)
		r.checkErrors(id)
		r.checkDelete(id)
	}
	r.checkResume()
	r.checkWebSocket()
	r.checkLocal()
	r.checkSlowReaders()
	r.checkShutdown()
	return r.rep
}

func (r *remoteRun) verdict(id ID, st Status, format string, args ...any) {
	r.rep.add(id, 0, st, append([]Line(nil), r.log...), format, args...)
}

func (r *remoteRun) logf(dir, format string, args ...any) {
	r.log = append(r.log, Line{Dir: dir, At: time.Since(r.start), Text: clip([]byte(fmt.Sprintf(format, args...)))})
	if len(r.log) > 200 {
		r.log = r.log[len(r.log)-200:]
	}
}

// do sends a request and returns the response with its body read (up to
// 1 MiB), logging both.
func (r *remoteRun) do(method string, header map[string]string, body []byte) (*http.Response, []byte, error) {
	ctx, cancel := context.WithTimeout(r.ctx, r.opts.Timeout)
	defer cancel()
	return r.doWith(ctx, r.client, method, header, body)
}

// doWith is do with the request's context and client.
func (r *remoteRun) doWith(ctx context.Context, client *http.Client, method string, header map[string]string, body []byte) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, r.url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	shown := body
	if len(shown) > 300 {
		shown = append(shown[:300:300], "…"...)
	}
	r.logf(">", "%s %v %s", method, header, shown)
	resp, err := client.Do(req)
	if err != nil {
		r.logf("#", "%v", err)
		return nil, nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	r.logf("<", "%d %s Acp-Connection-Id=%q %s", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Acp-Connection-Id"), data)
	return resp, data, nil
}

func jsonHeader(extra map[string]string) map[string]string {
	h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	for k, v := range extra {
		h[k] = v
	}
	return h
}

// checkInitialize opens a connection and returns its id.
func (r *remoteRun) checkInitialize() string {
	resp, body, err := r.do(http.MethodPost, jsonHeader(nil), r.init)
	if err != nil {
		r.verdict(RemoteHTTPInitialize, Fail, "%v", err)
		return ""
	}
	var m msg
	id := resp.Header.Get("Acp-Connection-Id")
	switch {
	case resp.StatusCode != http.StatusOK:
		r.verdict(RemoteHTTPInitialize, Fail, "answered %d", resp.StatusCode)
	case !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json"):
		r.verdict(RemoteHTTPInitialize, Fail, "Content-Type %q, not application/json", resp.Header.Get("Content-Type"))
	case json.Unmarshal(body, &m) != nil || m.Result == nil:
		r.verdict(RemoteHTTPInitialize, Fail, "the body is not a JSON-RPC result")
	case id == "":
		r.verdict(RemoteHTTPInitialize, Fail, "no Acp-Connection-Id header")
	default:
		r.verdict(RemoteHTTPInitialize, Pass, "200 with Acp-Connection-Id %s", id)
		if n := len(resp.Cookies()); n > 0 {
			r.verdict(RemoteHTTPCookies, Pass, "initialize set %d cookies: clients must send them back", n)
		} else {
			r.verdict(RemoteHTTPCookies, Pass, "no cookie set")
		}
		return id
	}
	return ""
}

// isLoopback reports whether the endpoint's host is a loopback address or
// localhost.
func isLoopback(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
