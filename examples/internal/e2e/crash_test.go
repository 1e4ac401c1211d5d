package e2e

import (
	"bufio"
	"database/sql"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite" // to read what the agent wrote
)

// startStored runs examples/agent on the session store at path; the test
// kills it (SIGKILL) or closes its stdin.
func startStored(t *testing.T, path string) *wire {
	agent, _ := binaries(t)
	cmd := exec.Command(agent, "-store", path)
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
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		in.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Error("agent still running 10 s after its stdin closed")
		}
	})
	return &wire{t: t, in: in, out: bufio.NewScanner(out), cmd: cmd,
		aliases: map[string]string{}, reals: map[string]string{}, counts: map[string]int{}}
}

// kill9 kills the agent of w with SIGKILL, as a crash or the OOM killer
// would: nothing of its own runs after.
func (w *wire) kill9() {
	w.t.Helper()
	if err := w.cmd.Process.Kill(); err != nil {
		w.t.Fatal(err)
	}
}

const interruptedV2 = `{"sessionUpdate":"state_update","state":"idle","stopReason":"error","error":{"code":-32603,` +
	`"message":"Internal error","data":{"details":"the turn was interrupted: the agent stopped while it ran"}}}`

// TestCrashResumeV2 kills the agent (kill -9) while a turn waits on its
// permission request, starts it again on the same SQLite store, and
// resumes the session with replayFrom start: every update sent before the
// kill comes back in order, then the idle state_update that says the turn
// was interrupted (stop reason error); the session takes prompts again.
func TestCrashResumeV2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	w := startStored(t, path)
	w.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}`)
	w.recv()
	w.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp"}}`)
	w.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_1"}}`)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"one"},{"type":"text","text":"two"}]}}`)
	w.expect(`{"jsonrpc":"2.0","id":2,"result":{"messageId":"msg_1"}}`)
	w.expect(userMessageV2("msg_1", "one", "two"))
	w.expect(stateV2("running"))
	w.expect(chunkV2("msg_2", "one"))
	w.expect(chunkV2("msg_2", "two"))
	w.expect(stateV2("requires_action")) // stored before it is sent: the commit of all before it
	w.expect(permissionRequestV2)
	w.kill9()

	w2 := startStored(t, path)
	w2.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}`)
	w2.recv()
	w2.send(`{"jsonrpc":"2.0","id":1,"method":"session/list","params":{}}`)
	w2.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessions":[{"sessionId":"sess_1","cwd":"/tmp"}]}}`)
	w2.send(`{"jsonrpc":"2.0","id":2,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/tmp","replayFrom":{"type":"start"}}}`)
	for _, want := range []string{userMessageV2("msg_1", "one", "two"), chunkV2("msg_2", "one"), chunkV2("msg_2", "two"),
		updateV2(interruptedV2), `{"jsonrpc":"2.0","id":2,"result":{}}`} {
		w2.expect(want)
	}
	// The session lives on: a turn after the crash.
	w2.send(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"three"}]}}`)
	w2.expect(`{"jsonrpc":"2.0","id":3,"result":{"messageId":"msg_3"}}`)
	w2.expect(userMessageV2("msg_3", "three"))
	w2.expect(stateV2("running"))
	w2.expect(chunkV2("msg_4", "three"))
	w2.expect(stateV2("requires_action"))
	w2.expect(permissionRequestV2)
	w2.send(`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`)
	w2.expect(stateV2("running"))
	w2.expect(chunkV2("msg_4", "permission: allow"))
	w2.expect(idleV2("end_turn"))
}

// waitHistory waits until the store at path holds n updates: what the
// agent wrote, which a crash then cannot take back.
func waitHistory(t *testing.T, path string, n int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got int
		err := db.QueryRow(`SELECT coalesce(sum(n), 0) FROM acp_history`).Scan(&got)
		if err == nil && got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the store holds %d updates after 10 s, want %d (%v)", got, n, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestCrashLoadV1 kills the v1 agent mid-turn and loads the session from a
// new process on the same store: the replay holds the prompt and the echo
// written before the kill, and the answer's _meta "acp/turnState" says the
// turn was interrupted (v1 has no state update; its prompt was never
// answered).
func TestCrashLoadV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	w := startStored(t, path)
	w.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	w.recv()
	w.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	w.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_1"}}`)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"one"}]}}`)
	w.expect(chunk("one"))
	w.expect(permissionRequest)
	waitHistory(t, path, 2) // the prompt and the echo, committed
	w.kill9()

	w2 := startStored(t, path)
	w2.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	w2.recv()
	w2.send(`{"jsonrpc":"2.0","id":1,"method":"session/list","params":{}}`)
	if got := w2.recv(); !strings.Contains(got, `"sessionId":"sess_1"`) {
		t.Fatalf("session/list after the crash: %s", got)
	}
	w2.send(`{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"sess_1","cwd":"/tmp","mcpServers":[]}}`)
	w2.expect(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"one"}}}}`)
	w2.expect(chunk("one"))
	w2.expect(`{"jsonrpc":"2.0","id":2,"result":{"_meta":{"acp/turnState":{"state":"idle","interrupted":true}}}}`)
	w2.send(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"two"}]}}`)
	w2.expect(chunk("two"))
	w2.expect(permissionRequest)
	w2.send(`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`)
	w2.expect(chunk("permission: allow"))
	w2.expect(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`)
	// Loaded again, the turn that ended is not interrupted.
	w2.send(`{"jsonrpc":"2.0","id":4,"method":"session/load","params":{"sessionId":"sess_1","cwd":"/tmp","mcpServers":[]}}`)
	for range 5 {
		w2.recv()
	}
	w2.expect(`{"jsonrpc":"2.0","id":4,"result":{}}`)
}
