package acphttp

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Conn is the ACP connection that a ConnectFunc starts: the generated
// AgentSideConnection of any protocol version is one. The server ends a
// connection by ending the reader it reads from and, when the Conn also
// has a Close method (io.Closer), by calling it; it counts the connection
// gone once Done is closed.
type Conn interface {
	Done() <-chan struct{}
}

// ConnectFunc starts the ACP connection of a client over out (the agent's
// output) and in (the client's messages, one per line), as
//
//	func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
//		return acpv1.NewAgentSideConnection(&agent{}, out, in), nil
//	}
//
// does. r is the request that opens the connection (the initialize POST,
// or the WebSocket upgrade): its headers and cookies are there to
// authorize it, and its context ends with the connection, not with the
// request. An error refuses the connection: a *StatusError with its
// status and text, any other error with 500 and no detail.
type ConnectFunc func(r *http.Request, out io.Writer, in io.Reader) (Conn, error)

// StatusError is an error a ConnectFunc returns to refuse a connection
// with an HTTP status, such as 401 or 403, and a text for the client.
type StatusError struct {
	Code int
	Text string
}

func (e *StatusError) Error() string {
	return "acphttp: " + strconv.Itoa(e.Code) + " " + e.Text
}

// Options configures a Server.
type Options struct {
	// Limits bounds each connection; zero fields take their defaults.
	Limits Limits
	// ErrorLog receives what the server logs: connections closed for a
	// limit, and agent output that is not JSON-RPC. Nil means the log
	// package's standard logger.
	ErrorLog *log.Logger
	// MaxConnections bounds the open connections of the server: past it a
	// new one is refused with 503. Zero means no bound.
	MaxConnections int

	// OriginPatterns lists the web pages, besides the loopback ones, that
	// may send requests of either profile to the server. A pattern matches
	// the host of the request's Origin (host or host:port, as path.Match
	// matches, ignoring case: "app.example.com", "*.example.com:8443"); one
	// with "://" matches scheme and host ("https://app.example.com",
	// "vscode-webview://*").
	OriginPatterns []string
	// AllowedHosts lists the names, besides the loopback ones, that the
	// Host of a request may give: those of a server that is reached by
	// name, such as through a reverse proxy on the same machine that
	// passes the client's Host on. A pattern matches the host name, or,
	// when it has a port, host:port, as path.Match matches, ignoring case
	// ("agent.example.com", "*.internal", "acp.example.com:8443"). Once it
	// is set, the Host of every request is checked, whatever address the
	// request arrived on.
	AllowedHosts []string
	// DisableHostCheck turns the check of the Host off: for a server whose
	// clients reach it by names that cannot be listed in AllowedHosts, or
	// behind a reverse proxy that sets a Host of its own choosing, when
	// what is in front of the server already refuses the Hosts it does
	// not serve. Without the check, a loopback server is open to the web
	// pages DNS rebinding points at it, unless the Origin check or an
	// authorization in the ConnectFunc stops them.
	DisableHostCheck bool
	// DisableOriginCheck turns the check of the Origin off: for a server
	// whose requests all come through something (a reverse proxy, a
	// gateway) that checks the Origin itself, or that authorizes every
	// connection in its ConnectFunc with a credential that a browser does
	// not attach by itself, such as a bearer token (a cookie is not one).
	// A web page that the user has given such a credential, or that
	// OriginPatterns cannot describe, may then reach the server.
	DisableOriginCheck bool

	// Resumable, when set, makes the server's streams resumable, after
	// the draft RFD "Durable & Resumable HTTP/WS Transport": see
	// Resumable. Nil keeps the transport as the TypeScript SDK speaks it.
	Resumable *Resumable
}

// Server is the http.Handler of an ACP endpoint (conventionally /acp)
// that serves both profiles of ACP's remote transport on one path, as the
// TypeScript SDK's AcpServer does: Streamable HTTP (POST, GET with SSE,
// DELETE) and WebSocket (GET with Upgrade: websocket). Each client's
// connection runs an agent started by the ConnectFunc. It serves HTTP/1.1
// and HTTP/2, cleartext (h2c) included when the http.Server's Protocols
// allow it.
//
// The server refuses with 403, before it opens or touches a connection,
// the requests of either profile that a web page open in the user's
// browser could send it:
//
//   - a request that arrives on a loopback address with a Host that is
//     neither a loopback name (localhost, 127.0.0.1, [::1]) nor one of
//     Options.AllowedHosts: a page whose host name DNS rebinding has
//     pointed at 127.0.0.1 sends the Host of its own name;
//   - a request whose Origin is neither a loopback page on the port the
//     request was sent to (http://localhost:PORT, http://127.0.0.1:PORT,
//     http://[::1]:PORT) nor one Options.OriginPatterns allows. A request
//     without Origin is not a web page's (a browser sends Origin with
//     every POST, cross-origin request and WebSocket), and passes unless
//     the browser's Sec-Fetch-Site says another site sent it.
//
// Programs that are not browsers, acphttp's client and the TypeScript
// SDK's among them, send no Origin, and a loopback Host to a loopback
// server: the protections do not touch them. A server that other
// machines can reach needs authentication besides: its ConnectFunc
// checks a credential, such as a bearer token, and refuses with a
// StatusError.
type Server struct {
	connect ConnectFunc
	limits  Limits
	guard   *guard
	log     *log.Logger
	max     int
	resume  *Resumable // nil unless resumable

	mu       sync.Mutex
	conns    map[string]*conn
	shutdown bool
	wg       sync.WaitGroup
	poll     poller // wakes the parked readers of the WebSockets
}

// NewServer returns a Server whose connections connect starts; opts may
// be nil.
func NewServer(connect ConnectFunc, opts *Options) *Server {
	s := &Server{connect: connect, conns: map[string]*conn{}, guard: newGuard(opts)}
	s.poll.wg = &s.wg
	if opts != nil {
		s.limits = opts.Limits
		s.log = opts.ErrorLog
		s.max = opts.MaxConnections
		if opts.Resumable != nil {
			r := opts.Resumable.withDefaults()
			s.resume = &r
		}
	}
	s.limits = s.limits.withDefaults()
	return s
}

// Connections returns the number of open connections.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Shutdown closes every connection, refuses new ones, and returns once
// the goroutines of the connections have ended (their agents' connections,
// WebSockets, SSE streams and the POSTs in flight on them), or with ctx's
// error when ctx ends first.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.shutdown = true
	conns := make([]*conn, 0, len(s.conns))
	for _, c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.close(errShutdown)
	}
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// open starts a connection for the request r: it calls the ConnectFunc
// and registers the connection. It returns nil and writes the refusal
// when it cannot.
func (s *Server) open(w http.ResponseWriter, r *http.Request, ws bool) *conn {
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	c := &conn{
		s: s, id: newConnectionID(), ws: ws, limits: &s.limits,
		ctx: ctx, cancel: cancel,
		lastProgress: time.Now(),
	}
	if s.resume != nil {
		c.resumable(s.resume)
	} else if ws {
		c.sock = newWSSocket(c)
	} else {
		c.stopWrites, c.cancelWrite = context.WithCancel(context.Background())
		c.in = newInbox()
		c.in.onClose = c.finish
		c.initial = make(chan []byte, 1)
		c.sessions = map[string]*mailbox{}
	}
	s.mu.Lock()
	if s.shutdown || s.max > 0 && len(s.conns) >= s.max {
		text := "Too many connections"
		if s.shutdown {
			text = "Server shutting down"
		}
		s.mu.Unlock()
		cancel()
		if c.cancelWrite != nil {
			c.cancelWrite()
		}
		textResponse(w, http.StatusServiceUnavailable, text)
		return nil
	}
	s.conns[c.id] = c
	// What closes the agent once the connection ends (closeAgent).
	s.wg.Add(1)
	s.mu.Unlock()
	agent, err := s.callConnect(r.WithContext(ctx), c)
	if err != nil || agent == nil {
		if c.sock != nil {
			c.sock.start(nil, nil) // never upgraded
		}
		c.close(nil)
		s.wg.Done()
		var se *StatusError
		if errors.As(err, &se) {
			textResponse(w, se.Code, se.Text)
		} else {
			textResponse(w, http.StatusInternalServerError, "Internal Server Error")
		}
		return nil
	}
	c.mu.Lock()
	c.agent = agent
	if c.closed || c.finished {
		// Closed while the ConnectFunc ran.
		c.closeAgentLocked()
	}
	c.mu.Unlock()
	return c
}

// logf logs through the server's ErrorLog.
func (s *Server) logf(format string, args ...any) {
	if s.log != nil {
		s.log.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// callConnect calls the ConnectFunc for c, taking a panic for an error:
// its text stays in the server's log.
func (s *Server) callConnect(r *http.Request, c *conn) (agent Conn, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.logf("acphttp: the ConnectFunc panicked: %v\n%s", p, debug.Stack())
			agent, err = nil, errors.New("acphttp: the ConnectFunc panicked")
		}
	}()
	var in io.Reader = c.in
	if c.sock != nil {
		in = c.sock
	}
	return s.connect(r, c, in)
}

// forget removes c from the connections of s.
func (s *Server) forget(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conns[c.id] == c {
		delete(s.conns, c.id)
	}
}

// lookup returns the open Streamable HTTP connection with the id of r's
// Acp-Connection-Id, or writes 400 or 404 and returns nil. The request
// counts among the server's goroutines until it calls s.wg.Done, so that
// Shutdown waits for it.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request) *conn {
	id := r.Header.Get(HeaderConnectionID)
	if id == "" {
		textResponse(w, http.StatusBadRequest, "Missing Acp-Connection-Id")
		return nil
	}
	s.mu.Lock()
	c := s.conns[id]
	if c != nil && !c.ws && !s.shutdown {
		s.wg.Add(1)
	} else {
		c = nil
	}
	s.mu.Unlock()
	if c != nil && c.isClosed() {
		s.wg.Done()
		c = nil
	}
	if c == nil {
		textResponse(w, http.StatusNotFound, "Unknown Acp-Connection-Id")
	}
	return c
}

// ServeHTTP serves one request of either profile, after the protections
// of Options against web pages.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if text := s.guard.refusal(r); text != "" {
		textResponse(w, http.StatusForbidden, text)
		return
	}
	switch r.Method {
	case http.MethodPost:
		s.servePost(w, r)
	case http.MethodGet:
		if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			if s.resume != nil {
				s.serveResumableWS(w, r)
				return
			}
			s.serveWebSocket(w, r)
			return
		}
		if s.resume != nil {
			s.serveResumableGet(w, r)
			return
		}
		s.serveGet(w, r)
	case http.MethodDelete:
		s.serveDelete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		textResponse(w, http.StatusMethodNotAllowed, "Method Not Allowed")
	}
}

// serveDelete ends the connection of r.
func (s *Server) serveDelete(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(HeaderConnectionID)
	if id == "" {
		textResponse(w, http.StatusBadRequest, "Missing Acp-Connection-Id")
		return
	}
	s.mu.Lock()
	c := s.conns[id]
	s.mu.Unlock()
	if c == nil || c.ws {
		textResponse(w, http.StatusNotFound, "Unknown Acp-Connection-Id")
		return
	}
	c.close(nil)
	w.WriteHeader(http.StatusAccepted)
}

// textResponse answers with status and a text/plain body.
func textResponse(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, text)
}

// jsonResponse answers with status and a JSON body.
func jsonResponse(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", mimeJSON)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
