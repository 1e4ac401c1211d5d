//go:build unstable_mcp_over_acp || unstable

package mcptest

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/internal/node"
)

// StartNode runs an interop script with its stdin and stdout as the ACP
// stream, with an empty environment and a temporary HOME; wait returns its
// standard error once it exits (failing the test after 30 s). The process
// is ended by its PID at the end of the test.
func StartNode(t *testing.T, script string) (w io.WriteCloser, r io.Reader, wait func() []byte) {
	t.Helper()
	bin := node.Require(t)
	cmd := exec.Command(bin, filepath.Join(node.Dir(), script))
	cmd.Env = []string{"HOME=" + t.TempDir()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, err = cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	return w, r, func() []byte {
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s did not exit; stderr: %s", script, stderr.Bytes())
		}
		return stderr.Bytes()
	}
}

// CallerReport is what an agent written with the TypeScript SDK and its
// McpOverAcpCaller (interop/mcp_caller*.mjs) prints on standard error
// after calling the Go provider's server: the acp servers it received, the
// results of tools/list and tools/call, the notifications it routed and
// received, and the errors of an unknown tool, an unknown server and a
// cancelled call.
type CallerReport struct {
	Error   string `json:"error"`
	Servers []struct {
		Type, Name, ServerID string
	} `json:"servers"`
	List struct {
		Result struct {
			Tools []struct{ Name string } `json:"tools"`
		} `json:"result"`
	} `json:"list"`
	Call struct {
		Result struct {
			Content []struct{ Text string } `json:"content"`
		} `json:"result"`
	} `json:"call"`
	Notes    []struct{ Method string } `json:"notes"`
	Received []struct {
		ServerID, RequestID, Method string
	} `json:"received"`
	UnknownTool              json.RawMessage `json:"unknownTool"`
	UnknownServer, Cancelled struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
}

// ReadCallerReport decodes the report in stderr and checks what every
// version's caller reports alike: no error, reg as its one acp server,
// the echo tool's answer to want, and an unknown server refused with
// [acpmcp.CodeServerUnavailable].
func ReadCallerReport(t *testing.T, stderr []byte, reg *acpmcp.Registration, want string) *CallerReport {
	t.Helper()
	var got CallerReport
	if err := json.Unmarshal(bytes.TrimSpace(stderr), &got); err != nil || got.Error != "" {
		t.Fatalf("the TypeScript agent printed %s: %v", stderr, err)
	}
	if len(got.Servers) != 1 || got.Servers[0].Type != "acp" || got.Servers[0].ServerID != reg.ServerID() {
		t.Errorf("the agent's acp servers: %+v", got.Servers)
	}
	if c := got.Call.Result.Content; len(c) != 1 || c[0].Text != want {
		t.Errorf("tools/call: %+v, want %q", c, want)
	}
	if got.UnknownServer.Code != acpmcp.CodeServerUnavailable {
		t.Errorf("an unknown server: %+v", got.UnknownServer)
	}
	return &got
}
