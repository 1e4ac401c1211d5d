package acpclient

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The defaults of Options.
const (
	DefaultMaxFileBytes   = 16 << 20
	DefaultMaxOutputBytes = 1 << 20
	DefaultKillGrace      = 2 * time.Second
)

// Options says which duties a Host serves and within which bounds. The
// zero value serves nothing.
type Options struct {
	// Read serves fs/read_text_file; Write serves fs/write_text_file.
	Read, Write bool
	// Terminals serves the terminal methods.
	Terminals bool
	// MaxFileBytes is the largest file fs/read_text_file reads;
	// DefaultMaxFileBytes when zero.
	MaxFileBytes int64
	// MaxOutputBytes is the most output a terminal keeps, whatever its
	// outputByteLimit; DefaultMaxOutputBytes when zero.
	MaxOutputBytes int
	// Env is the environment terminal commands start with, before the
	// request's variables; os.Environ() when nil.
	Env []string
	// KillGrace is how long terminal/kill waits after SIGTERM before it
	// sends SIGKILL to the command's process group; DefaultKillGrace when
	// zero.
	KillGrace time.Duration
	// Approve, when set, is asked before each terminal command starts; an
	// error refuses the terminal/create request with that error (an
	// *acpv1.Error is answered as it is).
	Approve func(ctx context.Context, sessionID, command string, args []string) error
}

// A Host serves the file and terminal requests of the sessions it knows.
// Its methods are safe for concurrent use.
type Host struct {
	opts Options

	mu       sync.Mutex
	sessions map[string]*session
	closed   bool
}

// session is a session's directory, opened as a root, and its terminals.
type session struct {
	id        string
	dir       string
	root      *os.Root
	terminals map[string]*terminal
}

// New returns a Host that serves what opts says.
func New(opts Options) *Host {
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	if opts.MaxOutputBytes <= 0 {
		opts.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if opts.KillGrace <= 0 {
		opts.KillGrace = DefaultKillGrace
	}
	return &Host{opts: opts, sessions: map[string]*session{}}
}

// ErrClosed is returned by Open once the Host is closed.
var ErrClosed = errors.New("acpclient: the host is closed")

// Open makes the session sessionID known, with dir, an absolute path to a
// directory, as its working directory: its files and terminals are confined
// to dir. Opening a session again (session/load, session/resume) keeps its
// terminals and changes its directory.
func (h *Host) Open(sessionID, dir string) error {
	if !filepath.IsAbs(dir) {
		return fmt.Errorf("acpclient: the directory %q of session %s is not an absolute path", dir, sessionID)
	}
	dir = filepath.Clean(dir)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("acpclient: session %s: %w", sessionID, err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		root.Close()
		return ErrClosed
	}
	if s := h.sessions[sessionID]; s != nil {
		if s.dir == dir {
			root.Close()
			return nil
		}
		// Calls in flight on the old root fail; new ones use the new one.
		s.root.Close()
		s.dir, s.root = dir, root
		return nil
	}
	h.sessions[sessionID] = &session{id: sessionID, dir: dir, root: root, terminals: map[string]*terminal{}}
	return nil
}

// Dir returns the directory of session sessionID, and whether the session
// is known.
func (h *Host) Dir(sessionID string) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s := h.sessions[sessionID]; s != nil {
		return s.dir, true
	}
	return "", false
}

// Forget releases the terminals of session sessionID (their commands are
// killed) and forgets the session. It returns once the commands have
// ended.
func (h *Host) Forget(sessionID string) {
	h.mu.Lock()
	s := h.sessions[sessionID]
	delete(h.sessions, sessionID)
	h.mu.Unlock()
	if s != nil {
		s.close(h.opts.KillGrace)
	}
}

// Close forgets every session, killing their terminals' commands, and
// refuses sessions from then on. It returns once the commands have ended.
func (h *Host) Close() error {
	h.mu.Lock()
	h.closed = true
	all := h.sessions
	h.sessions = map[string]*session{}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Go(func() { s.close(h.opts.KillGrace) })
	}
	wg.Wait()
	return nil
}

// close kills the session's terminals and closes its root.
func (s *session) close(grace time.Duration) {
	var wg sync.WaitGroup
	for _, t := range s.terminals {
		wg.Go(func() { t.kill(grace) })
	}
	wg.Wait()
	s.root.Close()
}

// place returns the directory and root of session sessionID, or a refusal
// naming it.
func (h *Host) place(sessionID string) (dir string, root *os.Root, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s := h.sessions[sessionID]; s != nil {
		return s.dir, s.root, nil
	}
	return "", nil, unknownSession(sessionID)
}

func unknownSession(id string) error {
	return &refusal{field: "sessionId", value: id, reason: "no session of this id was opened by this client"}
}
