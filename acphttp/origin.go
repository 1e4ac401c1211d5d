package acphttp

import (
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
)

// The texts of the 403 that refuses a request the browser protections
// stop: they say what was refused, and reflect nothing of the request.
const (
	refusedHost   = "Host not allowed: this server answers requests for loopback names and its allowed hosts only"
	refusedOrigin = "Origin not allowed: this server does not accept requests from the web page that sent this one"
	refusedSite   = "Cross-site request refused: the browser says that another site sent it (Sec-Fetch-Site)"
)

// guard holds the protections of a server against the web pages of a
// browser: see Options.AllowedHosts, OriginPatterns, DisableHostCheck and
// DisableOriginCheck.
type guard struct {
	hosts   []string // AllowedHosts, lower case
	origins []string // OriginPatterns, lower case
	noHost  bool
	noOrig  bool
	cop     *http.CrossOriginProtection
}

func newGuard(opts *Options) *guard {
	g := &guard{cop: http.NewCrossOriginProtection()}
	if opts == nil {
		return g
	}
	for _, h := range opts.AllowedHosts {
		g.hosts = append(g.hosts, strings.ToLower(h))
	}
	for _, o := range opts.OriginPatterns {
		g.origins = append(g.origins, strings.ToLower(o))
	}
	g.noHost, g.noOrig = opts.DisableHostCheck, opts.DisableOriginCheck
	return g
}

// refusal returns the text of the 403 that refuses r, or "" when r may
// go on: every request of either profile passes here before the server
// opens or touches a connection.
func (g *guard) refusal(r *http.Request) string {
	if !g.noHost && !g.hostAllowed(r) {
		return refusedHost
	}
	if g.noOrig {
		return ""
	}
	if r.Header.Get("Origin") == "" {
		// net/http's CrossOriginProtection adds this alone to the rule of
		// originAllowed: it refuses a POST or DELETE that a browser marks
		// in Sec-Fetch-Site as sent by another site. It is not asked when
		// there is an Origin, as it lets every GET through (the WebSocket
		// upgrade included) and trusts an Origin whose host is the Host,
		// which DNS rebinding forges.
		if g.cop.Check(r) != nil {
			return refusedSite
		}
		return ""
	}
	if !g.originAllowed(r) {
		return refusedOrigin
	}
	return ""
}

// hostAllowed reports whether the Host of r names this server: a request
// that arrived on a loopback address, or on any address once AllowedHosts
// is set, must name a loopback host (localhost, 127.0.0.0/8, ::1) or an
// allowed one. A web page that DNS rebinding has pointed at the server
// sends the Host of its own name.
func (g *guard) hostAllowed(r *http.Request) bool {
	if len(g.hosts) == 0 && !arrivedOnLoopback(r) {
		return true
	}
	name, _ := splitHost(r.Host)
	if isLoopbackName(name) {
		return true
	}
	host := strings.ToLower(r.Host)
	name = strings.ToLower(name)
	for _, p := range g.hosts {
		target := name
		if _, _, err := net.SplitHostPort(p); err == nil {
			target = host // a pattern with a port
		}
		if ok, _ := path.Match(p, target); ok {
			return true
		}
	}
	return false
}

// originAllowed reports whether the web page that sent r, if any, may: a
// request without Origin comes from a program that is not a browser (a
// browser sends Origin with every POST, every cross-origin request and
// every WebSocket), and one with Origin must come from a loopback page on
// the port the request was sent to, or from a page that OriginPatterns
// allows. An Origin equal to the Host is not enough: DNS rebinding makes
// both the attacker's name.
func (g *guard) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false // "null" included: the opaque origin of a sandboxed page or a file
	}
	web := u.Scheme == "http" || u.Scheme == "https"
	if web && isLoopbackName(u.Hostname()) && originPort(u) == requestPort(r, u.Scheme) {
		return true
	}
	host := strings.ToLower(u.Host)
	for _, p := range g.origins {
		target := host
		if strings.Contains(p, "://") {
			target = strings.ToLower(u.Scheme) + "://" + host
		}
		if ok, _ := path.Match(p, target); ok {
			return true
		}
	}
	return false
}

// arrivedOnLoopback reports whether r arrived on a loopback address of
// the machine, as the http.Server that serves it records.
func arrivedOnLoopback(r *http.Request) bool {
	addr, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if addr == nil {
		return false
	}
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return tcp.IP.IsLoopback()
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// isLoopbackName reports whether name, a host without its port (an IPv6
// address with or without its brackets), is localhost or a loopback
// address.
func isLoopbackName(name string) bool {
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// splitHost returns the name and port of a Host header, port "" when it
// has none.
func splitHost(host string) (name, port string) {
	if n, p, err := net.SplitHostPort(host); err == nil {
		return n, p
	}
	return host, ""
}

// originPort returns the port of an origin, its scheme's when it names
// none.
func originPort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	return defaultPort(u.Scheme)
}

// requestPort returns the port r was sent to, as its Host says, or the
// default port of scheme, the origin's, when the Host names none (as a
// browser leaves out the default port of the page's scheme).
func requestPort(r *http.Request, scheme string) string {
	if _, p := splitHost(r.Host); p != "" {
		return p
	}
	return defaultPort(scheme)
}

func defaultPort(scheme string) string {
	if strings.EqualFold(scheme, "https") {
		return "443"
	}
	return "80"
}
