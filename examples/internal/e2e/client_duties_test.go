//go:build unix

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// scripted returns the arguments that run this test binary as the
// scripted agent of mode, through env so that the client passes it on.
func scripted(t *testing.T, mode string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"env", scriptedEnv + "=" + mode, "GORACE=atexit_sleep_ms=0", exe, "-test.run=^$"}
}

// TestClientSIGINTCancels: SIGINT during a v1 turn puts session/cancel on
// the wire, the late permission request is answered cancelled, and the
// client prints the agent's stop reason, cancelled.
func TestClientSIGINTCancels(t *testing.T) {
	_, client := binaries(t)
	wire := filepath.Join(t.TempDir(), "wire.jsonl")
	cmd := exec.Command(client, append([]string{"-prompt", "go", "-wire-log", wire, "--"}, scripted(t, "stream")...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	br := bufio.NewReader(out)
	if line, err := br.ReadString('\n'); err != nil || line != "tick\n" {
		t.Fatalf("first line %q, %v\n%s", line, err, stderr.Bytes())
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	var rest bytes.Buffer
	rest.ReadFrom(br)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.Bytes())
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the cancelled turn took %v to end", took)
	}
	if !strings.HasSuffix(rest.String(), "stop: cancelled\n") {
		t.Errorf("client printed %q, want it to end with stop: cancelled", rest.String())
	}
	if !strings.Contains(stderr.String(), "scripted agent: permission cancelled") {
		t.Errorf("the late permission request was not answered cancelled:\n%s", stderr.Bytes())
	}
	log, _ := os.ReadFile(wire)
	var sent bool
	for _, line := range strings.Split(string(log), "\n") {
		var e struct {
			Dir string
			Msg struct{ Method string }
		}
		json.Unmarshal([]byte(line), &e)
		sent = sent || e.Dir == "out" && e.Msg.Method == "session/cancel"
	}
	if !sent {
		t.Errorf("no session/cancel on the wire:\n%s", log)
	}
}

// TestClientNamesDeadAgent: an agent that exits 7 mid-turn is reported
// with its exit status and its last words.
func TestClientNamesDeadAgent(t *testing.T) {
	_, client := binaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, client, append([]string{"-prompt", "go", "--"}, scripted(t, "exit7")...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("client: %v, want exit status 1\n%s", err, stderr.Bytes())
	}
	if !strings.Contains(stderr.String(), "exit status 7") || !strings.Contains(stderr.String(), "\tgiving up") {
		t.Errorf("stderr does not name the exit status and the last words:\n%s", stderr.Bytes())
	}
}

// TestClientServesFiles: the example client under acpcheck client holds
// every MUST and passes the file system, terminal and outside-cwd checks.
func TestClientServesFiles(t *testing.T) {
	_, client := binaries(t)
	dir := t.TempDir()
	kit := filepath.Join(dir, "acpcheck")
	if b, err := exec.Command("go", "build", "-o", kit, "../../../cmd/acpcheck").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	work := filepath.Join(dir, "work")
	os.Mkdir(work, 0o755)
	report := filepath.Join(dir, "report.json")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, client, "-prompt", "hello", "--", kit, "client", "-json", report, "-report", os.DevNull)
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("client: %v\n%s", err, out)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		OK       bool
		Verdicts []struct{ ID, Status, Detail string }
	}
	if err := json.Unmarshal(data, &r); err != nil || !r.OK {
		t.Fatalf("a MUST failed (%v):\n%s", err, data)
	}
	status := map[string]string{}
	for _, v := range r.Verdicts {
		status[v.ID] = v.Status + ": " + v.Detail
	}
	for _, id := range []string{"client.fs.read", "client.fs.write", "client.fs.read-back", "client.fs.outside", "client.terminal"} {
		if !strings.HasPrefix(status[id], "pass") {
			t.Errorf("%s: %s", id, status[id])
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("files beside the work directory: %v (a write outside it?)", entries)
	}
}

// TestClientPrintsDrops: five session/update notifications that do not fit
// the schema give five stderr lines, each with the method and the reason.
func TestClientPrintsDrops(t *testing.T) {
	_, client := binaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, client, append([]string{"-prompt", "go", "--"}, scripted(t, "misfit")...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.Bytes())
	}
	if string(out) != "stop: end_turn\n" {
		t.Errorf("stdout %q", out)
	}
	var drops []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(line, "client: dropped session/update: ") {
			drops = append(drops, line)
		}
	}
	if len(drops) != 5 {
		t.Errorf("%d drop lines, want 5:\n%s", len(drops), stderr.Bytes())
	}
}
