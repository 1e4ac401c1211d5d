//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startKit builds acpcheck and starts it in client mode on pipes, as a
// client under test would, and returns it with its ends and report files.
func startKit(t *testing.T) (cmd *exec.Cmd, toKit io.WriteCloser, fromKit *bufio.Reader, closeFrom func(), report, jsonFile string) {
	t.Helper()
	dir := t.TempDir()
	kit := filepath.Join(dir, "acpcheck")
	if b, err := exec.Command("go", "build", "-o", kit, ".").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	report, jsonFile = filepath.Join(dir, "report.txt"), filepath.Join(dir, "report.json")
	cmd = exec.Command(kit, "client", "-timeout", "500ms", "-report", report, "-json", jsonFile)
	cmd.Stderr = io.Discard
	toKit, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, toKit, bufio.NewReader(out), func() { out.(io.Closer).Close() }, report, jsonFile
}

// turnToPermission plays a v1 client up to the kit's permission request.
func turnToPermission(t *testing.T, w io.Writer, r *bufio.Reader) {
	t.Helper()
	send := func(s string) { fmt.Fprintln(w, s) }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	send(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"acpcheck_1","prompt":[{"type":"text","text":"hi"}]}}`)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("the kit ended before asking permission: %v", err)
		}
		var m struct {
			ID     json.RawMessage
			Method string
		}
		json.Unmarshal([]byte(line), &m)
		switch m.Method {
		case "session/request_permission":
			return
		case "":
		default:
			if m.ID != nil { // the kit's probes
				send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
			}
		}
	}
}

// wantReports waits for the kit to exit and checks that it wrote both
// reports, with the verdict the client's end left.
func wantReports(t *testing.T, cmd *exec.Cmd, report, jsonFile, verdict string) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Errorf("the kit exited %v, want status 1 (a MUST failed)", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the kit did not end")
	}
	text, err := os.ReadFile(report)
	if err != nil || !strings.Contains(string(text), verdict) {
		t.Errorf("text report (%v) lacks %s:\n%s", err, verdict, text)
	}
	data, err := os.ReadFile(jsonFile)
	var r struct {
		Verdicts []struct{ ID, Status string }
	}
	if err != nil || json.Unmarshal(data, &r) != nil || len(r.Verdicts) < 10 {
		t.Errorf("JSON report (%v): %.300s", err, data)
	}
}

// TestClientDies: a client that dies while the kit waits on it (its pipes
// close) leaves the kit's text and JSON reports.
func TestClientDies(t *testing.T) {
	if testing.Short() {
		t.Skip("builds acpcheck")
	}
	cmd, w, r, closeFrom, report, jsonFile := startKit(t)
	turnToPermission(t, w, r)
	w.Close()
	closeFrom()
	wantReports(t, cmd, report, jsonFile, "client.permission.answer")
}

// TestClientKitTerminated: SIGTERM, as a client that ends its agent's
// process group sends, ends the check, not the report.
func TestClientKitTerminated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds acpcheck")
	}
	cmd, w, r, _, report, jsonFile := startKit(t)
	turnToPermission(t, w, r)
	cmd.Process.Signal(syscall.SIGTERM)
	wantReports(t, cmd, report, jsonFile, "client.permission.answer")
	w.Close()
}
