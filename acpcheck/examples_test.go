package acpcheck

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// buildExample builds one of the module's example programs into a
// temporary directory.
func buildExample(t *testing.T, name string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds an example program")
	}
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("go", "build", "-o", out, "../examples/"+name)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build examples/%s: %v\n%s", name, err, b)
	}
	return out
}

// TestExampleAgentV1 dogfoods the kit: acpgen's example agent holds every
// MUST over stdio in protocol v1, and the run stays under 10 s.
func TestExampleAgentV1(t *testing.T) {
	bin := buildExample(t, "agent")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := CheckAgent(ctx, Command(bin), AgentOptions{Versions: []int{1}})
	if !r.OK() {
		for _, v := range r.Failed() {
			t.Logf("%s: %s\n%s", v.ID, v.Detail, transcriptText(v.Transcript))
		}
		t.Fatal(r.Text())
	}
	for _, id := range []string{"agent.cancel.permission", "agent.plan.v1-fallback", "agent.plan.v1-operations"} {
		if vs := r.Find(id); len(vs) == 0 || vs[0].Status != Pass {
			t.Errorf("%s was not exercised: %+v", id, vs)
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
	kit := filepath.Join(t.TempDir(), "acpcheck")
	if b, err := exec.Command("go", "build", "-o", kit, "../cmd/acpcheck").CombinedOutput(); err != nil {
		t.Fatalf("go build cmd/acpcheck: %v\n%s", err, b)
	}
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
	passed := map[string]bool{}
	for _, v := range r.Verdicts {
		passed[v.ID] = passed[v.ID] || v.Status == Pass
	}
	for _, id := range []string{"client.permission.answer", "client.updates.unknown-v1", "client.rpc.method-not-found", "client.schema.valid"} {
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
		go func() { reports <- ListenClient(ctx, l, ClientOptions{Timeout: time.Second}) }()
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
		if vs := r.Find("client.permission.answer"); len(vs) != 1 || vs[0].Status != Pass {
			t.Errorf("%s: client.permission.answer: %+v", scheme, vs)
		}
	}
}
