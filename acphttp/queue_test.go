package acphttp

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestQueueRead checks that Read takes the queued messages in bulk, each
// ending in a newline, however small its buffer, and that a full queue
// lets a stream go on once Read has taken messages.
func TestQueueRead(t *testing.T) {
	var q queue
	q.init()
	ctx := context.Background()
	for _, m := range []string{`{"a":1}`, `{"b":22}`, `{"c":333}`} {
		q.put(ctx, []byte(m), false)
	}
	want := "{\"a\":1}\n{\"b\":22}\n{\"c\":333}\n"
	var got []byte
	p := make([]byte, 5)
	for len(got) < len(want) {
		n, err := q.read(p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p[:n]...)
	}
	if string(got) != want || q.n != 0 || len(q.buf) != 0 {
		t.Fatalf("read %q, %d messages left in %d bytes; want %q and none", got, q.n, len(q.buf), want)
	}

	for range queueBound {
		q.put(ctx, []byte(`{}`), false)
	}
	put := make(chan struct{})
	go func() {
		q.put(ctx, []byte(`{"last":true}`), false) // waits: the queue is full
		close(put)
	}()
	select {
	case <-put:
		t.Fatal("put did not wait for room in a full queue")
	case <-time.After(50 * time.Millisecond):
	}
	big := make([]byte, 3*queueBound)
	if n, err := q.read(big); err != nil || n != 3*queueBound {
		t.Fatalf("read = %d, %v; want all %d bytes of the full queue", n, err, 3*queueBound)
	}
	select {
	case <-put:
	case <-time.After(5 * time.Second):
		t.Fatal("put still waits after the queue was emptied")
	}
	if n, err := q.read(big); err != nil || string(big[:n]) != "{\"last\":true}\n" {
		t.Fatalf("read = %q, %v", big[:n], err)
	}

	reason := errors.New("gone")
	q.fail(reason)
	if _, err := q.read(big); err != reason {
		t.Fatalf("read after fail = %v, want %v", err, reason)
	}
}
