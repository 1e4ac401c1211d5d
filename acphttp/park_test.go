package acphttp_test

import (
	"bytes"
	"context"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// serverReaders counts the goroutines of the test process that read for
// an acphttp server: a WebSocket's reader (plain or resumable), the
// agent's reader, what waits for the client to close an SSE stream, and
// an SSE stream served by net/http; and the poller's goroutine.
func serverReaders(t *testing.T) (readers, pollers int) {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 2); err != nil {
		t.Fatal(err)
	}
	for _, g := range strings.Split(buf.String(), "\n\n") {
		switch {
		case strings.Contains(g, "acphttp.(*poller).run"):
			pollers++
		case strings.Contains(g, "acphttp.(*wsSocket).Read"),
			strings.Contains(g, "acphttp.(*inbox).Read"),
			strings.Contains(g, "acphttp.(*sockStream).watch"),
			strings.Contains(g, "acphttp.(*rsock).read"),
			strings.Contains(g, "acphttp.(*conn).streamAs"):
			readers++
		}
	}
	return readers, pollers
}

// TestIdleConnectionsPark checks that idle connections hold no reading
// goroutine over either profile, with resumable streams or without: their
// readers park, one poller goroutine waits for them all, each wakes when
// its client sends, and the poller ends with the last socket.
func TestIdleConnectionsPark(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("readers park on Linux only, where acphttp waits in epoll")
	}
	const clients = 8
	for _, profile := range []string{"ws", "http", "ws-resumable", "http-resumable"} {
		t.Run(profile, func(t *testing.T) {
			var opts *acphttp.Options
			if p, ok := strings.CutSuffix(profile, "-resumable"); ok {
				profile, opts = p, &acphttp.Options{Resumable: &acphttp.Resumable{}}
			}
			s, url := serve(t, opts)
			url = profileURL(url, profile)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			conns := make([]*acpv1.ClientSideConnection, clients)
			transports := make([]*acphttp.Transport, clients)
			for i := range conns {
				tr, err := acphttp.Dial(ctx, url, nil)
				if err != nil {
					t.Fatal(err)
				}
				transports[i] = tr
				conns[i] = acpv1.NewClientSideConnection(&recorder{}, tr, tr)
				promptOnce(t, ctx, conns[i])
			}
			idle := func() bool {
				readers, pollers := serverReaders(t)
				return readers == 0 && pollers == 1
			}
			waitFor(t, idle)
			for _, conn := range conns {
				// Each reader wakes for the client's message, and parks again.
				if _, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{})); err != nil {
					t.Fatal(err)
				}
			}
			waitFor(t, idle)
			for _, tr := range transports {
				if err := tr.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			}
			waitFor(t, func() bool {
				readers, pollers := serverReaders(t)
				return s.Connections() == 0 && readers == 0 && pollers == 0
			})
		})
	}
}

// TestShutdownParked checks that Shutdown ends WebSockets whose readers
// are parked at once, each with its close frame answered: it does not
// wait for the close handshake's time limit.
func TestShutdownParked(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("readers park on Linux only, where acphttp waits in epoll")
	}
	s, url := serve(t, nil)
	url = profileURL(url, "ws")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var conns []*acpv1.ClientSideConnection
	for range 4 {
		tr, err := acphttp.Dial(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		conn := acpv1.NewClientSideConnection(&recorder{}, tr, tr)
		promptOnce(t, ctx, conn)
		conns = append(conns, conn)
	}
	waitFor(t, func() bool {
		readers, _ := serverReaders(t)
		return readers == 0
	})
	start := time.Now()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 900*time.Millisecond {
		t.Errorf("Shutdown took %v", d)
	}
	for _, conn := range conns {
		select {
		case <-conn.Done():
		case <-ctx.Done():
			t.Fatal("a client's connection did not end")
		}
		if err := conn.Err(); !strings.Contains(err.Error(), "Server shutting down") {
			t.Errorf("the client's connection ended with %v", err)
		}
	}
	if _, pollers := serverReaders(t); pollers != 0 {
		t.Errorf("%d poller goroutines after Shutdown", pollers)
	}
}
