package acpstore

import (
	"encoding/binary"
	"strings"
	"testing"
)

// frame is the sizes of a row of updates, as appendHistory writes them.
func frame(updates ...string) (body, sizes []byte) {
	for _, u := range updates {
		body = append(body, u...)
		sizes = binary.AppendUvarint(sizes, uint64(len(u)))
	}
	return body, sizes
}

func TestRowUpdates(t *testing.T) {
	body, sizes := frame(`{"a":1}`, ``, `{"b":"`+strings.Repeat("x", 300)+`"}`)
	var got []string
	var seqs []uint64
	err := rowUpdates("sess_1", 7, 3, body, sizes, func(seq uint64, u []byte) error {
		got, seqs = append(got, string(u)), append(seqs, seq)
		return nil
	})
	if err != nil || len(got) != 3 || got[0] != `{"a":1}` || got[1] != "" || len(got[2]) != 308 || seqs[0] != 7 || seqs[2] != 9 {
		t.Fatalf("rowUpdates of a framed row: %q at %v, %v", got, seqs, err)
	}
	one := 0
	if err := rowUpdates("sess_1", 4, 1, []byte(`{"c":3}`), nil, func(seq uint64, u []byte) error {
		one++
		if seq != 4 || string(u) != `{"c":3}` {
			t.Errorf("a row of one update: %d %q", seq, u)
		}
		return nil
	}); err != nil || one != 1 {
		t.Fatalf("a row of one update: %d updates, %v", one, err)
	}
	bad := []struct {
		name  string
		n     int64
		body  []byte
		sizes []byte
	}{
		{"more updates than sizes", 4, body, sizes},
		{"fewer updates than sizes", 2, body, sizes},
		{"no sizes for two updates", 2, body, nil},
		{"sizes past the body", 3, body[:len(body)-1], sizes},
		{"bytes after the updates", 3, append(append([]byte(nil), body...), 'x'), sizes},
		{"a size that is no uvarint", 1, body, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{"a size past any body", 1, body, binary.AppendUvarint(nil, 1<<62)},
		{"no updates", 0, nil, []byte{}},
	}
	for _, c := range bad {
		err := rowUpdates("sess_9", 12, c.n, c.body, c.sizes, func(uint64, []byte) error { return nil })
		if err == nil || !strings.Contains(err.Error(), `"sess_9" is damaged`) || !strings.Contains(err.Error(), "position 12") {
			t.Errorf("%s: %v, want an error that names the session and the row", c.name, err)
		}
	}
}

// FuzzRowUpdates: any row, however damaged, is read without a panic, and
// a row read whole gives updates that are its body, in order.
func FuzzRowUpdates(f *testing.F) {
	body, sizes := frame(`{"a":1}`, `{"b":2}`)
	f.Add(int64(2), body, sizes)
	f.Add(int64(1), []byte(`{}`), []byte(nil))
	f.Add(int64(3), body, []byte{0x80})
	f.Fuzz(func(t *testing.T, n int64, body, sizes []byte) {
		var joined []byte
		err := rowUpdates("s", 1, n, body, sizes, func(_ uint64, u []byte) error {
			joined = append(joined, u...)
			return nil
		})
		if err == nil && string(joined) != string(body) {
			t.Fatalf("a row read whole gave %q of body %q", joined, body)
		}
	})
}

func TestCutSizes(t *testing.T) {
	_, sizes := frame("a", "bb", "ccc")
	if got := cutSizes(sizes, 1); string(got) != string([]byte{2, 3}) {
		t.Errorf("cutSizes(1) = %v, want [2 3]", got)
	}
	if got := cutSizes(sizes, 2); got != nil {
		t.Errorf("cutSizes(2) = %v, want nil: one update left needs no sizes", got)
	}
}
