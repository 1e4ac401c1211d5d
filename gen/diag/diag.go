// Package diag is the generator's one error type: a problem in a schema file
// at a JSON pointer, with its line and column, told in a plain sentence.
// Every stage reports bad input with it; several problems are reported
// together, sorted by place, up to MaxReported.
package diag

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in a schema file.
type Error struct {
	// File is the schema file's slash-separated path inside the schema
	// directory ("v1/schema.json").
	File string
	// Pointer is the JSON pointer (RFC 6901, not URL-escaped) of the value
	// the problem is about ("/$defs/Plan/properties/entries"); "" for the
	// whole file.
	Pointer string
	// Line and Column locate Pointer's value in File, from 1; 0 when unknown
	// (Locate fills them in).
	Line, Column int
	// Msg says what is wrong, as a sentence.
	Msg string
}

// Error formats e as "file:line:column: pointer: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	if e.Pointer != "" {
		if b.Len() > 0 {
			b.WriteString(": ")
		}
		b.WriteString(e.Pointer)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// New returns an Error about the value at pointer in file.
func New(file, pointer, format string, args ...any) *Error {
	return &Error{File: file, Pointer: pointer, Msg: fmt.Sprintf(format, args...)}
}

// MaxReported is how many problems an error message lists; the rest are counted.
const MaxReported = 10

// List is several problems, reported together. Its zero value is empty and
// ready to use.
type List struct {
	errs []*Error
}

// Add records e.
func (l *List) Add(e *Error) { l.errs = append(l.errs, e) }

// Addf records a problem at pointer in file.
func (l *List) Addf(file, pointer, format string, args ...any) {
	l.Add(New(file, pointer, format, args...))
}

// Len is the number of problems recorded.
func (l *List) Len() int { return len(l.errs) }

// Err returns the problems as one error, sorted, or nil when there are none.
func (l *List) Err() error {
	if len(l.errs) == 0 {
		return nil
	}
	out := &List{errs: append([]*Error(nil), l.errs...)}
	out.sort()
	return out
}

func (l *List) sort() {
	sort.SliceStable(l.errs, func(i, j int) bool {
		a, b := l.errs[i], l.errs[j]
		switch {
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Column != b.Column:
			return a.Column < b.Column
		case a.Pointer != b.Pointer:
			return a.Pointer < b.Pointer
		}
		return a.Msg < b.Msg
	})
	// The same problem found twice (a type the stable and unstable files
	// share) is told once.
	out := l.errs[:0]
	for i, e := range l.errs {
		if i > 0 && *e == *l.errs[i-1] {
			continue
		}
		out = append(out, e)
	}
	l.errs = out
}

// Errors returns the problems, sorted.
func (l *List) Errors() []*Error { return l.errs }

// Error lists the first MaxReported problems, one a line.
func (l *List) Error() string {
	var lines []string
	for i, e := range l.errs {
		if i == MaxReported {
			lines = append(lines, fmt.Sprintf("and %d more problems", len(l.errs)-MaxReported))
			break
		}
		lines = append(lines, e.Error())
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.As find each problem.
func (l *List) Unwrap() []error {
	out := make([]error, len(l.errs))
	for i, e := range l.errs {
		out[i] = e
	}
	return out
}

// All returns the problems err holds: the Errors of a List, an Error, or
// nil when err is of neither kind.
func All(err error) []*Error {
	var l *List
	if errors.As(err, &l) {
		return l.errs
	}
	var e *Error
	if errors.As(err, &e) {
		return []*Error{e}
	}
	return nil
}

// Join merges the problems of several errors into one sorted List; errors
// that are not diag errors are returned as they are, the first one winning.
func Join(errs ...error) error {
	var l List
	for _, err := range errs {
		if err == nil {
			continue
		}
		all := All(err)
		if all == nil {
			return err
		}
		for _, e := range all {
			l.Add(e)
		}
	}
	return l.Err()
}
