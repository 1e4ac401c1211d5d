package e2e

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mountScript mounts a tmpfs of 256 KiB on $1 in the mount namespace of
// its own (unshare -m: the mount ends with the process, nothing to clean
// up), runs the agent $2 on a store in it, then copies the store to $3 to
// be read after. Exit 97: the mount was refused.
const mountScript = `mount -t tmpfs -o size=256k acpgen-full "$1" || exit 97
"$2" -store "$1/s.db"; rc=$?
cp "$1"/s.db* "$3"/
exit $rc`

// TestStoreDiskFull runs the agent on a SQLite store on a disk that
// fills: the turn that cannot be stored ends with a clear error (stop
// reason error, "the session store failed", no path and no SQLite text,
// which are in the agent's log), the connection lives on, and the store
// holds whole histories only.
func TestStoreDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("SKIPPED: a full disk is a tmpfs mounted in a mount namespace of the agent's own, which takes root")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("SKIPPED: no unshare to give the agent a mount namespace of its own")
	}
	agent, _ := binaries(t)
	mnt, out := t.TempDir(), t.TempDir()
	cmd := exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", mountScript, "sh", mnt, agent, out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// exited closes once the agent and its shell have ended; the
	// cleanup kills their process group if they have not.
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	defer func() {
		in.Close()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	}()
	w := &wire{t: t, in: in, out: bufio.NewScanner(stdout), cmd: cmd,
		aliases: map[string]string{}, reals: map[string]string{}, counts: map[string]int{}}
	w.out.Buffer(nil, 1<<20)
	w.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}`)
	if !w.out.Scan() {
		if <-exited; cmd.ProcessState.ExitCode() == 97 || strings.Contains(stderr.String(), "unshare failed") {
			t.Skipf("SKIPPED: no mount namespace or tmpfs mount for the agent: %s", stderr.String())
		}
		t.Fatalf("the agent ended: %v\n%s", waitErr, stderr.String())
	}
	w.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp"}}`)
	w.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_1"}}`)
	idle := fillDisk(t, w)
	want := updateV2(`{"sessionUpdate":"state_update","state":"idle","stopReason":"error","error":{"code":-32603,"message":"Internal error","data":{"details":"the session store failed"}}}`)
	if !jsonEqual(idle, want) {
		t.Fatalf("the turn the disk could not hold ended with\n%s\nwant\n%s", idle, want)
	}
	// The connection lives: reads answer.
	w.send(`{"jsonrpc":"2.0","id":2,"method":"session/list","params":{}}`)
	w.expect(`{"jsonrpc":"2.0","id":2,"result":{"sessions":[{"sessionId":"sess_1","cwd":"/tmp"}]}}`)
	in.Close()
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatalf("the agent did not end 20 s after its stdin closed\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "the session store failed") || !strings.Contains(stderr.String(), "full") {
		t.Errorf("the agent's log does not have the store's error:\n%s", stderr.String())
	}
	storeWhole(t, filepath.Join(out, "s.db"))
}

// fillDisk sends prompts of 32 KiB of text, each echoed and stored twice,
// allowing their permission requests, until a turn ends with other than
// end_turn; it returns that turn's idle update.
func fillDisk(t *testing.T, w *wire) string {
	text := strings.Repeat("0123456789abcdef", 2048)
	internals := regexp.MustCompile(`/tmp|(?i)sqlite|disk|full|acpstore`)
	for i := range 40 {
		w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"%s"}]}}`, 10+i, text))
		for {
			line := w.recv()
			if m := internals.FindString(strings.ReplaceAll(line, text, "")); m != "" {
				t.Fatalf("the agent sent %q to its peer: %.300s", m, line)
			}
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Update struct{ SessionUpdate, State, StopReason string }
				}
			}
			json.Unmarshal([]byte(line), &msg)
			switch {
			case msg.Method == "session/request_permission":
				w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`, msg.ID))
			case msg.Params.Update.State == "idle" && msg.Params.Update.StopReason == "end_turn":
			case msg.Params.Update.State == "idle":
				t.Logf("the disk filled at prompt %d", i+1)
				return line
			default:
				continue
			}
			if msg.Params.Update.State == "idle" {
				break
			}
		}
	}
	t.Fatal("40 prompts of 32 KiB fit in a 256 KiB tmpfs")
	return ""
}

// storeWhole fails unless the SQLite store at path holds, for each
// session, the history its record says, whole.
func storeWhole(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var sessions, bad int
	err = db.QueryRow(`SELECT count(*), coalesce(sum(s.updates - s.dropped != (SELECT coalesce(sum(h.n), 0) FROM acp_history h WHERE h.session_id = s.id)), 0) FROM acp_sessions s`).Scan(&sessions, &bad)
	if err != nil {
		t.Fatal(err)
	}
	var check string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil {
		t.Fatal(err)
	}
	if sessions != 1 || bad != 0 || check != "ok" {
		t.Fatalf("the store after the disk filled: %d sessions, %d with a history that is not its record's, integrity %q", sessions, bad, check)
	}
}
