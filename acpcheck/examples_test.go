package acpcheck

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// buildExample builds one of the module's example programs, or the
// acpcheck command ("acpcheck"), once per test binary.
func buildExample(t *testing.T, name string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds an example program")
	}
	built.mu.Lock()
	defer built.mu.Unlock()
	if p, ok := built.paths[name]; ok {
		return p
	}
	src := "../examples/" + name
	if name == "acpcheck" {
		src = "../cmd/acpcheck"
	}
	out := filepath.Join(builtDir, name)
	cmd := exec.Command("go", "build", "-o", out, src)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", src, err, b)
	}
	built.paths[name] = out
	return out
}

// built holds the programs buildExample built, in builtDir, which TestMain
// makes and removes.
var (
	builtDir string
	built    = struct {
		mu    sync.Mutex
		paths map[string]string
	}{paths: map[string]string{}}
)

// TestExampleAgent dogfoods the kit: acpgen's example agent holds every
// MUST over stdio in protocol v1 and v2, and the run stays under 10 s.
func TestExampleAgent(t *testing.T) {
	bin := buildExample(t, "agent")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := CheckAgent(ctx, Command(bin), AgentOptions{})
	if !r.OK() {
		for _, v := range r.Failed() {
			t.Logf("%s: %s\n%s", v.ID, v.Detail, transcriptText(v.Transcript))
		}
		t.Fatal(r.Text())
	}
	for _, id := range []ID{AgentCancelPermission, AgentPlanV1Fallback, AgentPlanV1Operations,
		AgentPromptV2RunningIdle, AgentPromptV2RequiresAction, AgentSessionV2Required, AgentPlanV2ID} {
		vs := r.Find(id)
		if len(vs) == 0 {
			t.Errorf("%s was not judged", id)
		}
		for _, v := range vs {
			if v.Status != Pass {
				t.Errorf("%s (v%d) was not exercised: %s %s", id, v.Version, v.Status, v.Detail)
			}
		}
	}
	if r.Duration > 10*time.Second {
		t.Errorf("the run took %v", r.Duration)
	}
}

// TestExampleClient dogfoods client mode: acpgen's example client, which
// speaks v1, launches the kit as its agent and holds every MUST.
func TestExampleClient(t *testing.T) {
	client := buildExample(t, "client")
	kit := buildExample(t, "acpcheck")
	report := filepath.Join(t.TempDir(), "report.json")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, client, "-prompt", "hello", "--", kit, "client", "-json", report, "-report", os.DevNull)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the client failed: %v\n%s", err, out)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		OK       bool
		Verdicts []Verdict
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if !r.OK {
		t.Fatalf("a MUST failed:\n%s", data)
	}
	passed := map[ID]bool{}
	for _, v := range r.Verdicts {
		passed[v.ID] = passed[v.ID] || v.Status == Pass
	}
	for _, id := range []ID{ClientPermissionAnswer, ClientUpdatesUnknownV1, ClientRPCMethodNotFound, ClientSchemaValid} {
		if !passed[id] {
			t.Errorf("%s did not pass:\n%s", id, data)
		}
	}
}

// TestExampleClientRemote: acpgen's example client, connecting over
// Streamable HTTP and over WebSocket, holds every MUST.
func TestExampleClientRemote(t *testing.T) {
	client := buildExample(t, "client")
	for _, scheme := range []string{"http", "ws"} {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		reports := make(chan *Report, 1)
		go func() { reports <- ListenClient(ctx, l, ClientOptions{Timeout: 2 * time.Second}) }()
		out, err := exec.CommandContext(ctx, client, "-prompt", "hello", "-connect", scheme+"://"+l.Addr().String()+"/acp").CombinedOutput()
		if err != nil {
			t.Errorf("%s: the client failed: %v\n%s", scheme, err, out)
		}
		r := <-reports
		cancel()
		if r == nil {
			t.Fatalf("%s: no client connected", scheme)
		}
		if !r.OK() {
			t.Fatalf("%s: %v", scheme, r.Text())
		}
		if vs := r.Find(ClientPermissionAnswer); len(vs) != 1 || vs[0].Status != Pass {
			t.Errorf("%s: client.permission.answer: %+v", scheme, vs)
		}
	}
}

// TestExampleAgentNetwork: acpgen's example agent served over the network
// (-listen) holds every MUST over Streamable HTTP and WebSocket, and its
// endpoint every MUST and SHOULD of the transport.
func TestExampleAgentNetwork(t *testing.T) {
	bin := buildExample(t, "agent")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "-listen", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	lines := bufio.NewScanner(stderr)
	endpoint := ""
	if lines.Scan() {
		endpoint = strings.TrimPrefix(lines.Text(), "listening on ")
	}
	go func() {
		for lines.Scan() { // keep the agent's stderr flowing
		}
	}()
	if !strings.HasPrefix(endpoint, "http://") {
		t.Fatalf("the agent printed %q", endpoint)
	}
	for _, u := range []string{endpoint, "ws" + strings.TrimPrefix(endpoint, "http")} {
		r := CheckAgent(ctx, &URLTarget{URL: u}, AgentOptions{})
		if !r.OK() {
			t.Errorf("%s:\n%s", u, r.Text())
		}
	}
	r := CheckRemote(ctx, endpoint, RemoteOptions{})
	if !r.OK() || len(r.Failed()) > 0 {
		t.Errorf("remote:\n%s", r.Text())
	}
	for _, v := range append(r.Find(RemoteHTTPSlowReader), r.Find(RemoteWSSlowReader)...) {
		t.Logf("%s %s: %s", v.ID, v.Status, v.Detail)
	}
}
