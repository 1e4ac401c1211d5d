//go:build unix

package e2e

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpexec"
	"github.com/acpgen/acpgen/internal/sandbox"
)

// acpxCLI is the pinned command-line client (interop/thirdparty/package.json).
// It declares node >= 22 but runs on node 20.
const acpxCLI = "acpx/dist/cli.js"

// acpxWire is acpx's --format json output: the ACP messages it exchanged with
// the agent, one per line, and its other lines.
type acpxWire struct {
	mu    sync.Mutex // the reading goroutine may outlive a deadline
	lines []string
	msgs  []map[string]any
	part  string // the unfinished last line
}

// has reports whether a message has every member of want (compared as JSON
// values; params and result members are looked up one level down).
func (w *acpxWire) has(want string) bool {
	var pattern map[string]any
	if err := json.Unmarshal([]byte(want), &pattern); err != nil {
		panic(err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, m := range w.msgs {
		if contains(m, pattern) {
			return true
		}
	}
	return false
}

// contains reports whether v holds every member of pattern, recursively.
func contains(v, pattern any) bool {
	p, ok := pattern.(map[string]any)
	if !ok {
		b1, _ := json.Marshal(v)
		b2, _ := json.Marshal(pattern)
		return string(b1) == string(b2)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k, pv := range p {
		if !contains(m[k], pv) {
			return false
		}
	}
	return true
}

// readWire reads acpx's output into w until it holds until, in a whole
// line or in the unfinished last one (a terminal prompt ends in no
// newline), or the output ends, or the deadline passes.
func readWire(t *testing.T, r io.Reader, w *acpxWire, until string, deadline time.Duration) bool {
	t.Helper()
	got := make(chan bool, 1)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := r.Read(buf)
			if w.feed(buf[:n], until) {
				got <- true
				return
			}
			if err != nil {
				got <- false
				return
			}
		}
	}()
	select {
	case ok := <-got:
		return ok
	case <-time.After(deadline):
		t.Errorf("no %q from acpx within %v", until, deadline)
		return false
	}
}

// feed adds output and reports whether it holds until.
func (w *acpxWire) feed(b []byte, until string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.part += string(b)
	for {
		i := strings.IndexByte(w.part, '\n')
		if i < 0 {
			break
		}
		w.add(strings.TrimRight(w.part[:i], "\r"))
		w.part = w.part[i+1:]
	}
	return strings.Contains(strings.Join(w.lines, "\n")+w.part, until)
}

// text returns the output read so far.
func (w *acpxWire) text() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.lines, "\n") + "\n" + w.part
}

// add adds a whole line of output; w.mu is held.
func (w *acpxWire) add(line string) {
	if line == "" {
		return
	}
	w.lines = append(w.lines, line)
	var m map[string]any
	if json.Unmarshal([]byte(line), &m) == nil {
		w.msgs = append(w.msgs, m)
	}
}

// TestAcpxDrivesAgent: acpx, in the sandbox, drives examples/agent through
// a prompt with a plan and a permission it approves (--approve-all).
func TestAcpxDrivesAgent(t *testing.T) {
	s := sandbox.New(t)
	acpx := sandbox.ThirdParty(t, acpxCLI)
	agent, _ := binaries(t)
	p, err := acpexec.Start(context.Background(), s.Command("node", acpx, "--agent", agent, "--approve-all",
		"--format", "json", "--timeout", "20", "exec", "/plan A; B"), &acpexec.Options{Stderr: logWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var w acpxWire
	readWire(t, p, &w, `"stopReason"`, 20*time.Second)
	p.Close()
	for _, want := range []string{
		`{"method":"initialize"}`,
		`{"method":"session/prompt","params":{"prompt":[{"type":"text","text":"/plan A; B"}]}}`,
		`{"params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"text":"/plan A; B"}}}}`,
		`{"params":{"update":{"sessionUpdate":"plan","entries":[{"content":"A","priority":"medium","status":"pending"},{"content":"B","priority":"medium","status":"pending"}]}}}`,
		`{"method":"session/request_permission"}`,
		`{"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`,
		`{"params":{"update":{"content":{"text":"permission: allow"}}}}`,
		`{"result":{"stopReason":"end_turn"}}`,
	} {
		if !w.has(want) {
			t.Errorf("acpx's acpxWire has no message with %s", want)
		}
	}
	if t.Failed() {
		t.Logf("acpx's output:\n%s", w.text())
	}
	if p.State() == nil {
		t.Error("acpx was not reaped")
	}
}

// TestAcpxCancels: acpx on a terminal (script gives it one) asks its user
// about the agent's permission request; SIGINT then makes it send
// session/cancel and answer the request cancelled, and the agent ends the
// turn cancelled.
func TestAcpxCancels(t *testing.T) {
	s := sandbox.New(t)
	acpx := sandbox.ThirdParty(t, acpxCLI)
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script (util-linux) not found: no terminal for acpx")
	}
	agent, _ := binaries(t)
	s.Env = append(s.Env, "TERM=dumb")
	command := "exec node " + acpx + " --agent " + agent + " --format json --timeout 20 exec '/plan A; B'"
	p, err := acpexec.Start(context.Background(), s.Command("script", "-qfec", command, "/dev/null"), &acpexec.Options{Stderr: logWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var w acpxWire
	if !readWire(t, p, &w, "(y/N)", 20*time.Second) {
		t.Fatalf("acpx did not ask about the permission:\n%s", w.text())
	}
	pid, err := childOf(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	readWire(t, p, &w, `"stopReason"`, 10*time.Second)
	p.Close()
	for _, want := range []string{
		`{"params":{"update":{"sessionUpdate":"plan"}}}`,
		`{"method":"session/cancel"}`,
		`{"result":{"outcome":{"outcome":"cancelled"}}}`,
		`{"params":{"update":{"content":{"text":"permission: cancelled"}}}}`,
		`{"result":{"stopReason":"cancelled"}}`,
	} {
		if !w.has(want) {
			t.Errorf("acpx's acpxWire has no message with %s", want)
		}
	}
	if t.Failed() {
		t.Logf("acpx's output:\n%s", w.text())
	}
}

// childOf returns the one child of pid (Linux's /proc).
func childOf(pid int) (int, error) {
	id := strconv.Itoa(pid)
	b, err := os.ReadFile("/proc/" + id + "/task/" + id + "/children")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.Fields(string(b) + " x")[0])
}

// logWriter writes a program's standard error to the test log.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(b []byte) (int, error) {
	w.t.Logf("stderr: %s", b)
	return len(b), nil
}

var _ io.Writer = logWriter{}
