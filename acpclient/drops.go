package acpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// Drop is a message from the agent that a v1 client connection drops
// without an answer, so that neither side would hear of it.
type Drop struct {
	Method string // the notification's method; "" for a line that is not one
	Reason string // why it is dropped
}

// WatchV1 returns a reader of r that reports to report each line the agent
// writes that acpv1's client connection will drop in silence: a
// notification whose params do not fit its type (a session/update whose
// tool_call has no title, a "text" that is a number, no sessionUpdate or
// no sessionId), a notification of a method the client side does not
// have, a line that is not JSON, and a line longer than maxLine bytes
// (acpv1.DefaultLimits().MaxMessageBytes when maxLine is 0). Requests and
// responses are not reported: the connection answers a request it cannot
// take, and a bad response fails its call.
//
// Lines pass unchanged, and report is called, in order, before the
// connection reads the line. Each notification is decoded a second time
// here: a diagnostic for development, examples and tests, which costs what
// the connection's own decoding does.
func WatchV1(r io.Reader, maxLine int, report func(Drop)) io.Reader {
	if maxLine <= 0 {
		maxLine = acpv1.DefaultLimits().MaxMessageBytes
	}
	return &watcher{r: r, max: maxLine, report: report}
}

type watcher struct {
	r      io.Reader
	max    int
	report func(Drop)
	line   []byte // the line read so far, up to max bytes
	long   int    // bytes of the current line beyond max; 0 if within
}

func (w *watcher) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	for b := p[:n]; len(b) > 0; {
		i := bytes.IndexByte(b, '\n')
		part := b
		if i >= 0 {
			part, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		w.take(part)
		if i >= 0 {
			w.end()
		}
	}
	return n, err
}

// take adds part to the current line, keeping at most max bytes.
func (w *watcher) take(part []byte) {
	if room := w.max - len(w.line); room < len(part) {
		w.long += len(part) - max(room, 0)
		part = part[:max(room, 0)]
	}
	w.line = append(w.line, part...)
}

// end judges the complete line.
func (w *watcher) end() {
	line, long := w.line, w.long
	w.line, w.long = w.line[:0], 0
	if long > 0 {
		w.report(Drop{Reason: fmt.Sprintf("a line of %d bytes, over the limit of %d", len(line)+long, w.max)})
		return
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		w.report(Drop{Reason: "not JSON: " + err.Error()})
		return
	}
	if m.ID != nil || m.Method == "" {
		return
	}
	var err error
	switch {
	case m.Method == acpv1.MethodSessionUpdate:
		err = new(acpv1.SessionNotification).UnmarshalJSON(m.Params)
	case m.Method == acpv1.MethodCompleteElicitation:
		err = new(acpv1.CompleteElicitationNotification).UnmarshalJSON(m.Params)
	case strings.HasPrefix(m.Method, "_"):
		return // an extension, the client's to take or leave
	default:
		err = fmt.Errorf("the client side has no notification %q", m.Method)
	}
	if err != nil {
		w.report(Drop{Method: m.Method, Reason: err.Error()})
	}
}
