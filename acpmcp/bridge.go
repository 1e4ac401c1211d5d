//go:build unstable_mcp_over_acp || unstable

package acpmcp

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// BridgeOptions configures a [Bridge]; zero fields take the defaults.
type BridgeOptions struct {
	// MaxActiveRequests bounds the HTTP requests served at once (64); past
	// it a request is answered 429 with the JSON-RPC error -33000.
	MaxActiveRequests int
	// MaxRequestBodyBytes bounds a request body (1 MiB); past it: 413.
	MaxRequestBodyBytes int64
	// MaxBufferedResponseBytes bounds the notifications of one response
	// waiting to be written (1 MiB); past it the request is cancelled and
	// its stream ends with the error -33000.
	MaxBufferedResponseBytes int
}

// A Bridge re-exports the servers a client declared with "type": "acp" as
// loopback MCP 2026-07-28 Streamable HTTP endpoints, for an agent whose MCP
// client takes only URLs. It listens on 127.0.0.1, on a port of its own,
// from its first declaration until [Bridge.Close]: make one per ACP
// connection and close it with the connection. Each HTTP POST becomes one
// "mcp/message" request through the caller; closing the HTTP response
// cancels that request alone. Each server has its own bearer token, sent in
// the declaration's headers (never in the URL) and compared in constant
// time. Only POST of one request is served: no batches, initialize, session
// headers or GET streams.
type Bridge struct {
	caller *Caller
	opts   BridgeOptions
	secret [32]byte

	mu     sync.Mutex
	srv    *http.Server
	port   int
	active int
	closed bool
	served chan struct{} // closed when Serve has returned

	stop     chan struct{} // closed by Close, ends CloseWhen's goroutine
	stopOnce sync.Once
}

// NewBridge returns a bridge that forwards through caller.
func NewBridge(caller *Caller, opts *BridgeOptions) *Bridge {
	b := &Bridge{caller: caller, stop: make(chan struct{})}
	if opts != nil {
		b.opts = *opts
	}
	if b.opts.MaxActiveRequests <= 0 {
		b.opts.MaxActiveRequests = 64
	}
	if b.opts.MaxRequestBodyBytes <= 0 {
		b.opts.MaxRequestBodyBytes = 1 << 20
	}
	if b.opts.MaxBufferedResponseBytes <= 0 {
		b.opts.MaxBufferedResponseBytes = 1 << 20
	}
	_, _ = rand.Read(b.secret[:])
	return b
}

// HTTPDeclaration is what an "http" entry of mcpServers holds for a
// re-exported server.
type HTTPDeclaration struct {
	Name string
	URL  string
	// Authorization is the value of the Authorization header to send.
	Authorization string
}

// Declare returns the HTTP declaration that serves the ACP-declared server
// serverID (named name), starting the listener if needed.
func (b *Bridge) Declare(serverID, name string) (HTTPDeclaration, error) {
	port, err := b.listen()
	if err != nil {
		return HTTPDeclaration{}, err
	}
	return HTTPDeclaration{
		Name:          name,
		URL:           "http://127.0.0.1:" + strconv.Itoa(port) + "/" + serverRoute(serverID),
		Authorization: "Bearer " + base64.RawURLEncoding.EncodeToString(b.mac(serverID)),
	}, nil
}

// listen starts the listener once and returns its port.
func (b *Bridge) listen() (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, errors.New("acpmcp: the bridge is closed")
	}
	if b.srv != nil {
		return b.port, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	b.port = ln.Addr().(*net.TCPAddr).Port
	b.srv = &http.Server{Handler: b, ReadHeaderTimeout: 10 * time.Second}
	b.served = make(chan struct{})
	go func() {
		defer close(b.served)
		_ = b.srv.Serve(ln)
	}()
	return b.port, nil
}

// Close closes the listener and every connection to it, cancelling the
// requests being forwarded, and waits for the server to stop.
func (b *Bridge) Close() error {
	b.stopOnce.Do(func() { close(b.stop) })
	b.mu.Lock()
	b.closed = true
	srv, served := b.srv, b.served
	b.mu.Unlock()
	if srv == nil {
		return nil
	}
	err := srv.Close()
	<-served
	return err
}

// CloseWhen closes the bridge when done is closed, as a connection's Done
// channel is when it ends; a Close before that ends the wait.
func (b *Bridge) CloseWhen(done <-chan struct{}) {
	go func() {
		select {
		case <-done:
			_ = b.Close()
		case <-b.stop:
		}
	}()
}

const hmacContext = "mcp-over-acp-http-adapter/server/v1\x00"

// mac is the token of serverID.
func (b *Bridge) mac(serverID string) []byte {
	h := hmac.New(sha256.New, b.secret[:])
	h.Write([]byte(hmacContext))
	h.Write([]byte(serverID))
	return h.Sum(nil)
}

// serverRoute is the path segment of a server: even an empty ID has one.
func serverRoute(serverID string) string {
	return "mcp-" + base64.RawURLEncoding.EncodeToString([]byte(serverID))
}

// parseServerRoute returns the server ID of a canonical route.
func parseServerRoute(route string) (string, bool) {
	if len(route) > 4096 || !strings.HasPrefix(route, "mcp-") {
		return "", false
	}
	id, err := base64.RawURLEncoding.DecodeString(route[4:])
	if err != nil || serverRoute(string(id)) != route {
		return "", false
	}
	return string(id), true
}

// authorized reports whether the Authorization header holds the token of
// serverID, compared in constant time.
func (b *Bridge) authorized(header, serverID string) bool {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "bearer") || token == "" || strings.Contains(token, " ") {
		return false
	}
	supplied, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || base64.RawURLEncoding.EncodeToString(supplied) != token {
		return false
	}
	return subtle.ConstantTimeCompare(supplied, b.mac(serverID)) == 1
}

// httpError is a refusal before forwarding.
type httpError struct {
	status  int
	code    int64
	message string
	header  map[string]string
	data    any
}

// check checks everything that comes before reading the body.
func (b *Bridge) check(r *http.Request) (string, *httpError) {
	for _, name := range []string{"Origin", "Authorization", "Mcp-Protocol-Version", "Mcp-Method", "Mcp-Name"} {
		if len(r.Header.Values(name)) > 1 {
			return "", &httpError{status: 400, code: -32020, message: "HeaderMismatch: duplicate routing or authentication header"}
		}
	}
	port := strconv.Itoa(b.port)
	if r.Host != "127.0.0.1:"+port && r.Host != "localhost:"+port {
		// DNS rebinding: a name that resolved to loopback is not ours.
		return "", &httpError{status: 403, code: -32600, message: "Invalid Host"}
	}
	if origin := r.Header.Get("Origin"); origin != "" && (origin != "http://"+r.Host || r.Host != "127.0.0.1:"+port) {
		return "", &httpError{status: 403, code: -32600, message: "Invalid Origin"}
	}
	serverID, ok := parseServerRoute(strings.TrimPrefix(r.URL.Path, "/"))
	switch {
	case !ok:
		return "", &httpError{status: 404, code: -32601, message: "Unknown MCP route"}
	case !b.authorized(r.Header.Get("Authorization"), serverID):
		return "", &httpError{status: 401, code: -32600, message: "Unauthorized", header: map[string]string{"WWW-Authenticate": "Bearer"}}
	case r.Method != http.MethodPost:
		return "", &httpError{status: 405, code: -32600, message: "Only POST is supported", header: map[string]string{"Allow": "POST"}}
	case !acceptsJSONAndSSE(r.Header.Values("Accept")):
		return "", &httpError{status: 406, code: -32600, message: "Accept must include application/json and text/event-stream"}
	}
	media, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	if !strings.EqualFold(strings.TrimSpace(media), "application/json") {
		return "", &httpError{status: 415, code: -32600, message: "Expected application/json"}
	}
	return serverID, nil
}

// acceptsJSONAndSSE reports whether Accept admits both media types with a
// positive quality.
func acceptsJSONAndSSE(values []string) bool {
	var jsonOK, sseOK bool
	for _, item := range strings.Split(strings.Join(values, ","), ",") {
		media, params, _ := strings.Cut(item, ";")
		positive := true
		for _, p := range strings.Split(params, ";") {
			k, v, _ := strings.Cut(p, "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || q < 0 || q > 1 {
					return false
				}
				positive = q > 0
			}
		}
		switch media = strings.ToLower(strings.TrimSpace(media)); {
		case !positive:
		case media == "application/json":
			jsonOK = true
		case media == "text/event-stream":
			sseOK = true
		}
	}
	return jsonOK && sseOK
}

// admit counts a request in, or reports the limit.
func (b *Bridge) admit() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.active >= b.opts.MaxActiveRequests {
		return false
	}
	b.active++
	return true
}

func (b *Bridge) release() {
	b.mu.Lock()
	b.active--
	b.mu.Unlock()
}

// writeError answers with a JSON-RPC error and an HTTP status.
func writeError(w http.ResponseWriter, e *httpError, id json.RawMessage) {
	for k, v := range e.header {
		w.Header().Set(k, v)
	}
	body, _ := json.Marshal(jsonRPCError(id, e.code, e.message, e.data))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(e.status)
	_, _ = w.Write(body)
}

// jsonRPCError is an error response; a nil id is left out.
func jsonRPCError(id json.RawMessage, code int64, message string, data any) map[string]any {
	e := map[string]any{"code": code, "message": message}
	if data != nil {
		e["data"] = data
	}
	m := map[string]any{"jsonrpc": "2.0", "error": e}
	if id != nil {
		m["id"] = id
	}
	return m
}
