package acphttp

import "bytes"

// lineBuffer holds the end of a writer's output that has no newline yet:
// the start of a message whose line a later write finishes.
type lineBuffer struct{ partial []byte }

// split passes each whole line of what the buffer holds followed by p to
// each, without its line end or the white space around it, and skips blank
// lines; it keeps the rest for the next call. It stops at the first error
// each returns, keeping nothing. fits reports whether the rest is at most
// max bytes long; a longer rest is not kept.
func (b *lineBuffer) split(p []byte, max int, each func(line []byte) error) (fits bool, err error) {
	data := p
	if len(b.partial) > 0 {
		data = append(b.partial, p...)
	}
	b.partial = nil
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		line := bytes.TrimSpace(data[:i])
		data = data[i+1:]
		if len(line) == 0 {
			continue
		}
		if err := each(line); err != nil {
			return true, err
		}
	}
	if len(data) > max {
		return false, nil
	}
	if len(data) > 0 {
		b.partial = bytes.Clone(data)
	}
	return true, nil
}
