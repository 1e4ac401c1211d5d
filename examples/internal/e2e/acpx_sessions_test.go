//go:build unix

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpexec"
	"github.com/acpgen/acpgen/internal/sandbox"
)

// TestAcpxPersistentSession: acpx, in the sandbox, keeps a persistent
// session of examples/agent's v1 TurnRunner: "sessions new" creates it
// (session/new); the first "prompt" starts acpx's queue owner with a fresh
// agent process, which resumes the session (session/resume, advertised);
// the agent's history is in memory, so that process does not have it and
// answers -32002, and acpx goes on in a new session; the second "prompt"
// runs in that session on the same agent process, with no new initialize.
// The agent's wire log shows what acpx sent.
func TestAcpxPersistentSession(t *testing.T) {
	s := sandbox.New(t)
	acpx := sandbox.ThirdParty(t, acpxCLI)
	agent, _ := binaries(t)
	wireLog := filepath.Join(s.Home, "wire.log")
	s.Env = append(s.Env, "ACP_WIRE_LOG="+wireLog)
	defer endSandboxed(t, s.Home)
	// --ttl 60: the queue owner waits for the second prompt however long a
	// loaded machine takes to start the next acpx (it shut down under 3).
	for _, args := range [][]string{{"sessions", "new"}, {"prompt", "first"}, {"prompt", "second"}} {
		cmd := s.Command("node", append([]string{acpx, "--agent", agent, "--approve-all", "--format", "quiet", "--ttl", "60", "--timeout", "20"}, args...)...)
		p, err := acpexec.Start(context.Background(), cmd, &acpexec.Options{Stderr: logWriter{t}})
		if err != nil {
			t.Fatal(err)
		}
		var w acpxWire
		readWire(t, p, &w, "\x00", 30*time.Second) // to the end of its output
		p.Close()
		t.Logf("acpx %s: %s", strings.Join(args, " "), strings.TrimSpace(w.text()))
	}
	msgs := readWireLog(t, wireLog)
	var inits, resumes int
	sessions := map[string]bool{}
	var prompts []string
	for _, m := range msgs {
		switch {
		case m.Dir == "in" && m.Msg.Method == "initialize":
			inits++
		case m.Dir == "in" && m.Msg.Method == "session/resume":
			resumes++
		case m.Dir == "in" && m.Msg.Method == "session/prompt":
			prompts = append(prompts, m.Msg.Params.SessionID)
		case m.Dir == "out" && m.Msg.Result != nil && m.Msg.Result.SessionID != "":
			sessions[m.Msg.Result.SessionID] = true
		}
	}
	if inits != 2 {
		t.Errorf("%d initialize requests, want 2 (sessions new, then the queue owner's agent)", inits)
	}
	if resumes != 1 {
		t.Errorf("%d session/resume requests, want 1 (the queue owner's agent)", resumes)
	}
	if len(prompts) != 2 || prompts[0] != prompts[1] || !sessions[prompts[0]] {
		t.Errorf("the prompts went to sessions %q (created: %v), want both to one the agent created", prompts, sessions)
	}
	if t.Failed() {
		b, _ := os.ReadFile(wireLog)
		t.Logf("the agent's wire log:\n%s", b)
	}
}

// wireLogLine is a line of the agent's wire log.
type wireLogLine struct {
	Dir string `json:"dir"`
	Msg struct {
		Method string `json:"method"`
		Params struct {
			SessionID string `json:"sessionId"`
		} `json:"params"`
		Result *struct {
			SessionID string `json:"sessionId"`
		} `json:"result"`
	} `json:"msg"`
}

// readWireLog reads a wire log.
func readWireLog(t *testing.T, path string) []wireLogLine {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []wireLogLine
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l wireLogLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("the wire log: %v: %s", err, sc.Bytes())
		}
		lines = append(lines, l)
	}
	return lines
}

// endSandboxed ends, by their ids, the processes whose HOME is home: acpx's
// queue owner and its agent, which outlive the acpx command that started
// them (until their --ttl).
func endSandboxed(t *testing.T, home string) {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + d.Name() + "/environ")
		if err != nil || !bytes.Contains(append(env, 0), []byte("\x00HOME="+home+"\x00")) && !bytes.HasPrefix(env, []byte("HOME="+home+"\x00")) {
			continue
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err == nil {
			t.Logf("ended process %d, left by acpx", pid)
		}
	}
}
