package acphttp

import (
	"net/http"
	"net/url"
	"path"
	"strings"
)

// originAllowed reports whether the browser page that opens a WebSocket
// with r, if any, may: a request without Origin, or from the request's own
// host, or from a host that matches one of Options.OriginPatterns (as
// path.Match matches, ignoring case; a pattern with "://" matches the
// scheme and host).
func (s *Server) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(r.Host, u.Host) {
		return true
	}
	for _, pattern := range s.origins {
		target := u.Host
		if strings.Contains(pattern, "://") {
			target = u.Scheme + "://" + u.Host
		}
		if ok, _ := path.Match(strings.ToLower(pattern), strings.ToLower(target)); ok {
			return true
		}
	}
	return false
}
