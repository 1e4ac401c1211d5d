package acprouter_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// TestStartServesAcphttp: with Start as the ConnectFunc, one acphttp
// server serves a v1 and a v2 client over each profile, each on its
// version, and Shutdown ends them all, a WebSocket that never sent
// initialize included, leaving no goroutine behind.
func TestStartServesAcphttp(t *testing.T) {
	before := runtime.NumGoroutine()
	router, err := acprouter.New(
		acprouter.NewRoute(1, func(w io.Writer, r io.Reader) *acpv1.AgentSideConnection {
			return acpv1.NewAgentSideConnection(agentV1{}, w, r)
		}, convert.InitializeForV1),
		acprouter.NewRoute(2, func(w io.Writer, r io.Reader) *acpv2.AgentSideConnection {
			return acpv2.NewAgentSideConnection(agentV2{}, w, r)
		}, convert.InitializeForV2))
	if err != nil {
		t.Fatal(err)
	}
	acp := acphttp.NewServer(func(_ *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		return router.Start(out, in), nil
	}, nil)
	hs := httptest.NewServer(acp)
	defer hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	var closers []io.Closer
	for _, scheme := range []string{"http", "ws"} {
		url := scheme + strings.TrimPrefix(hs.URL, "http") + "/acp"
		t1, err := acphttp.Dial(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		c1 := acpv1.NewClientSideConnection(nil, t1, t1)
		r1, err := c1.Initialize(ctx, acpv1.NewInitializeRequest(1))
		if err != nil || r1.ProtocolVersion != 1 {
			t.Fatalf("%s, v1 client: %v, %+v", scheme, err, r1)
		}
		t2, err := acphttp.Dial(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		c2 := acpv2.NewClientSideConnection(nil, t2, t2)
		r2, err := c2.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "editor", Version: "1"}))
		if err != nil || r2.ProtocolVersion != 2 || r2.Info.Name != "agent" {
			t.Fatalf("%s, v2 client: %v, %+v", scheme, err, r2)
		}
		closers = append(closers, c1, c2)
	}
	// A WebSocket whose client sends nothing: the router waits for its
	// initialize until Shutdown.
	idle, err := acphttp.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/acp", nil)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for acp.Connections() != 5 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := acp.Connections(); n != 5 {
		t.Fatalf("%d connections open, want 5", n)
	}
	start := time.Now()
	sctx, scancel := context.WithTimeout(ctx, 5*time.Second)
	defer scancel()
	if err := acp.Shutdown(sctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	t.Logf("Shutdown drained 5 connections in %v", time.Since(start))
	if n := acp.Connections(); n != 0 {
		t.Errorf("%d connections after Shutdown", n)
	}
	for _, c := range closers {
		c.Close()
	}
	idle.Close()
	hs.Close()
	http.DefaultClient.CloseIdleConnections()
	deadline = time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines left, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

// TestStartEndsBeforeInitialize: a Started whose input ends before
// initialize is done, with ErrNoInitialize and no connection.
func TestStartEndsBeforeInitialize(t *testing.T) {
	router, err := acprouter.New(acprouter.NewRoute(1, func(w io.Writer, r io.Reader) *acpv1.AgentSideConnection {
		return acpv1.NewAgentSideConnection(agentV1{}, w, r)
	}, convert.InitializeForV1))
	if err != nil {
		t.Fatal(err)
	}
	s := router.Start(io.Discard, strings.NewReader(`{"jsonrpc":"2.0","method":"x"}`+"\n"))
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("not done after the input ended")
	}
	if !errors.Is(s.Err(), acprouter.ErrNoInitialize) || s.Conn() != nil {
		t.Errorf("Err %v, Conn %v", s.Err(), s.Conn())
	}
}
