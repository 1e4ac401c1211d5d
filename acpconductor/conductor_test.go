package acpconductor

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

func TestMain(m *testing.M) {
	if helperMain() {
		return
	}
	// A helper built with -race sleeps a second at exit unless told not to.
	os.Setenv("GORACE", "atexit_sleep_ms=0")
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// bin returns the path of a program of the module (examples/agent,
// examples/client, cmd/acpconductor), built once for the tests.
func bin(t *testing.T, name string) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "acpconductor-test")
		if binErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", binDir+string(filepath.Separator),
			"../examples/agent", "../examples/client", "../cmd/acpconductor").CombinedOutput()
		if err != nil {
			binErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return filepath.Join(binDir, name)
}

// quote quotes s for Split.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// helper is the command line of a component the test binary plays.
func helper(t testing.TB, args ...string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	line := quote(exe) + " " + helperArg
	for _, a := range args {
		line += " " + quote(a)
	}
	return line
}

// goProxy is a proxy on raw JSON-RPC in Go; nodeProxy the same in
// JavaScript; nested a conductor in proxy mode running its own chain.
func goProxy(t testing.TB, inject string) string { return helper(t, "proxy", inject) }

func nodeProxy(t testing.TB, inject string) string {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	return quote(node) + " testdata/proxy.mjs " + quote(inject)
}

func nested(t testing.TB, components ...string) string {
	return helper(t, append([]string{"conductor", "proxy"}, components...)...)
}

// chainCase is a chain of proxies in front of examples/agent, and the
// text blocks the agent gets (and echoes) for a prompt "hi".
type chainCase struct {
	name    string
	proxies func(t *testing.T) []string
	want    []string
}

// chainCases are the chains every client runs through.
var chainCases = []chainCase{
	{"no proxy", func(t *testing.T) []string { return nil }, []string{"hi"}},
	{"go proxy", func(t *testing.T) []string { return []string{goProxy(t, "[a]")} }, []string{"[a]", "hi"}},
	{"two go proxies", func(t *testing.T) []string { return []string{goProxy(t, "[a]"), goProxy(t, "[b]")} },
		[]string{"[b]", "[a]", "hi"}},
	{"go proxy without flag", func(t *testing.T) []string { return []string{goProxy(t, "")} }, []string{"hi"}},
	{"node proxy", func(t *testing.T) []string { return []string{nodeProxy(t, "[n]")} }, []string{"[n]", "hi"}},
	{"go then node", func(t *testing.T) []string { return []string{goProxy(t, "[a]"), nodeProxy(t, "[n]")} },
		[]string{"[n]", "[a]", "hi"}},
	{"nested", func(t *testing.T) []string {
		return []string{goProxy(t, "[a]"), nested(t, goProxy(t, "[b]"), goProxy(t, "[c]")), goProxy(t, "[d]")}
	}, []string{"[d]", "[c]", "[b]", "[a]", "hi"}},
}

// runChain runs the chain in the test's process, its peer the returned
// pipes; done is closed when Run returns, and *runErr is what it returned.
func runChain(t *testing.T, components []string, opts *Options) (w io.WriteCloser, r io.Reader, done <-chan struct{}, runErr *error) {
	t.Helper()
	var cmds [][]string
	for _, c := range components {
		words, err := Split(c)
		if err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, words)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ended := make(chan struct{})
	var err error
	go func() {
		defer close(ended)
		err = Run(context.Background(), cmds, inR, outW, opts)
		outW.CloseWithError(io.EOF)
	}()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		<-ended
	})
	return inW, outR, ended, &err
}

// v1Client prints the agent's text chunks and allows every permission.
type v1Client struct {
	mu     sync.Mutex
	chunks []string
}

func (c *v1Client) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected("allow")), nil
}

func (c *v1Client) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	if u, ok := n.Update.Value.(*acpv1.SessionUpdateAgentMessageChunk); ok {
		if t, ok := u.Content.Value.(*acpv1.ContentBlockText); ok {
			c.mu.Lock()
			c.chunks = append(c.chunks, t.Text)
			c.mu.Unlock()
		}
	}
	return nil
}

// v2Client is v1Client for v2; idle gets the stop reason of a turn.
type v2Client struct {
	mu     sync.Mutex
	chunks []string
	idle   chan string
}

func (c *v2Client) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeSelected("allow")), nil
}

func (c *v2Client) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	switch u := n.Update.Value.(type) {
	case *acpv2.SessionUpdateAgentMessageChunk:
		if t, ok := u.Content.Value.(*acpv2.ContentBlockText); ok {
			c.mu.Lock()
			c.chunks = append(c.chunks, t.Text)
			c.mu.Unlock()
		}
	case *acpv2.SessionUpdateStateUpdate:
		if idle, ok := u.Value.(*acpv2.StateUpdateIdle); ok {
			c.idle <- idle.StopReason()
		}
	}
	return nil
}

func withAgent(t *testing.T, c chainCase) []string {
	return append(c.proxies(t), quote(bin(t, "agent")))
}

func wantChunks(c chainCase) []string {
	return append(append([]string(nil), c.want...), "permission: allow")
}

// TestChainV1 and TestChainV2: a prompt goes through each chain, every
// proxy's block before the ones of the proxies in front of it, and the
// agent's answer comes back.
func TestChainV1(t *testing.T) {
	for _, c := range chainCases {
		t.Run(c.name, func(t *testing.T) {
			w, r, _, _ := runChain(t, withAgent(t, c), nil)
			cl := &v1Client{}
			conn := acpv1.NewClientSideConnection(cl, w, r)
			defer conn.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
				t.Fatal("initialize:", err)
			}
			s, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest(t.TempDir(), []acpv1.MCPServer{}))
			if err != nil {
				t.Fatal("session/new:", err)
			}
			resp, err := conn.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")}))
			if err != nil {
				t.Fatal("session/prompt:", err)
			}
			if resp.StopReason != acpv1.StopReasonEndTurn {
				t.Errorf("stop reason %q", resp.StopReason)
			}
			cl.mu.Lock()
			defer cl.mu.Unlock()
			if got, want := strings.Join(cl.chunks, "|"), strings.Join(wantChunks(c), "|"); got != want {
				t.Errorf("the agent said %q, want %q", got, want)
			}
		})
	}
}

func TestChainV2(t *testing.T) {
	for _, c := range chainCases {
		t.Run(c.name, func(t *testing.T) {
			w, r, _, _ := runChain(t, withAgent(t, c), nil)
			cl := &v2Client{idle: make(chan string, 1)}
			conn := acpv2.NewClientSideConnection(cl, w, r)
			defer conn.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := conn.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "test", Version: "1"})); err != nil {
				t.Fatal("initialize:", err)
			}
			s, err := conn.NewSession(ctx, acpv2.NewNewSessionRequest(acpv2.AbsolutePath(t.TempDir())))
			if err != nil {
				t.Fatal("session/new:", err)
			}
			if _, err := conn.Prompt(ctx, acpv2.NewPromptRequest(s.SessionID, []acpv2.ContentBlock{acpv2.NewContentBlockText("hi")})); err != nil {
				t.Fatal("session/prompt:", err)
			}
			select {
			case stop := <-cl.idle:
				if stop != "end_turn" {
					t.Errorf("stop reason %q", stop)
				}
			case <-ctx.Done():
				t.Fatal("no idle state update")
			}
			cl.mu.Lock()
			defer cl.mu.Unlock()
			if got, want := strings.Join(cl.chunks, "|"), strings.Join(wantChunks(c), "|"); got != want {
				t.Errorf("the agent said %q, want %q", got, want)
			}
		})
	}
}
