package acphttp

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestSSEReader checks the events the client reads: data lines joined,
// comments and other fields skipped, CRLF and a missing last blank line
// taken, an event with an id alone reported with its id, and an event
// over the limit refused.
func TestSSEReader(t *testing.T) {
	in := ":\n\nevent: x\ndata: {\"a\":1}\r\n\r\ndata:{\"b\":\ndata: 2}\n\nid: 7\n\ndata: last"
	r := newSSEReader(strings.NewReader(in), 100)
	var got, ids []string
	for {
		data, err := r.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 && r.idSeen {
			ids = append(ids, r.id) // an event with an id alone
			continue
		}
		got = append(got, string(data))
	}
	if want := []string{`{"a":1}`, "{\"b\":\n2}", "last"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("events %q, want %q", got, want)
	}
	if len(ids) != 1 || ids[0] != "7" || r.id != "7" {
		t.Errorf("ids %q (last %q), want [7]", ids, r.id)
	}
	big := "data: " + strings.Repeat("x", 200) + "\n\n"
	if _, err := newSSEReader(strings.NewReader(big), 100).next(); err != errMessageTooLarge {
		t.Errorf("an event over the limit: %v", err)
	}
	long := "data: " + strings.Repeat("x", 70<<10) + "\n\n"
	if _, err := newSSEReader(strings.NewReader(long), 100).next(); err != errMessageTooLarge {
		t.Errorf("a line over the buffer and the limit: %v", err)
	}
}

// FuzzSSEReader checks that reading events never panics and never returns
// one over the limit.
func FuzzSSEReader(f *testing.F) {
	f.Add([]byte("data: {}\n\n:\n\ndata: a\r\ndata: b\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		r := newSSEReader(bytes.NewReader(in), 64)
		for range 1000 {
			data, err := r.next()
			if err != nil {
				return
			}
			if len(data) > 64 {
				t.Fatalf("an event of %d bytes", len(data))
			}
		}
	})
}

// TestChunk checks the chunk a batch of events is written as: its size in
// eight hexadecimal digits, the events, and the line end.
func TestChunk(t *testing.T) {
	for _, n := range []int{0, 3, 0x1a2b, 1 << 20} {
		var buf bytes.Buffer
		buf.WriteString(chunkRoom)
		buf.WriteString(strings.Repeat("x", n))
		got := string(chunk(&buf, 0))
		want := fmt.Sprintf("%08x\r\n%s\r\n", n, strings.Repeat("x", n))
		if got != want {
			t.Errorf("chunk of %d bytes: %.20q…, want %.20q…", n, got, want)
		}
	}
}
