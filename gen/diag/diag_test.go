package diag

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestError(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{File: "v1/schema.json", Pointer: "/$defs/A", Line: 3, Column: 5, Msg: "bad"}, "v1/schema.json:3:5: /$defs/A: bad"},
		{Error{File: "v1/schema.json", Pointer: "/$defs/A", Msg: "bad"}, "v1/schema.json: /$defs/A: bad"},
		{Error{File: "v1/schema.json", Msg: "bad"}, "v1/schema.json: bad"},
		{Error{Msg: "bad"}, "bad"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// TestList: problems come sorted by place, once each, up to MaxReported.
func TestList(t *testing.T) {
	var l List
	if l.Err() != nil {
		t.Fatal("empty list is an error")
	}
	l.Addf("b.json", "/x", "second file")
	l.Add(&Error{File: "a.json", Pointer: "/$defs/B", Line: 9, Column: 1, Msg: "later"})
	l.Add(&Error{File: "a.json", Pointer: "/$defs/A", Line: 2, Column: 7, Msg: "earlier"})
	l.Add(&Error{File: "a.json", Pointer: "/$defs/A", Line: 2, Column: 7, Msg: "earlier"})
	err := l.Err()
	want := "a.json:2:7: /$defs/A: earlier\na.json:9:1: /$defs/B: later\nb.json: /x: second file"
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err, want)
	}
	var e *Error
	if !errors.As(err, &e) || e.Msg != "earlier" {
		t.Errorf("errors.As finds %v", e)
	}
	var many List
	for i := 0; i < MaxReported+3; i++ {
		many.Addf("f.json", fmt.Sprintf("/%02d", i), "problem")
	}
	lines := strings.Split(many.Err().Error(), "\n")
	if len(lines) != MaxReported+1 || lines[MaxReported] != "and 3 more problems" {
		t.Errorf("long list: %q", lines)
	}
	if got := len(All(many.Err())); got != MaxReported+3 {
		t.Errorf("All = %d problems", got)
	}
}

func TestJoin(t *testing.T) {
	a, b := New("a", "/1", "one"), New("a", "/0", "zero")
	if got := Join(nil, a, b).Error(); got != "a: /0: zero\na: /1: one" {
		t.Errorf("Join = %q", got)
	}
	plain := errors.New("plain")
	if Join(a, plain) != plain {
		t.Error("a plain error is not returned as it is")
	}
	if Join(nil, nil) != nil {
		t.Error("Join of nothing is an error")
	}
}

func TestLocate(t *testing.T) {
	doc := []byte("{\n  \"$defs\": {\n    \"A b\": {\"properties\": {\"x/y\": {\"type\": \"string\"}}},\n    \"C\": [1, {\"d\": true}]\n  }\n}\n")
	var l List
	l.Addf("s.json", "/$defs/A b/properties/x~1y", "slash in a name")
	l.Addf("s.json", "/$defs/C/1/d", "array element")
	l.Addf("s.json", "/$defs/C/missing", "nearest parent")
	l.Addf("s.json", "", "whole file")
	l.Addf("other.json", "/x", "unreadable file")
	err := Locate(l.Err(), func(name string) ([]byte, error) {
		if name != "s.json" {
			return nil, errors.New("no such file")
		}
		return doc, nil
	})
	want := strings.Join([]string{
		"other.json: /x: unreadable file",
		"s.json:1:1: whole file",
		"s.json:3:35: /$defs/A b/properties/x~1y: slash in a name",
		"s.json:4:10: /$defs/C/missing: nearest parent",
		"s.json:4:20: /$defs/C/1/d: array element",
	}, "\n")
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err, want)
	}
}

// TestLinePositions: the line table gives every offset the position that
// Position counts.
func TestLinePositions(t *testing.T) {
	data := []byte("{\n\n  \"a\": 1,\r\n  \"b\": [\n]\n}")
	lines := newLines(data)
	for off := 0; off <= len(data); off++ {
		l1, c1 := Position(data, off)
		l2, c2 := lines.position(off)
		if l1 != l2 || c1 != c2 {
			t.Errorf("offset %d: line table %d:%d, Position %d:%d", off, l2, c2, l1, c1)
		}
	}
}
