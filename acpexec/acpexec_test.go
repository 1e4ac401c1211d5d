//go:build unix

package acpexec

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// short are grace periods that keep the tests quick; patient is for the
// agents that exit at the end of their input, so that a loaded machine does
// not make them look as if they had not.
var (
	short   = &Options{Grace: 200 * time.Millisecond, TermGrace: 300 * time.Millisecond, Stderr: io.Discard}
	patient = &Options{Grace: 3 * time.Second, Stderr: io.Discard}
)

func start(t *testing.T, mode string, opts *Options) *Process {
	t.Helper()
	p, err := Start(context.Background(), agentCmd(t, mode), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// echo writes a line and reads it back.
func echo(t *testing.T, p *Process, br *bufio.Reader) {
	t.Helper()
	if _, err := io.WriteString(p, "ping\n"); err != nil {
		t.Fatal(err)
	}
	line, err := br.ReadString('\n')
	if err != nil || line != "ping\n" {
		t.Fatalf("read %q, %v; want ping", line, err)
	}
}

// closeTimed closes p and checks how it ended and that it took between min
// and max.
func closeTimed(t *testing.T, p *Process, want Ending, min, max time.Duration) error {
	t.Helper()
	begin := time.Now()
	err := p.Close()
	took := time.Since(begin)
	if got := p.Ending(); got != want {
		t.Errorf("ending %v, want %v", got, want)
	}
	if took < min || took > max {
		t.Errorf("Close took %v, want between %v and %v", took, min, max)
	}
	if p.State() == nil {
		t.Error("the agent was not reaped")
	}
	return err
}

func TestExitsAtEOF(t *testing.T) {
	p := start(t, "echo", patient)
	echo(t, p, bufio.NewReader(p))
	if err := closeTimed(t, p, Exited, 0, 2*time.Second); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("the second Close: %v", err)
	}
}

func TestIgnoresEOF(t *testing.T) {
	p := start(t, "ignore-eof", nil) // the default grace periods
	echo(t, p, bufio.NewReader(p))
	if err := closeTimed(t, p, Terminated, DefaultGrace, DefaultGrace+time.Second); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestIgnoresTerm(t *testing.T) {
	p := start(t, "ignore-term", short)
	echo(t, p, bufio.NewReader(p))
	if err := closeTimed(t, p, Killed, 500*time.Millisecond, 1500*time.Millisecond); err != nil {
		t.Errorf("Close: %v", err)
	}
	if !strings.Contains(p.State().String(), "killed") {
		t.Errorf("state %v, want killed", p.State())
	}
}

// TestGrandchild: the agent exits at the end of its input, and the
// grandchild it started holds its output open and ignores SIGTERM. Reads
// block until Close kills the grandchild.
func TestGrandchild(t *testing.T) {
	p := start(t, "grandchild", short)
	br := bufio.NewReader(p)
	line, err := br.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	gc, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("grandchild pid %q: %v", line, err)
	}
	read := make(chan error, 1)
	p.CloseWrite()
	go func() {
		_, err := io.ReadAll(br)
		read <- err
	}()
	select {
	case <-p.Exited():
	case <-time.After(5 * time.Second):
		t.Fatal("the agent did not exit at the end of its input")
	}
	select {
	case err := <-read:
		t.Fatalf("the read ended (%v) while the grandchild holds the output", err)
	case <-time.After(100 * time.Millisecond):
	}
	if !processAlive(gc) {
		t.Fatal("the grandchild is not running before Close")
	}
	closeTimed(t, p, Killed, 500*time.Millisecond, 1500*time.Millisecond)
	select {
	case <-read:
	case <-time.After(time.Second):
		t.Fatal("the read did not end after Close")
	}
	if processAlive(gc) {
		t.Errorf("the grandchild %d outlived Close", gc)
	}
}

func TestExitBeforeAnswer(t *testing.T) {
	p := start(t, "exit3", short)
	_, err := io.ReadAll(p)
	err = p.Explain(errors.Join(errors.New("no answer to initialize"), err))
	var exit *ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("Explain gave %v, want an *ExitError", err)
	}
	if exit.ExitCode() != 3 {
		t.Errorf("exit code %d, want 3", exit.ExitCode())
	}
	want := []string{"starting", "no credentials", "giving up"}
	if strings.Join(exit.Stderr, "|") != strings.Join(want, "|") {
		t.Errorf("stderr %q, want %q", exit.Stderr, want)
	}
	for _, s := range []string{"exit status 3", "no answer to initialize", "\tgiving up"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
	cerr := p.Close()
	if !errors.As(cerr, &exit) || exit.ExitCode() != 3 {
		t.Errorf("Close gave %v, want the exit status 3", cerr)
	}
}

// TestExplainRunning: an agent whose output has not ended is running, and
// Explain returns at once, without a wait.
func TestExplainRunning(t *testing.T) {
	p := start(t, "echo", short)
	want := errors.New("x")
	start := time.Now()
	if err := p.Explain(want); err != want {
		t.Errorf("Explain of a running agent gave %v", err)
	}
	if took := time.Since(start); took > 100*time.Millisecond {
		t.Errorf("Explain of a running agent took %v", took)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestStderr(t *testing.T) {
	var w, logged syncBuffer
	logger := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	p := start(t, "stderr", &Options{Stderr: &w, Logger: logger, TailLines: 1})
	br := bufio.NewReader(p)
	if line, err := br.ReadString('\n'); err != nil || line != "out\n" {
		t.Fatalf("the first line of output %q, %v; want out", line, err)
	}
	echo(t, p, br)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if w.String() != "one\ntwo\n" {
		t.Errorf("Stderr got %q", w.String())
	}
	for _, s := range []string{`msg="agent stderr" pid=` + strconv.Itoa(p.Pid()) + " line=one\n", "line=two\n"} {
		if !strings.Contains(logged.String(), s) {
			t.Errorf("the log %q lacks %q", logged.String(), s)
		}
	}
	if tail := p.StderrTail(); len(tail) != 1 || tail[0] != "two" {
		t.Errorf("tail %q, want [two]", tail)
	}
}

func TestStartErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Start(ctx, agentCmd(t, "echo"), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled start: %v", err)
	}
	if _, err := Start(context.Background(), exec.Command("/nonexistent/agent"), nil); err == nil || !strings.Contains(err.Error(), "/nonexistent/agent") {
		t.Errorf("a missing command: %v", err)
	}
	cmd := agentCmd(t, "echo")
	cmd.Stdout = io.Discard
	if _, err := Start(context.Background(), cmd, nil); err == nil {
		t.Error("a command with its own Stdout started")
	}
}

// TestMergeStderr: with MergeStderr, standard error comes through Read,
// in order with standard output, and the tail stays empty.
func TestMergeStderr(t *testing.T) {
	var logged bytes.Buffer
	p := start(t, "stderr", &Options{Grace: 3 * time.Second, Stderr: &logged, MergeStderr: true})
	p.CloseWrite()
	out, err := io.ReadAll(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), "one\ntwo\nout\n"; got != want {
		t.Errorf("Read gave %q, want %q", got, want)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if logged.Len() != 0 || len(p.StderrTail()) != 0 {
		t.Errorf("standard error also went to Stderr (%q) or the tail (%q)", logged.String(), p.StderrTail())
	}
}
