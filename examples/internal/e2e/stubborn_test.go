//go:build unix

package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stubbornAgent is a v1 agent in sh that ignores SIGTERM and keeps running
// after the end of its input: it answers initialize, session/new (with the
// auth-required error when $AUTH is set) and session/prompt (end_turn), and
// writes its pid to $PIDFILE.
const stubbornAgent = `trap '' TERM
echo $$ > "$PIDFILE"
while read -r line; do
	id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
	case "$line" in
	*'"method":"initialize"'*) echo '{"jsonrpc":"2.0","id":'$id',"result":{"protocolVersion":1}}' ;;
	*'"method":"session/new"'*)
		if [ -n "$AUTH" ]; then echo '{"jsonrpc":"2.0","id":'$id',"error":{"code":-32000,"message":"Authentication required"}}'
		else echo '{"jsonrpc":"2.0","id":'$id',"result":{"sessionId":"s1"}}'; fi ;;
	*'"method":"session/prompt"'*) echo '{"jsonrpc":"2.0","id":'$id',"result":{"stopReason":"end_turn"}}' ;;
	esac
done
while :; do sleep 1; done
`

// TestClientEndsStubbornAgent: the client returns within 5 s of the end of
// the turn, or of a failed session/new, with an agent that ignores the end
// of its input and SIGTERM, and leaves no process of it running.
func TestClientEndsStubbornAgent(t *testing.T) {
	_, client := binaries(t)
	for _, auth := range []string{"", "1"} {
		pidFile := filepath.Join(t.TempDir(), "pid")
		cmd := exec.Command(client, "-prompt", "x", "--", "sh", "-c", stubbornAgent)
		cmd.Env = append(os.Environ(), "PIDFILE="+pidFile, "AUTH="+auth)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		begin := time.Now()
		err := cmd.Run()
		took := time.Since(begin)
		if auth == "" && (err != nil || stdout.String() != "stop: end_turn\n") {
			t.Errorf("the turn: %v, printed %q, stderr %q", err, stdout.String(), stderr.String())
		}
		if auth != "" && (err == nil || !strings.Contains(stderr.String(), "client: session/new:")) {
			t.Errorf("the auth-required session/new: %v, stderr %q", err, stderr.String())
		}
		if took > 5*time.Second {
			t.Errorf("the client returned after %v, want at most 5 s", took)
		}
		b, err := os.ReadFile(pidFile)
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		if alive(pid) {
			syscall.Kill(-pid, syscall.SIGKILL)
			t.Errorf("the agent %d outlived the client", pid)
		}
	}
}

// alive reports whether pid is a process that is not a zombie.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z"
}
