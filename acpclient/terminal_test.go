//go:build unix

package acpclient

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// run starts sh -c script in session "s" and returns the terminal's id.
func run(t *testing.T, h *Host, script string, limit int) string {
	t.Helper()
	id, err := h.CreateTerminal(context.Background(), "s", "sh", []string{"-c", script}, []Env{{"GREETING", "hello"}}, "", limit)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func wait(t *testing.T, h *Host, id string) ExitStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := h.WaitForTerminalExit(ctx, "s", id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestTerminalExit(t *testing.T) {
	h, dir := newHost(t, Options{})
	id := run(t, h, `printf "$GREETING "; pwd; echo oops >&2; exit 7`, -1)
	st := wait(t, h, id)
	if st.Code == nil || *st.Code != 7 || st.Signal != nil {
		t.Errorf("exit status %+v, want code 7", st)
	}
	out, truncated, status, err := h.TerminalOutput("s", id)
	real, _ := filepath.EvalSymlinks(dir)
	if err != nil || truncated || status == nil || *status.Code != 7 {
		t.Fatalf("output: %q %v %+v %v", out, truncated, status, err)
	}
	if out != "hello "+real+"\noops\n" && out != "hello "+dir+"\noops\n" {
		t.Errorf("output %q, want the greeting, the session's directory and the standard error", out)
	}
}

func TestTerminalSignalAndLimit(t *testing.T) {
	h, _ := newHost(t, Options{})
	id := run(t, h, `printf 'ééééé'; kill -TERM $$`, 5)
	st := wait(t, h, id)
	if st.Signal == nil || *st.Signal != "SIGTERM" || st.Code != nil {
		t.Errorf("exit status %+v, want SIGTERM", st)
	}
	out, truncated, _, _ := h.TerminalOutput("s", id)
	if out != "éé" || !truncated {
		t.Errorf("output %q truncated %v, want the last two characters, truncated", out, truncated)
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

// grandchild starts a terminal whose command leaves a process running in
// the background, and returns the terminal and the process's pid.
func grandchild(t *testing.T, h *Host) (string, int) {
	t.Helper()
	id := run(t, h, `trap '' TERM; sleep 60 & echo $!; wait`, -1)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		out, _, _, err := h.TerminalOutput("s", id)
		if err != nil {
			t.Fatal(err)
		}
		if line, ok := strings.CutSuffix(out, "\n"); ok {
			pid, err := strconv.Atoi(line)
			if err != nil {
				t.Fatalf("output %q", out)
			}
			return id, pid
		}
	}
	t.Fatal("the command wrote no pid")
	return "", 0
}

func TestTerminalKillEndsGroup(t *testing.T) {
	h, _ := newHost(t, Options{KillGrace: 300 * time.Millisecond})
	id, pid := grandchild(t, h)
	if err := h.KillTerminal("s", id); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Errorf("the background process %d outlived terminal/kill", pid)
	}
	st := wait(t, h, id)
	if st.Signal == nil {
		t.Errorf("exit status %+v, want a signal", st)
	}
	if _, _, status, err := h.TerminalOutput("s", id); err != nil || status == nil {
		t.Errorf("after kill, the output is kept with the status: %+v, %v", status, err)
	}
	if err := h.ReleaseTerminal("s", id); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := h.TerminalOutput("s", id); err == nil {
		t.Error("a released terminal still answers")
	}
}

func TestReleaseAndCloseKill(t *testing.T) {
	h, _ := newHost(t, Options{KillGrace: 300 * time.Millisecond})
	id, pid := grandchild(t, h)
	if err := h.ReleaseTerminal("s", id); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Errorf("the background process %d outlived terminal/release", pid)
	}
	_, pid = grandchild(t, h)
	h.Close()
	if alive(pid) {
		t.Errorf("the background process %d outlived the Host's Close", pid)
	}
}

func TestTerminalRefusals(t *testing.T) {
	h, dir := newHost(t, Options{Approve: func(ctx context.Context, session, command string, args []string) error {
		if command == "rm" {
			return errors.New("not rm")
		}
		return nil
	}})
	ctx := context.Background()
	_, err := h.CreateTerminal(ctx, "s", "true", nil, nil, os.TempDir(), -1)
	wantRefusal(t, err, os.TempDir(), "outside")
	_, err = h.CreateTerminal(ctx, "s", "no-such-command-here", nil, nil, "", -1)
	var r *refusal
	if !errors.As(err, &r) || r.field != "command" || !strings.Contains(r.reason, "not found") {
		t.Errorf("a missing command: %v", err)
	}
	if _, err = h.CreateTerminal(ctx, "s", "rm", []string{"-rf", dir}, nil, "", -1); err == nil || err.Error() != "not rm" {
		t.Errorf("Approve was not asked: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	id, err := h.CreateTerminal(ctx, "s", "pwd", nil, nil, filepath.Join(dir, "sub"), -1)
	if err != nil {
		t.Fatal(err)
	}
	wait(t, h, id)
	if out, _, _, _ := h.TerminalOutput("s", id); !strings.HasSuffix(out, "/sub\n") {
		t.Errorf("pwd in sub: %q", out)
	}
}
