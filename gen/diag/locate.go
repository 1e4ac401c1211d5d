package diag

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Locate fills in the line and column of the problems in err, reading each
// file once with read; a pointer the file does not have is placed at its
// nearest enclosing value. It returns err, sorted again by place.
func Locate(err error, read func(file string) ([]byte, error)) error {
	all := All(err)
	byFile := map[string][]*Error{}
	for _, e := range all {
		if e.Line == 0 && e.File != "" {
			byFile[e.File] = append(byFile[e.File], e)
		}
	}
	for file, errs := range byFile {
		data, rerr := read(file)
		if rerr != nil {
			continue
		}
		want := map[string]bool{}
		for _, e := range errs {
			for p := e.Pointer; ; p = parent(p) {
				want[p] = true
				if p == "" {
					break
				}
			}
		}
		offsets := Offsets(data, want)
		for _, e := range errs {
			p := e.Pointer
			for {
				if off, ok := offsets[p]; ok {
					e.Line, e.Column = Position(data, off)
					break
				}
				if p == "" {
					break
				}
				p = parent(p)
			}
		}
	}
	var l *List
	if len(byFile) > 0 && asList(err, &l) {
		l.sort()
	}
	return err
}

func asList(err error, l **List) bool {
	x, ok := err.(*List)
	*l = x
	return ok
}

func parent(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// Position returns the line and column (both from 1, the column in bytes)
// of the byte offset off in data.
func Position(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// Offsets walks the JSON document data and returns the byte offset where the
// value at each JSON pointer in want starts. The walk stops at the first
// syntax error; pointers past it are missing from the result.
func Offsets(data []byte, want map[string]bool) map[string]int {
	out := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	w := &walker{data: data, dec: dec, want: want, out: out}
	w.value("")
	return out
}

type walker struct {
	data []byte
	dec  *json.Decoder
	want map[string]bool
	out  map[string]int
}

// start is the offset of the next value: past the whitespace, colon or comma
// that follow the decoder's last token.
func (w *walker) start() int {
	off := int(w.dec.InputOffset())
	for off < len(w.data) && strings.IndexByte(" \t\r\n:,", w.data[off]) >= 0 {
		off++
	}
	return off
}

func (w *walker) value(ptr string) bool {
	if w.want[ptr] {
		w.out[ptr] = w.start()
	}
	tok, err := w.dec.Token()
	if err != nil {
		return false
	}
	switch tok {
	case json.Delim('{'):
		for w.dec.More() {
			k, err := w.dec.Token()
			if err != nil {
				return false
			}
			key, _ := k.(string)
			if !w.value(ptr + "/" + EscapePointer(key)) {
				return false
			}
		}
	case json.Delim('['):
		for i := 0; w.dec.More(); i++ {
			if !w.value(ptr + "/" + strconv.Itoa(i)) {
				return false
			}
		}
	default:
		return true
	}
	_, err = w.dec.Token()
	return err == nil
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// EscapePointer escapes a member name for a JSON pointer (RFC 6901).
func EscapePointer(s string) string { return pointerEscaper.Replace(s) }
