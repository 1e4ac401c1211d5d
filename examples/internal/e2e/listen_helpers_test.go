package e2e

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// server is an agent process serving ACP over the network, started by
// listen.
type server struct {
	URL  string // http://HOST:PORT/acp, as the process printed it
	cmd  *exec.Cmd
	log  *stderrLog
	done chan struct{} // closed when the process has exited
	err  error         // its exit status, once done is closed
}

// listen starts cmd, an agent that prints "listening on URL" as the first
// line of its standard error once it accepts connections, and returns it
// with that URL, on 127.0.0.1 or [::1]. The test's cleanup stops it if it is still running.
func listen(t *testing.T, cmd *exec.Cmd) *server {
	t.Helper()
	s := &server{cmd: cmd, log: &stderrLog{first: make(chan string, 1)}, done: make(chan struct{})}
	cmd.Stderr = s.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.err = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() { s.stop() })
	select {
	case line := <-s.log.first:
		url, ok := strings.CutPrefix(line, "listening on ")
		loopback := strings.HasPrefix(url, "http://127.0.0.1:") || strings.HasPrefix(url, "http://[::1]:")
		if !ok || !loopback || !strings.HasSuffix(url, "/acp") {
			t.Fatalf("%s printed %q first, want \"listening on http://127.0.0.1:PORT/acp\" (or [::1])", cmd.Path, line)
		}
		s.URL = url
	case <-s.done:
		t.Fatalf("%s exited before listening: %v\n%s", cmd.Path, s.err, s.output())
	case <-time.After(30 * time.Second):
		t.Fatalf("%s printed no listening line in 30s", cmd.Path)
	}
	return s
}

// stop sends the process SIGTERM and returns how it exited, killing it if it
// has not exited within ten seconds.
func (s *server) stop() error {
	select {
	case <-s.done:
		return s.err
	default:
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
		return s.err
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		return errors.New("still running 10s after SIGTERM")
	}
}

// output returns what the process printed to standard error after its first
// line, so far.
func (s *server) output() string { return s.log.String() }

// stderrLog is the standard error of a server: it sends the first line on
// first and keeps the rest.
type stderrLog struct {
	first chan string

	mu   sync.Mutex
	sent bool
	buf  bytes.Buffer
}

func (l *stderrLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	if !l.sent {
		if line, rest, ok := bytes.Cut(l.buf.Bytes(), []byte("\n")); ok {
			l.first <- string(line)
			l.sent = true
			l.buf = *bytes.NewBuffer(bytes.Clone(rest))
		}
	}
	return len(p), nil
}

func (l *stderrLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// runOutput runs the command within a minute and returns its standard output, failing
// the test with its standard error when it fails.
func runOutput(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

// lockedBuffer is a bytes.Buffer that a process writes while a test reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
