//go:build unstable_mcp_over_acp || unstable

package composition

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/internal/reexec"
)

func TestMain(m *testing.M) {
	reexec.Main(m, modeEnv, func(string) { playAgent() })
}

// endpoint is the agent of a cell, reached over one transport.
type endpoint struct {
	w io.Writer
	r io.Reader
	// end closes the client's end and the agent, and returns the agent's
	// spans once it has ended.
	end func() ([]span, error)
}

// TestMatrix runs every cell of {stdio, Streamable HTTP, WebSocket} ×
// {v1 client, v2 client}. Each cell runs three turns on one session: a
// cancel before the prompt (the turn then ends end_turn, having sent a
// plan, asked permission and called the client's tool), a cancel during
// the permission request and one during the tool call (both end
// cancelled). It checks the stop reasons, what the client saw, the trace
// (one root per turn, none on the agent's side), that no goroutine is
// left and, over stdio, that the agent process is reaped.
func TestMatrix(t *testing.T) {
	for _, transport := range []string{"stdio", "http", "ws"} {
		for _, version := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/v%d", transport, version), func(t *testing.T) {
				runCell(t, transport, version)
			})
		}
	}
}

func runCell(t *testing.T, transport string, version int) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	clientTel := newTelemetry("client")
	var ep *endpoint
	if transport == "stdio" {
		ep = startProcess(t)
	} else {
		ep = startServer(t, ctx, transport)
	}
	b := &behaviour{}
	b.arm("", func() {})
	start := startV1
	if version == 2 {
		start = startV2
	}
	s, err := start(ctx, ep.w, ep.r, clientTel.middleware(), b)
	if err != nil {
		ep.end()
		t.Fatal(err)
	}
	if err := s.cancelIdle(ctx); err != nil {
		t.Errorf("cancel before the prompt: %v", err)
	}
	turns := []struct {
		phase, stop string
		tool        bool // the tool was called
	}{
		{cancelBefore, "end_turn", true},
		{cancelPermission, "cancelled", false},
		{cancelTool, "cancelled", true},
	}
	for _, turn := range turns {
		phase := turn.phase
		if phase == cancelBefore {
			phase = "" // sent above, while no turn ran
		}
		stop, err := s.prompt(ctx, phase)
		if err != nil || stop != turn.stop {
			t.Errorf("cancel %s: stop reason %q, %v; want %q", turn.phase, stop, err, turn.stop)
		}
		if b.count("Plan") == 0 || b.count("permission") != 1 {
			t.Errorf("cancel %s: the client saw %s, want a plan and one permission request", turn.phase, b.saws())
		}
		if tool := b.count("tool") == 1; tool != turn.tool || turn.tool && b.count("ToolCall") == 0 {
			t.Errorf("cancel %s: the client saw %s, want the tool called: %v, and its tool call reported", turn.phase, b.saws(), turn.tool)
		}
		if turn.phase == cancelTool && !b.stopped() {
			t.Errorf("cancel %s: the tool's context did not end: the cancel did not reach the MCP call", turn.phase)
		}
	}
	s.close()
	agentSpans, err := ep.end()
	if err != nil {
		t.Error(err)
	}
	checkGoroutines(t, before)
	// The trace: one root per turn. This fails while the updates, the
	// permission request and the runner's own state updates of a
	// TurnRunner turn are root spans, the turn's context not carrying the
	// prompt's span; it passes once turns keep the prompt's context.
	if err := checkTrace(append(clientTel.spans(), agentSpans...), len(turns)); err != nil {
		t.Error(err)
	}
}

// startProcess starts the agent as a process (this test binary in the
// agent's mode) with the client on its standard input and output.
func startProcess(t *testing.T) *endpoint {
	spansFile := filepath.Join(t.TempDir(), "spans.json")
	cmd := reexec.Command(t, modeEnv, "agent")
	cmd.Env = append(cmd.Env, spansEnv+"="+spansFile)
	cmd.Stderr = os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &endpoint{w: w, r: r, end: func() ([]span, error) {
		w.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				return nil, fmt.Errorf("the agent process: %v", err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			return nil, errors.New("the agent process did not exit once its input ended")
		}
		// Reaped: no process of that id is left, not even a zombie.
		if err := syscall.Kill(cmd.Process.Pid, 0); !errors.Is(err, syscall.ESRCH) {
			return nil, fmt.Errorf("the agent process %d is still there after Wait: %v", cmd.Process.Pid, err)
		}
		data, err := os.ReadFile(spansFile)
		if err != nil {
			return nil, fmt.Errorf("the agent's spans: %v", err)
		}
		var spans []span
		return spans, json.Unmarshal(data, &spans)
	}}
}

// startServer serves the agent's router with acphttp on a loopback
// server and dials it over profile (http: Streamable HTTP, ws: WebSocket).
func startServer(t *testing.T, ctx context.Context, profile string) *endpoint {
	agentTel := newTelemetry("agent")
	router, err := newRouter(agentTel.middleware())
	if err != nil {
		t.Fatal(err)
	}
	acp := acphttp.NewServer(func(_ *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		return router.Start(out, in), nil
	}, nil)
	hs := httptest.NewServer(acp)
	httpClient := &http.Client{Transport: &http.Transport{}}
	url := profile + strings.TrimPrefix(hs.URL, "http") + "/acp"
	tr, err := acphttp.Dial(ctx, url, &acphttp.ClientOptions{HTTPClient: httpClient})
	if err != nil {
		hs.Close()
		t.Fatal(err)
	}
	return &endpoint{w: tr, r: tr, end: func() ([]span, error) {
		tr.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := acp.Shutdown(sctx)
		hs.Close()
		httpClient.CloseIdleConnections()
		if err != nil {
			return nil, fmt.Errorf("Shutdown: %v", err)
		}
		return agentTel.spans(), nil
	}}
}

// checkGoroutines fails t when more goroutines run than before, once they
// have had 5 s to end.
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines left, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}
