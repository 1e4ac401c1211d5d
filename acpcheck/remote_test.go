package acpcheck

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/coder/websocket"
)

// doneConn is the acphttp.Conn of a fake agent served over the network.
type doneConn chan struct{}

func (c doneConn) Done() <-chan struct{} { return c }

// serveFake serves the fake agent with acphttp behind wrap (nil: none)
// and returns the endpoint's URL.
func serveFake(t *testing.T, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	return serveFakeOptions(t, wrap, &acphttp.Options{})
}

// serveFakeOptions is serveFake with the server's options.
func serveFakeOptions(t *testing.T, wrap func(http.Handler) http.Handler, opts *acphttp.Options) string {
	t.Helper()
	url, _ := serveFakeServer(t, wrap, opts)
	return url
}

// serveFakeServer is serveFakeOptions that returns the server too.
func serveFakeServer(t *testing.T, wrap func(http.Handler) http.Handler, opts *acphttp.Options) (string, *acphttp.Server) {
	t.Helper()
	opts.ErrorLog = log.New(io.Discard, "", 0)
	s := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		c := make(doneConn)
		go func() {
			defer close(c)
			runFakeAgent("", in, out)
		}()
		return c, nil
	}, opts)
	var h http.Handler = s
	if wrap != nil {
		h = wrap(s)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.Shutdown(ctx)
		ts.Close()
	})
	return ts.URL + "/acp", s
}

// TestAgentOverNetwork: the fake agent served by acphttp passes every MUST
// over Streamable HTTP and over WebSocket.
func TestAgentOverNetwork(t *testing.T) {
	endpoint := serveFake(t, nil)
	for _, u := range []string{endpoint, "ws" + strings.TrimPrefix(endpoint, "http")} {
		r := CheckAgent(context.Background(), &URLTarget{URL: u}, AgentOptions{Timeout: 2 * time.Second})
		if !r.OK() || len(r.Failed()) > 0 {
			t.Errorf("%s:\n%s", u, r.Text())
		}
		if vs := r.Find(AgentPromptV2RunningIdle); len(vs) != 1 || vs[0].Status != Pass {
			t.Errorf("%s: the v2 turn was not judged: %+v", u, vs)
		}
	}
}

// TestRemoteAcphttp: acphttp's server holds every MUST of the transport.
func TestRemoteAcphttp(t *testing.T) {
	r := CheckRemote(context.Background(), serveFake(t, nil), RemoteOptions{Timeout: 2 * time.Second})
	if !r.OK() {
		t.Fatal(r.Text())
	}
	for _, id := range []ID{RemoteHTTPSSE, RemoteHTTPDelete, RemoteWSUpgrade, RemoteWSSubprotocol, RemoteHTTPBodyLimit, RemoteHTTPBatch,
		RemoteLocalHost, RemoteLocalOrigin} {
		if vs := r.Find(id); len(vs) != 1 || vs[0].Status != Pass {
			t.Errorf("%s: %+v", id, vs)
		}
	}
}

// TestPlantedRemoteFaults: a server that breaks one rule of the transport
// fails that rule.
func TestPlantedRemoteFaults(t *testing.T) {
	cases := []struct {
		name string
		req  ID
		wrap func(http.Handler) http.Handler
	}{
		{"no connection id", RemoteHTTPInitialize, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.ServeHTTP(stripHeader{w, "Acp-Connection-Id"}, r)
			})
		}},
		{"PUT accepted", RemoteHTTPMethod, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPut {
					w.WriteHeader(http.StatusOK)
					return
				}
				h.ServeHTTP(w, r)
			})
		}},
		{"any content type", RemoteHTTPContentType, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				r.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(w, r)
			})
		}},
		{"DELETE ignored", RemoteHTTPDelete, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodDelete {
					w.WriteHeader(http.StatusAccepted)
					return
				}
				h.ServeHTTP(w, r)
			})
		}},
		{"unknown connection 400", RemoteHTTPUnknownConnection, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.Header.Get("Acp-Connection-Id"), "acpcheck-no-such") {
					w.WriteHeader(http.StatusBadRequest)
					return
				}
				h.ServeHTTP(w, r)
			})
		}},
		{"no WebSocket", RemoteWSUpgrade, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Upgrade") != "" {
					w.WriteHeader(http.StatusBadRequest)
					return
				}
				h.ServeHTTP(w, r)
			})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := CheckRemote(context.Background(), serveFake(t, tc.wrap), RemoteOptions{Timeout: 2 * time.Second, NoBodyLimit: true, NoSlowReader: true})
			failed := false
			for _, v := range r.Find(tc.req) {
				failed = failed || v.Status == Fail
			}
			if !failed || r.OK() {
				t.Errorf("%s not failed, or the run OK:\n%s", tc.req, r.Text())
			}
		})
	}
}

// stripHeader drops one header from a response.
type stripHeader struct {
	http.ResponseWriter
	name string
}

func (s stripHeader) WriteHeader(code int) {
	s.ResponseWriter.Header().Del(s.name)
	s.ResponseWriter.WriteHeader(code)
}

func (s stripHeader) Write(b []byte) (int, error) {
	s.ResponseWriter.Header().Del(s.name)
	return s.ResponseWriter.Write(b)
}

// TestRemoteLoopbackUnprotected: a loopback server with acphttp's Host and
// Origin checks turned off fails the two SHOULDs, and only those.
func TestRemoteLoopbackUnprotected(t *testing.T) {
	url := serveFakeOptions(t, nil, &acphttp.Options{DisableHostCheck: true, DisableOriginCheck: true})
	r := CheckRemote(context.Background(), url, RemoteOptions{Timeout: 2 * time.Second, NoBodyLimit: true, NoSlowReader: true})
	for _, id := range []ID{RemoteLocalHost, RemoteLocalOrigin} {
		if vs := r.Find(id); len(vs) != 1 || vs[0].Status != Fail {
			t.Errorf("%s: %+v", id, vs)
		}
	}
	if !r.OK() {
		t.Errorf("a SHOULD failed the run:\n%s", r.Text())
	}
}

// TestPlantedSubprotocol: a server that selects the subprotocol the kit
// offers, which no transport defines, fails remote.ws.subprotocol.
func TestPlantedSubprotocol(t *testing.T) {
	wrap := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Upgrade") == "" {
				h.ServeHTTP(w, r)
				return
			}
			c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{offeredSubprotocol}})
			if err != nil {
				return
			}
			c.Close(websocket.StatusNormalClosure, "")
		})
	}
	r := CheckRemote(context.Background(), serveFake(t, wrap), RemoteOptions{Timeout: 2 * time.Second, NoBodyLimit: true, NoSlowReader: true})
	if vs := r.Find(RemoteWSSubprotocol); len(vs) != 1 || vs[0].Status != Fail {
		t.Errorf("remote.ws.subprotocol: %+v\n%s", vs, r.Text())
	}
}

// TestRemoteResumable: acphttp's server with resumable streams passes the
// remote.resume checks; without them, they are not applicable.
func TestRemoteResumable(t *testing.T) {
	r := CheckRemote(context.Background(), serveFakeOptions(t, nil, &acphttp.Options{Resumable: &acphttp.Resumable{KeepAlive: 200 * time.Millisecond}}),
		RemoteOptions{Timeout: 2 * time.Second, KeepAlive: 200 * time.Millisecond})
	if !r.OK() {
		t.Fatal(r.Text())
	}
	for _, id := range append([]ID{RemoteResumeAdvertised}, resumeRequirements...) {
		if vs := r.Find(id); len(vs) != 1 || vs[0].Status != Pass {
			t.Errorf("%s: %+v", id, vs)
		}
	}
	plain := CheckRemote(context.Background(), serveFake(t, nil), RemoteOptions{Timeout: 2 * time.Second})
	for _, id := range resumeRequirements {
		if vs := plain.Find(id); len(vs) != 1 || vs[0].Status != NotApplicable {
			t.Errorf("not advertised, %s: %+v", id, vs)
		}
	}
}

// TestPlantedResumeFaults: a resumable server that ignores Last-Event-ID
// (a live stream, whatever the cursor) fails the replay and the refusal
// of an unknown cursor.
func TestPlantedResumeFaults(t *testing.T) {
	ignore := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Header.Del("Last-Event-ID")
			h.ServeHTTP(w, r)
		})
	}
	r := CheckRemote(context.Background(), serveFakeOptions(t, ignore, &acphttp.Options{Resumable: &acphttp.Resumable{}}), RemoteOptions{Timeout: time.Second, NoKeepAlive: true})
	for _, id := range []ID{RemoteResumeReplay, RemoteResumeUnknownCursor} {
		if vs := r.Find(id); len(vs) != 1 || vs[0].Status != Fail {
			t.Errorf("%s: %+v", id, vs)
		}
	}
}

// noComments is a ResponseWriter that drops the SSE comments written to
// it: a server without keep-alives. It has no Unwrap, so that acphttp
// cannot take the connection over from under it, and writes its streams
// through it.
type noComments struct{ http.ResponseWriter }

func (w noComments) Write(b []byte) (int, error) {
	if bytes.HasPrefix(b, []byte(":")) {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

func (w noComments) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

// TestPlantedNoKeepAlive: a resumable server whose idle streams send no
// keep-alive fails remote.resume.keepalive, after twice the interval, and
// passes the other resume checks.
func TestPlantedNoKeepAlive(t *testing.T) {
	silent := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(noComments{w}, r) })
	}
	url := serveFakeOptions(t, silent, &acphttp.Options{Resumable: &acphttp.Resumable{KeepAlive: 100 * time.Millisecond}})
	r := CheckRemote(context.Background(), url, RemoteOptions{Timeout: time.Second, KeepAlive: 100 * time.Millisecond, NoBodyLimit: true, NoSlowReader: true})
	if vs := r.Find(RemoteResumeKeepAlive); len(vs) != 1 || vs[0].Status != Fail || !strings.Contains(vs[0].Detail, "200ms") {
		t.Errorf("%s: %+v", RemoteResumeKeepAlive, vs)
	}
	for _, id := range []ID{RemoteResumeCursors, RemoteResumeReplay, RemoteResumeUnknownCursor} {
		if vs := r.Find(id); len(vs) != 1 || vs[0].Status != Pass {
			t.Errorf("%s: %+v", id, vs)
		}
	}
}
