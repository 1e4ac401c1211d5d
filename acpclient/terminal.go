package acpclient

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/acpgen/acpgen/acpexec"
)

// drainWait bounds how long a terminal waits, once its command has exited,
// for the rest of the output: a process the command left behind may hold
// the output open.
const drainWait = 200 * time.Millisecond

// ExitStatus is how a terminal's command ended: its exit code, or the name
// of the signal that ended it ("SIGKILL"); one of them is set.
type ExitStatus struct {
	Code   *uint32
	Signal *string
}

// terminal is a running or ended command and its output.
type terminal struct {
	id     string
	proc   *acpexec.Process
	out    *output
	exited chan struct{} // closed once the command has exited and status is set
	status ExitStatus
}

var terminalSeq atomic.Uint64

// Env is a variable the agent sets for a terminal command.
type Env struct{ Name, Value string }

// CreateTerminal starts command with args in session sessionID, in cwd
// (an absolute path inside the session's directory) or, when cwd is "",
// the session's directory, and returns the terminal's id. limit, when not
// negative, is the most output bytes kept (capped by
// Options.MaxOutputBytes).
func (h *Host) CreateTerminal(ctx context.Context, sessionID, command string, args []string, env []Env, cwd string, limit int) (string, error) {
	dir, root, err := h.place(sessionID)
	if err != nil {
		return "", err
	}
	wd := dir
	if cwd != "" {
		rel, err := resolve(dir, cwd)
		if err != nil {
			return "", err
		}
		info, err := root.Stat(rel)
		if err != nil {
			return "", explain(cwd, err)
		}
		if !info.IsDir() {
			return "", refusePath(cwd, "not a directory")
		}
		wd = filepath.Join(dir, rel)
	}
	if h.opts.Approve != nil {
		if err := h.opts.Approve(ctx, sessionID, command, args); err != nil {
			return "", err
		}
	}
	cmd := exec.Command(command, args...)
	if cmd.Err != nil {
		return "", &refusal{field: "command", value: command, reason: cause(cmd.Err)}
	}
	cmd.Dir = wd
	cmd.Env = h.env(env)
	if limit < 0 || limit > h.opts.MaxOutputBytes {
		limit = h.opts.MaxOutputBytes
	}
	t := &terminal{id: "term-" + strconv.FormatUint(terminalSeq.Add(1), 10), out: &output{limit: limit}, exited: make(chan struct{})}
	t.proc, err = acpexec.Start(ctx, cmd, &acpexec.Options{MergeStderr: true, Grace: time.Millisecond, TermGrace: h.opts.KillGrace})
	if err != nil {
		return "", &refusal{field: "command", value: command, reason: cause(err)}
	}
	t.proc.CloseWrite()
	go t.watch()
	h.mu.Lock()
	s := h.sessions[sessionID]
	if s != nil {
		s.terminals[t.id] = t
	}
	h.mu.Unlock()
	if s == nil { // forgotten meanwhile
		t.kill(h.opts.KillGrace)
		return "", unknownSession(sessionID)
	}
	return t.id, nil
}

// env returns the environment of a command: Options.Env or the client's,
// and then vars.
func (h *Host) env(vars []Env) []string {
	base := h.opts.Env
	if base == nil {
		base = os.Environ()
	}
	env := append([]string(nil), base...)
	for _, v := range vars {
		env = append(env, v.Name+"="+v.Value)
	}
	return env
}

// watch copies the command's output until it ends, and records the exit
// status once the command has exited and its output is read (or drainWait
// has passed).
func (t *terminal) watch() {
	drained := make(chan struct{})
	go func() {
		io.Copy(t.out, t.proc)
		close(drained)
	}()
	<-t.proc.Exited()
	timer := time.NewTimer(drainWait)
	select {
	case <-drained:
	case <-timer.C:
	}
	timer.Stop()
	t.status = exitStatus(t.proc.State())
	close(t.exited)
}

// kill ends the command's process group, SIGTERM first, SIGKILL grace
// later, and returns once the command has exited.
func (t *terminal) kill(grace time.Duration) {
	t.proc.Close()
	<-t.exited
}

// running reports whether the command has not exited.
func (t *terminal) running() bool {
	select {
	case <-t.exited:
		return false
	default:
		return true
	}
}

// terminal returns the terminal id of session sessionID.
func (h *Host) terminal(sessionID, id string) (*terminal, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sessions[sessionID]
	if s == nil {
		return nil, unknownSession(sessionID)
	}
	t := s.terminals[id]
	if t == nil {
		return nil, &refusal{field: "terminalId", value: id, reason: "no terminal of this id in session " + sessionID}
	}
	return t, nil
}

// TerminalOutput returns the output a terminal kept, whether older output
// was dropped, and its exit status once its command has exited.
func (h *Host) TerminalOutput(sessionID, id string) (out string, truncated bool, status *ExitStatus, err error) {
	t, err := h.terminal(sessionID, id)
	if err != nil {
		return "", false, nil, err
	}
	running := t.running()
	out, truncated = t.out.text(running)
	if !running {
		status = &t.status
	}
	return out, truncated, status, nil
}

// WaitForTerminalExit waits for a terminal's command to exit, or for ctx
// to end, and returns its exit status.
func (h *Host) WaitForTerminalExit(ctx context.Context, sessionID, id string) (ExitStatus, error) {
	t, err := h.terminal(sessionID, id)
	if err != nil {
		return ExitStatus{}, err
	}
	select {
	case <-t.exited:
		return t.status, nil
	case <-ctx.Done():
		return ExitStatus{}, ctx.Err()
	}
}

// KillTerminal ends a terminal's command and every process it started,
// keeping the terminal and its output; it returns once they have ended.
func (h *Host) KillTerminal(sessionID, id string) error {
	t, err := h.terminal(sessionID, id)
	if err != nil {
		return err
	}
	t.kill(h.opts.KillGrace)
	return nil
}

// ReleaseTerminal kills a terminal's command, as KillTerminal does, and
// forgets the terminal.
func (h *Host) ReleaseTerminal(sessionID, id string) error {
	t, err := h.terminal(sessionID, id)
	if err != nil {
		return err
	}
	h.mu.Lock()
	if s := h.sessions[sessionID]; s != nil {
		delete(s.terminals, id)
	}
	h.mu.Unlock()
	t.kill(h.opts.KillGrace)
	return nil
}

// cause returns the text of err's innermost cause: "executable file not
// found in $PATH" rather than the whole chain, which names the command again.
func cause(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}
