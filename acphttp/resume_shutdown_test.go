package acphttp_test

import (
	"context"
	"io"
	"log"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// TestResumeShutdown checks that Shutdown ends a resumable server's
// connections on both profiles, a turn waiting in one: the goroutines of
// its streams and sockets end, none waits for a client that is gone.
func TestResumeShutdown(t *testing.T) {
	for _, profile := range []string{"http", "ws"} {
		waiting := make(chan struct{}, 1)
		s := acphttp.NewServer(connectWaiting(waiting), &acphttp.Options{Resumable: &acphttp.Resumable{}, ErrorLog: log.New(io.Discard, "", 0)})
		ts := httptest.NewServer(s)
		ctx := context.Background()
		u := ts.URL
		if profile == "ws" {
			u = "ws" + u[4:]
		}
		tr, err := acphttp.Dial(ctx, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		conn := acpv1.NewClientSideConnection(&recorder{}, tr, tr)
		if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
			t.Fatal(err)
		}
		ss, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
		if err != nil {
			t.Fatal(err)
		}
		prompted := make(chan error, 1)
		go func() {
			_, err := conn.Prompt(ctx, acpv1.NewPromptRequest(ss.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("wait")}))
			prompted <- err
		}()
		<-waiting
		sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		start := time.Now()
		if err := s.Shutdown(sctx); err != nil {
			t.Errorf("%s: shutdown: %v after %v", profile, err, time.Since(start))
		}
		cancel()
		if err := <-prompted; err == nil {
			t.Errorf("%s: the turn went on past the shutdown", profile)
		}
		tr.Close()
		ts.Close()
	}
}
