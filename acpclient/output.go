package acpclient

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// output is a terminal's output: the last limit bytes written, cut at a
// character boundary. It is an io.Writer safe for concurrent use.
type output struct {
	mu        sync.Mutex
	limit     int
	buf       []byte
	truncated bool
}

// Write keeps p's bytes, dropping the oldest beyond the limit; the buffer
// grows to twice the limit before it is cut, so that a stream of small
// writes costs no more than one copy of the limit per limit bytes.
func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf = append(o.buf, p...)
	if len(o.buf) > 2*o.limit+utf8.UTFMax {
		cut := o.start()
		n := copy(o.buf, o.buf[cut:])
		o.buf = o.buf[:n]
	}
	return len(p), nil
}

// start returns where the kept output begins: limit bytes from the end,
// moved forward to the start of a character.
func (o *output) start() int {
	i := len(o.buf) - o.limit
	if i <= 0 {
		return 0
	}
	o.truncated = true
	for i < len(o.buf) && !utf8.RuneStart(o.buf[i]) {
		i++
	}
	return i
}

// text returns the output kept and whether older output was dropped. While
// the command runs, a character not yet complete at the end is left for
// the next call; bytes that are not UTF-8 become U+FFFD.
func (o *output) text(running bool) (string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	b := o.buf[o.start():]
	if running {
		b = b[:len(b)-partialTail(b)]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), o.truncated
}

// partialTail returns the length of an incomplete character at the end of
// b, or 0.
func partialTail(b []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(b); n++ {
		c := b[len(b)-n]
		if utf8.RuneStart(c) {
			if c >= utf8.RuneSelf && !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}
