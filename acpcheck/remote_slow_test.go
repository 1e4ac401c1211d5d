package acpcheck

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
)

// wantStatus fails t unless each of ids has one verdict, of status want.
func wantStatus(t *testing.T, r *Report, want Status, ids ...ID) {
	t.Helper()
	for _, id := range ids {
		if vs := r.Find(id); len(vs) != 1 || vs[0].Status != want {
			t.Errorf("%s: %+v, want %s", id, vs, want)
		}
	}
}

// TestRemoteSlowReaderAndShutdown: acphttp's server goes on serving new
// connections while one stream is stalled, in both profiles, and its
// Shutdown ends SSE streams, closes WebSockets with a close frame and
// refuses new connections.
func TestRemoteSlowReaderAndShutdown(t *testing.T) {
	url, s := serveFakeServer(t, nil, &acphttp.Options{})
	r := CheckRemote(context.Background(), url, RemoteOptions{Timeout: 2 * time.Second, NoBodyLimit: true, Shutdown: s.Shutdown})
	wantStatus(t, r, Pass, RemoteHTTPSlowReader, RemoteWSSlowReader,
		RemoteShutdownSSE, RemoteShutdownWS, RemoteShutdownRefuse)
	if !r.OK() || len(r.Failed()) > 0 {
		t.Error(r.Text())
	}
	for _, v := range append(r.Find(RemoteHTTPSlowReader), append(r.Find(RemoteWSSlowReader), r.Find(RemoteShutdownWS)...)...) {
		t.Logf("%s: %s", v.ID, v.Detail)
	}
}

// TestRemoteShutdownWithoutHook: without a shutdown hook, as from the
// command line, the shutdown checks are not exercised, and say why.
func TestRemoteShutdownWithoutHook(t *testing.T) {
	r := CheckRemote(context.Background(), serveFake(t, nil), RemoteOptions{Timeout: 2 * time.Second, NoBodyLimit: true, NoSlowReader: true})
	wantStatus(t, r, NotExercised, RemoteShutdownSSE, RemoteShutdownWS, RemoteShutdownRefuse)
	wantStatus(t, r, NotApplicable, RemoteHTTPSlowReader, RemoteWSSlowReader)
}

// TestPlantedSlowReaderFault: a server whose writes all go through one
// lock, which each request takes on arrival, stops serving everyone once
// one client stops reading: both slow-reader checks fail.
func TestPlantedSlowReaderFault(t *testing.T) {
	var mu sync.Mutex
	wrap := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			mu.Unlock() //nolint:staticcheck // waits for the writes in flight
			h.ServeHTTP(lockedWriter{w, &mu}, r)
		})
	}
	r := CheckRemote(context.Background(), serveFake(t, wrap), RemoteOptions{Timeout: 2 * time.Second, NoBodyLimit: true})
	wantStatus(t, r, Fail, RemoteHTTPSlowReader, RemoteWSSlowReader)
	for _, v := range append(r.Find(RemoteHTTPSlowReader), r.Find(RemoteWSSlowReader)...) {
		t.Logf("%s: %s", v.ID, v.Detail)
	}
	if !r.OK() {
		t.Errorf("a SHOULD failed the run:\n%s", r.Text())
	}
}

// lockedWriter is a response whose hijacked connection writes under mu,
// with a small send buffer.
type lockedWriter struct {
	http.ResponseWriter
	mu *sync.Mutex
}

func (w lockedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w lockedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		// A fixed, small send buffer: the writes wait after a few answers
		// however loaded the machine, rather than after megabytes.
		_ = tc.SetWriteBuffer(16 << 10)
	}
	return lockedConn{c, w.mu}, rw, nil
}

// lockedConn is a connection whose writes hold a lock.
type lockedConn struct {
	net.Conn
	mu *sync.Mutex
}

func (c lockedConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Conn.Write(b)
}

// TestPlantedShutdownFault: a shutdown hook that leaves the server as it
// was fails each shutdown check.
func TestPlantedShutdownFault(t *testing.T) {
	hook := func(ctx context.Context) error { return nil }
	r := CheckRemote(context.Background(), serveFake(t, nil), RemoteOptions{Timeout: 2 * time.Second, NoBodyLimit: true, NoSlowReader: true, Shutdown: hook})
	wantStatus(t, r, Fail, RemoteShutdownSSE, RemoteShutdownWS, RemoteShutdownRefuse)
}
