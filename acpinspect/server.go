package acpinspect

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed web
var webFiles embed.FS

// cookieName is the cookie that carries the token after the first visit.
const cookieName = "acpinspect_token"

// UIOptions tune a UI.
type UIOptions struct {
	// About says what is inspected (the agent's command, the file); the
	// page shows it.
	About string
	// Token is the secret of the page's URL; a random one when empty.
	Token string
	// ShowSecrets shows the values of the environment variables and
	// HTTP headers of the MCP servers a client hands an agent, which the
	// page masks otherwise. The export and captures always keep them.
	ShowSecrets bool
}

// A UI is the web page of an Inspector: an http.Handler that serves it to
// the holder of its token, on a loopback address. The first request
// carries the token in the URL (?token=…) and gets it back as a cookie;
// every request is refused with 403 unless its Host is a loopback name
// with the server's port and its Origin, when it has one, is the page's
// own, so that neither another page in the browser nor a DNS-rebound name
// can read the traffic.
type UI struct {
	in    *Inspector
	about string
	token string
	port  string // the port Host must name; any when empty
	show  bool   // secrets shown
	done  chan struct{}
	once  sync.Once
	mux   *http.ServeMux
}

// NewUI returns the UI of in.
func NewUI(in *Inspector, opts UIOptions) *UI {
	u := &UI{in: in, about: opts.About, token: opts.Token, show: opts.ShowSecrets, done: make(chan struct{}), mux: http.NewServeMux()}
	if u.token == "" {
		var b [16]byte
		rand.Read(b[:])
		u.token = hex.EncodeToString(b[:])
	}
	static, _ := fs.Sub(webFiles, "web")
	u.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	u.mux.HandleFunc("GET /{$}", u.index)
	u.mux.HandleFunc("GET /api/summary", u.summary)
	u.mux.HandleFunc("GET /api/messages", u.messages)
	u.mux.HandleFunc("GET /api/message", u.message)
	u.mux.HandleFunc("GET /api/sessions", jsonOf(in.Sessions))
	u.mux.HandleFunc("GET /api/stats", jsonOf(in.Stats))
	u.mux.HandleFunc("GET /api/findings", jsonOf(in.Findings))
	u.mux.HandleFunc("GET /api/console", jsonOf(in.Console))
	u.mux.HandleFunc("GET /api/events", u.events)
	u.mux.HandleFunc("GET /export.jsonl", u.export)
	return u
}

// Token returns the token of the page's URL.
func (u *UI) Token() string { return u.token }

// Close ends the live streams of open pages.
func (u *UI) Close() { u.once.Do(func() { close(u.done) }) }

// ServeHTTP checks the request's Host, Origin and token and serves it.
func (u *UI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if why := u.refusal(r); why != "" {
		http.Error(w, why, http.StatusForbidden)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if t := r.URL.Query().Get("token"); t != "" && r.URL.Path == "/" && u.valid(t) {
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: u.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	c, err := r.Cookie(cookieName)
	if err != nil || !u.valid(c.Value) {
		http.Error(w, "acpinspect: open the URL with the token that acpinspect printed", http.StatusUnauthorized)
		return
	}
	u.mux.ServeHTTP(w, r)
}

func (u *UI) valid(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(u.token)) == 1
}

// refusal says why r is refused, or "" to serve it.
func (u *UI) refusal(r *http.Request) string {
	host, port := splitHostPort(r.Host)
	if !isLoopbackName(host) || (u.port != "" && port != u.port) {
		return "acpinspect: refused: the Host is not this server's loopback address"
	}
	if o := r.Header.Get("Origin"); o != "" {
		ou, err := url.Parse(o)
		if err != nil || ou.Scheme != "http" || !strings.EqualFold(ou.Host, r.Host) {
			return "acpinspect: refused: a request from another page"
		}
	}
	if s := r.Header.Get("Sec-Fetch-Site"); s == "cross-site" {
		return "acpinspect: refused: a request from another site"
	}
	return ""
}

func splitHostPort(hostport string) (host, port string) {
	h, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return strings.Trim(hostport, "[]"), ""
	}
	return h, p
}

func isLoopbackName(name string) bool {
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

func (u *UI) index(w http.ResponseWriter, r *http.Request) {
	b, err := webFiles.ReadFile("web/index.html")
	if err != nil {
		http.Error(w, "acpinspect: the page is missing from this build", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b)
}

// Summary is the head of the page: what is inspected and the counts.
type Summary struct {
	About    string `json:"about"`
	Decoding string `json:"decoding"` // the schema of this build: stable or unstable
	Messages int    `json:"messages"`
	Findings int    `json:"findings"`
	Console  int    `json:"console"`
	// Dropped counts the lines that passed without being recorded, the
	// recorder having fallen too far behind (DroppedBytes their bytes).
	Dropped      int        `json:"dropped,omitempty"`
	DroppedBytes int        `json:"droppedBytes,omitempty"`
	Conns        []ConnInfo `json:"conns"`
}

func (u *UI) summary(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, u.makeSummary())
}

func (u *UI) makeSummary() Summary {
	in := u.in
	in.mu.RLock()
	s := Summary{About: u.about, Decoding: Decoding, Messages: in.entries.len(), Findings: len(in.findings), Console: len(in.console), Dropped: in.dropped, DroppedBytes: in.droppedBytes}
	in.mu.RUnlock()
	s.Conns = in.Conns()
	return s
}

// Page is one page of the message list.
type Page struct {
	Entries []Entry `json:"entries"`
	Total   int     `json:"total"`
	// More says whether entries past the page match, in the direction it
	// was asked for.
	More bool `json:"more"`
}

// maxPage bounds a page of the list.
const maxPage = 1000

func (u *UI) messages(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 || limit > maxPage {
		limit = 200
	}
	from, _ := strconv.ParseInt(q.Get("from"), 10, 64)
	before, _ := strconv.ParseInt(q.Get("before"), 10, 64)
	f := filter{problems: q.Get("only") == "problems", method: q.Get("method"), session: q.Get("session")}
	writeJSON(w, u.in.page(f, from, before, limit))
}

// filter selects entries of the list.
type filter struct {
	problems bool
	method   string
	session  string
}

func (f filter) match(e *Entry) bool {
	return (!f.problems || e.Verdict != "ok") &&
		(f.method == "" || strings.Contains(e.Method, f.method)) &&
		(f.session == "" || e.Session == f.session)
}

// page returns up to limit matching entries from seq from on, or, when
// before is set, the last ones before it.
func (in *Inspector) page(f filter, from, before int64, limit int) Page {
	in.mu.RLock()
	defer in.mu.RUnlock()
	p := Page{Entries: []Entry{}, Total: in.entries.len()}
	if before > 0 {
		for i := min(int(before-1), in.entries.len()) - 1; i >= 0; i-- {
			if f.match(in.entries.at(i)) {
				if len(p.Entries) == limit {
					p.More = true
					break
				}
				p.Entries = append(p.Entries, *in.entries.at(i))
			}
		}
		for i, j := 0, len(p.Entries)-1; i < j; i, j = i+1, j-1 {
			p.Entries[i], p.Entries[j] = p.Entries[j], p.Entries[i]
		}
		return p
	}
	for i := max(int(from-1), 0); i < in.entries.len(); i++ {
		if f.match(in.entries.at(i)) {
			if len(p.Entries) == limit {
				p.More = true
				break
			}
			p.Entries = append(p.Entries, *in.entries.at(i))
		}
	}
	return p
}

// Detail is one message whole.
type Detail struct {
	Entry    Entry     `json:"entry"`
	Text     string    `json:"text"` // the message, indented when it is JSON
	Findings []Finding `json:"findings"`
	// Masked says that secrets in Text were masked (UIOptions.ShowSecrets).
	Masked bool `json:"masked,omitempty"`
}

func (u *UI) message(w http.ResponseWriter, r *http.Request) {
	seq, _ := strconv.ParseInt(r.URL.Query().Get("seq"), 10, 64)
	e, f, ok := u.in.Entry(seq)
	if !ok {
		http.Error(w, "acpinspect: no message "+strconv.FormatInt(seq, 10), http.StatusNotFound)
		return
	}
	d := Detail{Entry: e, Text: string(f.Data), Findings: []Finding{}}
	if !u.show {
		if m, ok := maskSecrets(f.Data); ok {
			f.Data, d.Text, d.Masked = m, string(m), true
		}
	}
	if json.Valid(f.Data) {
		buf := new(bytes.Buffer)
		if json.Indent(buf, f.Data, "", "  ") == nil {
			d.Text = buf.String()
		}
	}

	all := u.in.Findings()
	for _, i := range e.Findings {
		d.Findings = append(d.Findings, all[i])
	}
	writeJSON(w, d)
}

// events streams, as server-sent events, the entries past the client's
// last one ("messages") and the new counts ("summary") as they come.
func (u *UI) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "acpinspect: streaming is not supported here", http.StatusInternalServerError)
		return
	}
	next, _ := strconv.ParseInt(r.URL.Query().Get("from"), 10, 64)
	next = max(next, 1)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	keepalive := time.NewTicker(15 * time.Second)
	defer keepalive.Stop()
	for {
		changed := u.in.Changed()
		for {
			es := u.in.Entries(next, 500)
			if len(es) == 0 {
				break
			}
			next = es[len(es)-1].Seq + 1
			if !sendEvent(w, "messages", es) {
				return
			}
		}
		if !sendEvent(w, "summary", u.makeSummary()) {
			return
		}
		fl.Flush()
		select {
		case <-changed:
			// Let a burst of messages gather into one event.
			select {
			case <-time.After(50 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		case <-keepalive.C:
			if _, err := fmt.Fprint(w, ": keepalive\n\n"); err != nil {
				return
			}
			fl.Flush()
		case <-r.Context().Done():
			return
		case <-u.done:
			return
		}
	}
}

func sendEvent(w http.ResponseWriter, name string, v any) bool {
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	return err == nil
}

func (u *UI) export(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/jsonl")
	w.Header().Set("Content-Disposition", `attachment; filename="acpinspect.jsonl"`)
	w.Write(u.in.AppendJSONL(nil))
}

func jsonOf[T any](get func() T) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { writeJSON(w, get()) }
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		http.Error(w, "acpinspect: "+err.Error(), http.StatusInternalServerError)
	}
}

// A UIServer serves a UI on a loopback address.
type UIServer struct {
	UI  *UI
	URL string // the page's address, with its token
	srv *http.Server
	ln  net.Listener
	err chan error
}

// ListenUI serves the UI of in at addr, which must be a loopback address
// ("127.0.0.1:0" picks a port).
func ListenUI(addr string, in *Inspector, opts UIOptions) (*UIServer, error) {
	host, _ := splitHostPort(addr)
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("acpinspect: the UI listens on loopback addresses only, not %q", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("acpinspect: UI: %w", err)
	}
	ui := NewUI(in, opts)
	_, ui.port = splitHostPort(ln.Addr().String())
	s := &UIServer{UI: ui, ln: ln, err: make(chan error, 1),
		URL: "http://" + ln.Addr().String() + "/?token=" + ui.token,
		srv: &http.Server{Handler: ui, ReadHeaderTimeout: 10 * time.Second}}
	go func() { s.err <- s.srv.Serve(ln) }()
	return s, nil
}

// Close ends the page's streams and the server.
func (s *UIServer) Close() error {
	s.UI.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if serr := <-s.err; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
