package acpconductor

import (
	"errors"
	"fmt"
	"strings"
)

// Split splits a command line into words as a POSIX shell does, without
// running one and without expanding anything: words are separated by
// blanks (spaces, tabs, newlines); single quotes keep everything up to the
// next single quote; double quotes keep everything but \", \\, \$, \` and
// a backslash-newline (which is removed); outside quotes a backslash keeps
// the next character (a backslash-newline is removed). "" and ” make an
// empty word. An unterminated quote or a trailing backslash is an error
// that names its position.
func Split(s string) ([]string, error) {
	var (
		words []string
		w     strings.Builder
		inW   bool // a word has started, maybe empty ("")
	)
	end := func() {
		if inW {
			words = append(words, w.String())
			w.Reset()
			inW = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			end()
		case c == '\\':
			if i+1 == len(s) {
				return nil, fmt.Errorf("a backslash at the end of %q escapes nothing", s)
			}
			i++
			if s[i] != '\n' {
				w.WriteByte(s[i])
				inW = true
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("the single quote at byte %d of %q is not closed", i, s)
			}
			w.WriteString(s[i+1 : i+1+j])
			inW = true
			i += j + 1
		case c == '"':
			n, err := doubleQuoted(s, i, &w)
			if err != nil {
				return nil, err
			}
			inW = true
			i = n
		default:
			w.WriteByte(c)
			inW = true
		}
	}
	end()
	return words, nil
}

// doubleQuoted writes the text of the double-quoted string that starts at
// s[open] to w and returns the index of its closing quote.
func doubleQuoted(s string, open int, w *strings.Builder) (int, error) {
	for i := open + 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return i, nil
		case '\\':
			if i+1 < len(s) {
				switch s[i+1] {
				case '"', '\\', '$', '`':
					w.WriteByte(s[i+1])
					i++
					continue
				case '\n':
					i++
					continue
				}
			}
			w.WriteByte(c)
		default:
			w.WriteByte(c)
		}
	}
	return 0, fmt.Errorf("the double quote at byte %d of %q is not closed", open, s)
}

// errEmpty is a component given as an empty or blank argument.
var errEmpty = errors.New("a component's command is empty")
