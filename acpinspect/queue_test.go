package acpinspect

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// stalled is a GapRecorder that records nothing until released, and then
// keeps what it is handed and the gaps it is told of.
type stalled struct {
	frames
	release chan struct{}
	mu      sync.Mutex
	gaps    map[Sender][2]int // lines, bytes
}

func (s *stalled) Record(f Frame) {
	<-s.release
	s.frames.Record(f)
}

func (s *stalled) Gap(conn int64, from Sender, lines, bytes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.gaps[from]
	s.gaps[from] = [2]int{g[0] + lines, g[1] + bytes}
}

// notifyWriter closes full once n bytes were written to it.
type notifyWriter struct {
	syncBuffer
	n    int
	full chan struct{}
	once sync.Once
}

func (w *notifyWriter) Write(p []byte) (int, error) {
	n, err := w.syncBuffer.Write(p)
	if len(w.Bytes()) >= w.n {
		w.once.Do(func() { close(w.full) })
	}
	return n, err
}

// TestTapRecorderBehind: a recorder that does not take a frame until all
// the traffic has passed does not hold the traffic up: every byte passes,
// in order; what was queued in the bound is recorded whole and in order,
// and the rest is told as gaps whose lines and bytes, with the lines
// recorded, are all the lines and bytes that passed.
func TestTapRecorderBehind(t *testing.T) {
	const n = 10000
	var in bytes.Buffer
	var lines []string
	for i := range n {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"_test/frame","params":{"n":%d,"pad":"%s"}}`, i, strings.Repeat("x", i%500))
		lines = append(lines, line)
		in.WriteString(line + "\n")
	}
	want := in.Bytes()
	pr, pw := io.Pipe()
	go func() {
		b := want
		for len(b) > 0 {
			k := min(len(b), 1+len(b)%9973)
			pw.Write(b[:k])
			b = b[k:]
		}
		pw.Close()
	}()
	rec := &stalled{release: make(chan struct{}), gaps: map[Sender][2]int{}}
	out := &notifyWriter{n: len(want), full: make(chan struct{})}
	go func() {
		select {
		case <-out.full:
		case <-time.After(60 * time.Second):
		}
		close(rec.release)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if err := Tap(ctx, agentCommand(t, "echo"), TapOptions{Stdin: pr, Stdout: out, Stderr: io.Discard, Recorder: rec, MaxPending: 64 << 10}); err != nil {
		t.Fatalf("Tap: %v", err)
	}
	select {
	case <-out.full:
	default:
		t.Fatalf("the client got %d bytes of %d", len(out.Bytes()), len(want))
	}
	if got := out.Bytes(); !bytes.Equal(got, want) {
		t.Fatalf("the client's bytes came back changed (first difference at %d)", firstDiff(got, want))
	}
	for _, s := range []Sender{FromClient, FromAgent} {
		got := rec.from(s)
		next, size := 0, 0
		for _, f := range got {
			for next < n && lines[next] != string(f.Data) {
				next++
			}
			if next == n {
				t.Fatalf("from the %s: frame %.60q… is not a line sent, or out of order", s, f.Data)
			}
			size += len(f.Data) + 1
			next++
		}
		g := rec.gaps[s]
		if g[0] == 0 {
			t.Errorf("from the %s: no gap told, with a 64 KiB bound and a stalled recorder", s)
		}
		if len(got)+g[0] != n || size+g[1] != len(want) {
			t.Errorf("from the %s: %d lines recorded and %d in gaps (%d and %d bytes), want %d lines and %d bytes in all", s, len(got), g[0], size, g[1], n, len(want))
		}
	}
}

// TestInspectorGap: the summary counts what passed unrecorded.
func TestInspectorGap(t *testing.T) {
	in := NewInspector()
	Recorders{in, &frames{}}.Gap(1, FromAgent, 3, 300)
	in.Gap(1, FromClient, 1, 20)
	if l, b := in.Dropped(); l != 4 || b != 320 {
		t.Fatalf("Dropped() = %d, %d; want 4, 320", l, b)
	}
	ui := NewUI(in, UIOptions{})
	if s := ui.makeSummary(); s.Dropped != 4 || s.DroppedBytes != 320 {
		t.Fatalf("summary: %d dropped (%d bytes), want 4 (320)", s.Dropped, s.DroppedBytes)
	}
}

// chunkReader returns reads of size bytes of data, round and round; data
// holds its text twice, so that a read never wraps.
type chunkReader struct {
	data []byte
	size int
	off  int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	n := copy(p[:min(r.size, len(p))], r.data[r.off:])
	r.off = (r.off + n) % (len(r.data) / 2)
	return n, nil
}

// limitedReads ends a reader after n reads.
type limitedReads struct {
	r io.Reader
	n int
}

func (l *limitedReads) Read(p []byte) (int, error) {
	if l.n == 0 {
		return 0, io.EOF
	}
	l.n--
	return l.r.Read(p)
}

// BenchmarkPass: the forwarding goroutine's work for one read (of 300
// bytes, one message, and of 16 KiB), written on and handed to a recorder
// that keeps nothing (its splitting into lines runs beside it, as it does
// when the bytes pending reach half their bound), against io.CopyBuffer
// on the same reads ("copy"): no allocation a read.
func BenchmarkPass(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + strings.Repeat("x", 150) + `"}}}}` + "\n")
	data := bytes.Repeat(line, 128)
	for _, size := range []int{len(line), 16 << 10} {
		b.Run(fmt.Sprintf("copy/%d", size), func(b *testing.B) {
			r := &limitedReads{&chunkReader{data: data, size: size}, b.N}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			io.CopyBuffer(struct{ io.Writer }{io.Discard}, r, make([]byte, copyBuffer))
		})
		b.Run(fmt.Sprintf("tap/%d", size), func(b *testing.B) {
			q := newQueue(0)
			done := make(chan struct{})
			go pump(q, discard{}, done)
			r := &limitedReads{&chunkReader{data: data, size: size}, b.N}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			b.ResetTimer()
			pass(io.Discard, r, q, streamKey{1, FromAgent})
			b.StopTimer()
			q.close()
			<-done
		})
	}
}
