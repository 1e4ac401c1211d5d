//go:build unix

package acpclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// client is a v1 client whose file and terminal duties are a Host's.
type client struct{ *V1 }

func (client) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}
func (client) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error { return nil }

// connect connects a client serving h to an agent over pipes, opens a
// session in dir through the client, and returns the agent's end.
func connect(t *testing.T, h *Host, dir string) *acpv1.AgentSideConnection {
	t.Helper()
	ar, cw := io.Pipe()
	cr, aw := io.Pipe()
	a := acpv1.NewAgentSideConnection(agent{}, aw, ar)
	c := acpv1.NewClientSideConnection(client{h.V1()}, cw, cr, acpv1.WithMiddleware(h.Middleware()))
	t.Cleanup(func() { c.Close(); a.Close(); <-c.Done(); <-a.Done() })
	ctx := context.Background()
	init := acpv1.NewInitializeRequest(1)
	init.ClientCapabilities = h.V1().Capabilities()
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	got := a.ClientInitialize().ClientCapabilities
	if got == nil || got.Fs == nil || !*got.Fs.ReadTextFile || *got.Fs.WriteTextFile || !*got.Terminal {
		t.Fatalf("the capabilities the agent saw: %+v", got)
	}
	if _, err := c.NewSession(ctx, acpv1.NewNewSessionRequest(dir, []acpv1.MCPServer{})); err != nil {
		t.Fatal(err)
	}
	return a
}

func errorOf(t *testing.T, err error) (acpv1.ErrorCode, map[string]string) {
	t.Helper()
	var e *acpv1.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an *acpv1.Error", err)
	}
	var data map[string]string
	raw, _ := json.Marshal(e.Data)
	json.Unmarshal(raw, &data)
	return e.Code, data
}

func TestV1OverConnection(t *testing.T) {
	h := New(Options{Read: true, Terminals: true})
	defer h.Close()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\n"), 0o600)
	a := connect(t, h, dir)
	ctx := context.Background()

	r := acpv1.NewReadTextFileRequest("sess-1", filepath.Join(dir, "a.txt"))
	line := uint32(2)
	r.Line = &line
	if res, err := a.ReadTextFile(ctx, r); err != nil || res.Content != "two\n" {
		t.Errorf("read: %+v, %v", res, err)
	}
	_, err := a.ReadTextFile(ctx, acpv1.NewReadTextFileRequest("sess-1", "/etc/passwd"))
	if code, data := errorOf(t, err); code != acpv1.ErrorCodeInvalidParams || data["path"] != "/etc/passwd" || data["reason"] == "" {
		t.Errorf("outside: %d %v", code, data)
	}
	_, err = a.ReadTextFile(ctx, acpv1.NewReadTextFileRequest("sess-1", filepath.Join(dir, "none")))
	if code, data := errorOf(t, err); code != acpv1.ErrorCodeResourceNotFound || data["uri"] != "file://"+filepath.Join(dir, "none") {
		t.Errorf("missing: %d %v", code, data)
	}
	_, err = a.WriteTextFile(ctx, acpv1.NewWriteTextFileRequest("sess-1", filepath.Join(dir, "b.txt"), "x"))
	if code, _ := errorOf(t, err); code != acpv1.ErrorCodeMethodNotFound {
		t.Errorf("a write, not served: %d", code)
	}
	_, err = a.ReadTextFile(ctx, acpv1.NewReadTextFileRequest("sess-2", filepath.Join(dir, "a.txt")))
	if code, data := errorOf(t, err); code != acpv1.ErrorCodeInvalidParams || data["sessionId"] != "sess-2" {
		t.Errorf("another session: %d %v", code, data)
	}

	tr := acpv1.NewCreateTerminalRequest("sess-1", "sh")
	tr.Args = []string{"-c", "echo hi; exit 3"}
	term, err := a.CreateTerminal(ctx, tr)
	if err != nil {
		t.Fatal(err)
	}
	w, err := a.WaitForTerminalExit(ctx, acpv1.NewWaitForTerminalExitRequest("sess-1", term.TerminalID))
	if err != nil || w.ExitCode == nil || *w.ExitCode != 3 {
		t.Fatalf("wait: %+v, %v", w, err)
	}
	out, err := a.TerminalOutput(ctx, acpv1.NewTerminalOutputRequest("sess-1", term.TerminalID))
	if err != nil || out.Output != "hi\n" || out.ExitStatus == nil || *out.ExitStatus.ExitCode != 3 {
		t.Errorf("output: %+v, %v", out, err)
	}
	if _, err := a.ReleaseTerminal(ctx, acpv1.NewReleaseTerminalRequest("sess-1", term.TerminalID)); err != nil {
		t.Error(err)
	}
}
