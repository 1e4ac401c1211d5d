package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binaries builds the agent and the client once and returns their paths.
func binaries(t *testing.T) (agent, client string) {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = tempDir()
		for _, name := range []string{"agent", "client"} {
			if buildErr == nil {
				out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, name), "../../"+name).CombinedOutput()
				if err != nil {
					buildErr = &buildError{name, err, out}
				}
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, "agent"), filepath.Join(binDir, "client")
}

func TestClientDrivesAgent(t *testing.T) {
	agent, client := binaries(t)
	cmd := exec.Command(client, "-prompt", "hello, agent", "--", agent)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.Bytes())
	}
	if want := "hello, agent\npermission: allow\nstop: end_turn\n"; string(out) != want {
		t.Errorf("client printed %q, want %q", out, want)
	}
}

func TestClientFails(t *testing.T) {
	_, client := binaries(t)
	cmd := exec.Command(client, "-prompt", "x", "--", "false")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatal("the client exited 0 with an agent that exits at once")
	}
	if !strings.Contains(stderr.String(), "client: initialize:") {
		t.Errorf("stderr %q does not say what failed", stderr.String())
	}
}

// wire runs the agent with its stdin and stdout as lines. The agent's
// random ids (sess_ or msg_ and 32 hex digits) read as sess_1, msg_1, … in
// the order they first come, and are written back as the agent made them.
type wire struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Scanner
	cmd *exec.Cmd

	aliases map[string]string // random id → its alias
	reals   map[string]string // alias → random id
	counts  map[string]int    // aliases given, by prefix
}

// randomID is an id that the example agents make.
var randomID = regexp.MustCompile(`\b(sess|msg)_[0-9a-f]{32}\b`)

// alias replaces the random ids in line with their aliases.
func (w *wire) alias(line string) string {
	return randomID.ReplaceAllStringFunc(line, func(id string) string {
		if a, ok := w.aliases[id]; ok {
			return a
		}
		prefix, _, _ := strings.Cut(id, "_")
		w.counts[prefix]++
		a := prefix + "_" + strconv.Itoa(w.counts[prefix])
		w.aliases[id], w.reals[a] = a, id
		return a
	})
}

// unalias replaces the aliases in line, as JSON strings, with their ids.
func (w *wire) unalias(line string) string {
	for a, id := range w.reals {
		line = strings.ReplaceAll(line, `"`+a+`"`, `"`+id+`"`)
	}
	return line
}

func startAgent(t *testing.T) *wire {
	agent, _ := binaries(t)
	return startWire(t, exec.Command(agent))
}

// startWire runs cmd, an agent, with its stdin and stdout as lines.
func startWire(t *testing.T, cmd *exec.Cmd) *wire {
	in, err := cmd.StdinPipe()
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
	w := &wire{t: t, in: in, out: bufio.NewScanner(out), cmd: cmd,
		aliases: map[string]string{}, reals: map[string]string{}, counts: map[string]int{}}
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("agent exited with %v after its stdin closed", err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("agent still running 10 s after its stdin closed")
		}
	})
	return w
}

func (w *wire) send(line string) {
	w.t.Helper()
	if _, err := io.WriteString(w.in, w.unalias(line)+"\n"); err != nil {
		w.t.Fatal(err)
	}
}

func (w *wire) expect(want string) {
	w.t.Helper()
	if got := w.recv(); !jsonEqual(got, want) {
		w.t.Errorf("agent sent %s\nwant %s", got, want)
	}
}

// recv returns the next line the agent sends.
func (w *wire) recv() string {
	w.t.Helper()
	if !w.out.Scan() {
		w.t.Fatalf("agent output ended: %v", w.out.Err())
	}
	return w.alias(w.out.Text())
}

func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return a == b
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

const permissionRequest = `{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"sess_1",` +
	`"toolCall":{"toolCallId":"call_1","title":"echo"},"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"},` +
	`{"optionId":"reject","name":"Reject","kind":"reject_once"}]}}`

func chunk(text string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + text + `"}}}}`
}

// TestAgentWire drives the agent line by line: errors, then a prompt that
// the client rejects, then one that it cancels.
func TestAgentWire(t *testing.T) {
	w := startAgent(t)
	w.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	w.expect(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"acpgen-example-agent","version":"1.0.0"},"authMethods":[]}}`)
	w.send(`{"jsonrpc":"2.0","id":"u","method":"session/unknown","params":{}}`)
	w.expect(`{"jsonrpc":"2.0","id":"u","error":{"code":-32601,"message":"Method not found","data":{"method":"session/unknown"}}}`)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":7,"mcpServers":[]}}`)
	w.expect(`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params","data":{"details":"json: cannot unmarshal number into Go struct field .cwd of type string","path":"cwd"}}}`)
	w.send(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	w.expect(`{"jsonrpc":"2.0","id":3,"result":{"sessionId":"sess_1"}}`)

	w.send(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"one"},{"type":"text","text":"two"}]}}`)
	w.expect(chunk("one"))
	w.expect(chunk("two"))
	w.expect(permissionRequest)
	w.send(`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"selected","optionId":"reject"}}}`)
	w.expect(chunk("permission: reject"))
	w.expect(`{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn"}}`)

	// A session/cancel before the answer to the permission request is seen first.
	w.send(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"three"}]}}`)
	w.expect(chunk("three"))
	w.expect(strings.Replace(permissionRequest, `"id":1`, `"id":2`, 1))
	w.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`)
	w.send(`{"jsonrpc":"2.0","id":2,"result":{"outcome":{"outcome":"cancelled"}}}`)
	w.expect(chunk("permission: cancelled"))
	w.expect(`{"jsonrpc":"2.0","id":5,"result":{"stopReason":"cancelled"}}`)
}
