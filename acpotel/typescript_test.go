package acpotel_test

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/node"
)

// TestTypeScriptParent runs the TypeScript SDK's client against a traced
// Go agent: the client sets _meta.traceparent by hand on session/prompt,
// and the agent's span of the prompt is its child, in its trace, as are
// the calls the agent makes of the client during the turn.
func TestTypeScriptParent(t *testing.T) {
	nodeBin := node.Require(t)
	tel := newTelemetry()
	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin, filepath.Join(node.Dir(), "otel_client.mjs"), "00-"+traceID+"-"+parentID+"-01")
	cmd.Dir = node.Dir()
	cmd.Env = []string{"HOME=" + t.TempDir()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := false
	defer func() {
		if !waited {
			_ = cmd.Process.Kill() // by its PID
			_ = cmd.Wait()
		}
	}()
	agent := &agentV1{}
	conn := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent { agent.conn = c; return agent },
		out, in, acpv1.WithMiddleware(tel.middleware()))
	select {
	case <-conn.Done():
	case <-ctx.Done():
		t.Fatal("the TypeScript client did not finish")
	}
	conn.Close()
	waited = true
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the TypeScript client: %v: %s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "end_turn") {
		t.Fatalf("the TypeScript client's prompt did not end its turn: %s", stderr.String())
	}
	prompt := tel.find(t, "session/prompt", trace.SpanKindServer)
	if got := prompt.SpanContext().TraceID().String(); got != traceID {
		t.Errorf("the agent's prompt span is in trace %s, want %s", got, traceID)
	}
	if got := prompt.Parent().SpanID().String(); got != parentID || !prompt.Parent().IsRemote() {
		t.Errorf("the agent's prompt span has parent %s (remote %v), want %s", got, prompt.Parent().IsRemote(), parentID)
	}
	for _, method := range []string{"session/request_permission", "fs/read_text_file"} {
		childOf(t, tel.find(t, method, trace.SpanKindClient), prompt)
	}
	agent.mu.Lock()
	defer agent.mu.Unlock()
	if !strings.Contains(string(agent.meta), `"other":"kept"`) {
		t.Errorf("the prompt's _meta lost a key: %s", agent.meta)
	}
}
