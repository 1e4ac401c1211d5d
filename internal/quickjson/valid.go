// Code generated from templates/conn/proxy_valid.go by TestCopyIsCurrent -update. DO NOT EDIT.

package quickjson

import "unicode/utf8"

// How a proxy checks the payload of a line in the common layout: one loop
// over its bytes takes the payloads it can tell are valid, and the decoder
// reads the rest.

// quickValid reports true when b is surely one JSON value, white space
// around it aside, by one loop over its bytes; false when it is not, or
// when it holds what the loop leaves to the decoder (a \u escape of a
// surrogate, bytes that are not UTF-8, nesting deeper than 64).
func quickValid(b []byte) bool {
	const (
		value = iota // a value is due
		name         // a member's name is due
		after        // a value ended
	)
	var open [64]byte // the '{' and '[' the value is in
	depth, i, state := 0, 0, value
	for {
		i = quickSpace(b, i)
		switch state {
		case value, name:
			if i == len(b) {
				return false
			}
			c := b[i]
			if state == name {
				if c != '"' {
					return false
				}
				if i = quickString(b, i); i < 0 {
					return false
				}
				if i = quickSpace(b, i); i == len(b) || b[i] != ':' {
					return false
				}
				i, state = i+1, value
				continue
			}
			switch {
			case c == '{' || c == '[':
				if depth == len(open) {
					return false
				}
				open[depth], depth = c, depth+1
				i = quickSpace(b, i+1)
				switch {
				case i < len(b) && b[i] == c+2: // '}' or ']'
					i, depth, state = i+1, depth-1, after
				case c == '{':
					state = name
				}
				continue
			case c == '"':
				i = quickString(b, i)
			case c == 't':
				i = quickLiteral(b, i, "true")
			case c == 'f':
				i = quickLiteral(b, i, "false")
			case c == 'n':
				i = quickLiteral(b, i, "null")
			default:
				i = quickNumber(b, i)
			}
			if i < 0 {
				return false
			}
			state = after
		case after:
			if depth == 0 {
				return i == len(b)
			}
			if i == len(b) {
				return false
			}
			switch c := b[i]; {
			case c == ',':
				i, state = i+1, value
				if open[depth-1] == '{' {
					state = name
				}
			case c == open[depth-1]+2:
				i, depth = i+1, depth-1
			default:
				return false
			}
		}
	}
}

// quickPlain tells the bytes that stand for themselves in a JSON string.
var quickPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func quickSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// quickString returns where the JSON string that starts at b[i] ends, or -1.
func quickString(b []byte, i int) int {
	for i++; i < len(b); {
		for i < len(b) && quickPlain[b[i]] {
			i++
		}
		if i == len(b) {
			return -1
		}
		c := b[i]
		switch {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			if i+1 == len(b) {
				return -1
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !quickEscape(b[i+2:i+6]) {
					return -1
				}
				i += 6
			default:
				return -1
			}
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				return -1
			}
			i += n
		}
	}
	return -1
}

// quickEscape reports whether the four bytes of a \u escape are hex digits
// naming a character that is not a surrogate half.
func quickEscape(h []byte) bool {
	v := 0
	for _, c := range h {
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | int(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | int(c-'a'+10)
		case 'A' <= c && c <= 'F':
			v = v<<4 | int(c-'A'+10)
		default:
			return false
		}
	}
	return v < 0xd800 || v > 0xdfff
}

func quickLiteral(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// quickNumber returns where the JSON number that starts at b[i] ends, or -1.
func quickNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = quickDigits(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if j := quickDigits(b, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := quickDigits(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func quickDigits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
