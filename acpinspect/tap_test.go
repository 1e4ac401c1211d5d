package acpinspect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpexec"
)

// TestTapFidelity passes 10,000 frames each way through the tap: the
// client's bytes reach the agent and the agent's reach the client
// unchanged and in order (the agent echoes its input, so the output must
// equal the input), a frame longer than one read included; the recorder
// gets each frame once, in order, and the agent's standard error passes
// too.
func TestTapFidelity(t *testing.T) {
	const n = 10000
	var in bytes.Buffer
	var lines []string
	for i := range n {
		size := 20 + i%300
		if i == n/2 {
			size = 200 << 10 // longer than a read of the tap
		}
		line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"_test/frame","params":{"n":%d,"pad":"%s"}}`, i, strings.Repeat("é", size/2))
		lines = append(lines, line)
		in.WriteString(line + "\n")
	}
	want := in.Bytes()
	pr, pw := io.Pipe()
	go func() {
		// Written in uneven pieces, as a client writes.
		b := want
		for len(b) > 0 {
			k := min(len(b), 1+len(b)%7919)
			pw.Write(b[:k])
			b = b[k:]
		}
		pw.Close()
	}()
	var out, errOut syncBuffer
	rec := &frames{}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := Tap(ctx, agentCommand(t, "echo"), TapOptions{Stdin: pr, Stdout: &out, Stderr: &errOut, Recorder: rec}); err != nil {
		t.Fatalf("Tap: %v", err)
	}
	if got := out.Bytes(); !bytes.Equal(got, want) {
		t.Fatalf("the client got %d bytes, want the %d it sent back unchanged (first difference at %d)", len(got), len(want), firstDiff(got, want))
	}
	for _, s := range []Sender{FromClient, FromAgent} {
		got := rec.from(s)
		if len(got) != n {
			t.Fatalf("%d frames recorded from the %s, want %d", len(got), s, n)
		}
		for i, f := range got {
			if string(f.Data) != lines[i] {
				t.Fatalf("frame %d from the %s is %.60q…, want %.60q…", i, s, f.Data, lines[i])
			}
		}
	}
	if !strings.Contains(errOut.String(), "echoed 10000 lines") {
		t.Errorf("the agent's standard error did not pass: %q", errOut.String())
	}
	if got := len(rec.from(FromStderr)); got != n/1000 {
		t.Errorf("%d lines of standard error recorded, want %d", got, n/1000)
	}
}

// TestTapExitCode: an agent that fails is reported with its exit code.
func TestTapExitCode(t *testing.T) {
	cmd := agentCommand(t, "bogus")
	err := Tap(context.Background(), cmd, TapOptions{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
	var ee *acpexec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("Tap of an agent that exits 2: %v", err)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}

func (s *syncBuffer) String() string { return string(s.Bytes()) }
