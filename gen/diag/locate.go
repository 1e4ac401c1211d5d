package diag

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Locate fills in the line and column of the problems in err, reading each
// file once with read; a pointer the file does not have is placed at its
// nearest enclosing value. It returns err, sorted again by place. The cost
// is one walk of each file and of each problem's pointer, at any depth.
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
		root := &place{off: -1}
		toks := make([][]string, len(errs))
		for i, e := range errs {
			toks[i] = tokens(e.Pointer)
			root.add(toks[i])
		}
		w := &walker{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
		w.dec.UseNumber()
		w.value(root)
		lines := newLines(data)
		for i, e := range errs {
			if off := root.nearest(toks[i]); off >= 0 {
				e.Line, e.Column = lines.position(off)
			}
		}
	}
	var l *List
	if len(byFile) > 0 && asList(err, &l) {
		l.sort()
	}
	return err
}

// place is a value that a problem's pointer goes through: the pointers of
// a file's problems make a tree, which the walk of the file follows.
type place struct {
	off  int // where the value starts in the file, -1 until it is found
	kids map[string]*place
}

// add adds the places of a JSON pointer, split into its tokens, below pl.
func (pl *place) add(toks []string) {
	for _, tok := range toks {
		next := pl.kids[tok]
		if next == nil {
			if pl.kids == nil {
				pl.kids = map[string]*place{}
			}
			next = &place{off: -1}
			pl.kids[tok] = next
		}
		pl = next
	}
}

// nearest returns the offset of the deepest value on the way to the
// pointer with tokens toks that the file has, or -1.
func (pl *place) nearest(toks []string) int {
	off := pl.off
	for _, tok := range toks {
		if pl = pl.kids[tok]; pl == nil {
			break
		}
		if pl.off >= 0 {
			off = pl.off
		}
	}
	return off
}

// tokens splits a JSON pointer into its unescaped member names and indexes.
func tokens(p string) []string {
	if p == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, t := range toks {
		if strings.IndexByte(t, '~') >= 0 {
			toks[i] = pointerUnescaper.Replace(t)
		}
	}
	return toks
}

func asList(err error, l **List) bool {
	x, ok := err.(*List)
	*l = x
	return ok
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

// lineStarts holds the offset of each line of a file, for finding the
// positions of many offsets in one pass over the file.
type lineStarts []int

func newLines(data []byte) lineStarts {
	starts := lineStarts{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// position returns what Position does, for the file the starts are of.
func (ls lineStarts) position(off int) (line, col int) {
	i := sort.Search(len(ls), func(i int) bool { return ls[i] > off }) - 1
	return i + 1, off - ls[i] + 1
}

type walker struct {
	data []byte
	dec  *json.Decoder
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

// value reads the next value, recording where it starts in pl, and the
// places below pl in what it holds; pl is nil for a value no problem is in.
// It reports false at a syntax error, where the walk stops.
func (w *walker) value(pl *place) bool {
	if pl != nil {
		pl.off = w.start()
	}
	tok, err := w.dec.Token()
	if err != nil {
		return false
	}
	kid := func(key string) *place {
		if pl == nil {
			return nil
		}
		return pl.kids[key]
	}
	switch tok {
	case json.Delim('{'):
		for w.dec.More() {
			k, err := w.dec.Token()
			if err != nil {
				return false
			}
			key, _ := k.(string)
			if !w.value(kid(key)) {
				return false
			}
		}
	case json.Delim('['):
		for i := 0; w.dec.More(); i++ {
			var next *place
			if pl != nil && pl.kids != nil {
				next = kid(strconv.Itoa(i))
			}
			if !w.value(next) {
				return false
			}
		}
	default:
		return true
	}
	_, err = w.dec.Token()
	return err == nil
}

var (
	pointerEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// EscapePointer escapes a member name for a JSON pointer (RFC 6901).
func EscapePointer(s string) string { return pointerEscaper.Replace(s) }
