package acpconductor

import (
	"errors"
	"slices"
	"testing"
)

// writes records each Write it gets.
type writes struct {
	got [][]byte
	err error
}

func (w *writes) Write(b []byte) (int, error) {
	w.got = append(w.got, slices.Clone(b))
	if w.err != nil {
		return 0, w.err
	}
	return len(b), nil
}

// TestOutboxOneWrite: the lines queued while the writer waits go out in
// one Write, in order, each logged on its own; after close a line is
// dropped and the writer ends.
func TestOutboxOneWrite(t *testing.T) {
	o := newOutbox()
	o.put([]byte(`{"a":1}`))
	o.add(false, func(b []byte) []byte { return appendWrap(b, []byte("7"), []byte(`"m"`), []byte(`{"x":"\r"}`)) })
	o.add(false, func(b []byte) []byte {
		return appendSplice(b, []byte(`{"id":12,"r":1}`), []span{{6, 8}}, [][]byte{[]byte(`"a"`)})
	})
	o.close()
	if o.add(true, func(b []byte) []byte { return append(b, "late"...) }) {
		t.Error("a line queued after close")
	}
	w := &writes{}
	var logged []string
	o.run(w, func(line []byte) { logged = append(logged, string(line)) })
	want := []string{
		`{"a":1}`,
		`{"jsonrpc":"2.0","id":7,"method":"proxy/successor","params":{"method":"m","params":{"x":"\r"}}}`,
		`{"id":"a","r":1}`,
	}
	all := ""
	for _, l := range want {
		all += l + "\n"
	}
	if len(w.got) != 1 || string(w.got[0]) != all {
		t.Errorf("written as %q, want one write of %q", w.got, all)
	}
	if !slices.Equal(logged, want) {
		t.Errorf("logged %q, want %q", logged, want)
	}
}

// TestOutboxWriteError: after a failed write the writer writes no more,
// still logs what it is given, and ends at close.
func TestOutboxWriteError(t *testing.T) {
	o := newOutbox()
	w := &writes{err: errors.New("broken pipe")}
	var logged int
	ended := make(chan struct{})
	go func() { o.run(w, func([]byte) { logged++ }); close(ended) }()
	o.put([]byte("1"))
	o.put([]byte("2"))
	o.close()
	<-ended
	if len(w.got) != 1 || o.err == nil || logged != 2 {
		t.Errorf("%d writes (%q), error %v, %d lines logged; want one write, the error, 2 lines", len(w.got), w.got, o.err, logged)
	}
}
