package acphttp

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// Resumable makes the streams of a Server resumable, after the RFD
// "Durable & Resumable HTTP/WS Transport" (a draft: the option is off by
// default while it is one). Each server-to-client stream numbers its
// messages with a cursor, sent as the SSE event's id and as
// _meta["acp/cursor"] of the message's params (a response's result) on
// both profiles, and keeps the messages it has sent in a ring bounded by
// RetentionMessages and RetentionAge. A client that lost its stream
// comes back with the cursor of the last message it got (a GET with
// Last-Event-ID, or a WebSocket whose first frame is stream/resume) and
// gets every message after it, identical, then the live stream; a cursor
// the server no longer holds, or never gave, is refused (409, or
// stream/resume_failed) rather than answered with a live stream that
// misses messages. A connection whose streams have no receiver keeps its
// sessions and running turns for Grace, then ends.
//
// The initialize result advertises it as
// _meta["acp/transport"] = {"resumable": {"retentionMessages", "retentionSeconds"}}.
type Resumable struct {
	// RetentionMessages bounds the messages each stream keeps once sent;
	// zero means DefaultRetentionMessages.
	RetentionMessages int
	// RetentionAge bounds how long a sent message is kept; zero means
	// DefaultRetentionAge.
	RetentionAge time.Duration
	// Grace is how long a connection whose streams have no receiver (a
	// WebSocket closed, the connection's SSE stream gone) lives on for its
	// client to resume it; zero means DefaultGrace.
	Grace time.Duration
	// KeepAlive is the interval of the SSE comments and WebSocket pings
	// of an idle stream; zero means DefaultKeepAlive. A client that hears
	// nothing for five intervals takes the stream for dead.
	KeepAlive time.Duration
}

// The defaults of Resumable.
const (
	DefaultRetentionMessages = 1024
	DefaultRetentionAge      = 5 * time.Minute
	DefaultGrace             = time.Minute
	DefaultKeepAlive         = 15 * time.Second
)

// withDefaults returns r with each zero or negative field set to its
// default.
func (r Resumable) withDefaults() Resumable {
	if r.RetentionMessages <= 0 {
		r.RetentionMessages = DefaultRetentionMessages
	}
	if r.RetentionAge <= 0 {
		r.RetentionAge = DefaultRetentionAge
	}
	if r.Grace <= 0 {
		r.Grace = DefaultGrace
	}
	if r.KeepAlive <= 0 {
		r.KeepAlive = DefaultKeepAlive
	}
	return r
}

// advertisement is the _meta member of the initialize result that tells
// the client the streams are resumable.
func (r *Resumable) advertisement() []byte {
	b := []byte(`{"resumable":{"retentionMessages":`)
	b = strconv.AppendInt(b, int64(r.RetentionMessages), 10)
	b = append(b, `,"retentionSeconds":`...)
	b = strconv.AppendInt(b, int64(r.RetentionAge/time.Second), 10)
	return append(b, "}}"...)
}

// The _meta keys of the RFD.
const (
	metaCursor    = "acp/cursor"
	metaTransport = "acp/transport"
	metaTurnState = "acp/turnState"
)

// The reasons of a refused resume.
const (
	reasonUnknown = "unknown_cursor" // a cursor the stream never gave
	reasonExpired = "expired_cursor" // one past the stream's retention
	reasonForeign = "foreign_cursor" // one of another stream
)

// streamLog numbers the messages of one stream and keeps those sent, for
// a resume. A cursor is the stream's tag, a dot, and the message's
// number: opaque to clients, and told apart from another stream's,
// another connection's or another process's by the tag.
type streamLog struct {
	tag  string
	next uint64 // the number of the next message
	base uint64 // the number of the oldest message sent
	sent ring   // the messages sent, oldest first
	// framed: the messages are SSE events (id and data lines); otherwise
	// JSON texts, for a WebSocket.
	framed bool
	// slab is where stampAt writes the messages it stamps, one after the
	// other: a message costs no allocation of its own, and a slab goes
	// once the stream has let go of every message in it (sent and dropped
	// from the ring).
	slab []byte
}

// The sizes of a stream's slabs: the first is small, for a stream that
// sends a few messages and idles keeps little, and each next one twice
// the last, up to slabMax. A message larger than slabMax/4 has an
// allocation of its own.
const (
	slabMin = 512
	slabMax = 32 << 10
)

func newStreamLog(framed bool) *streamLog {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return &streamLog{tag: hex.EncodeToString(b[:]), next: 1, base: 1, framed: framed}
}

// cursor returns the cursor of the message numbered n.
func (l *streamLog) cursor(n uint64) string {
	return l.tag + "." + strconv.FormatUint(n, 10)
}

// stamp numbers msg, the stream's next message: it returns msg with its
// cursor in _meta, as an SSE event when the stream is one.
func (l *streamLog) stamp(msg []byte, m *message) []byte {
	n := l.next
	l.next++
	where := "params"
	if m.isResponse() {
		where = "result"
	}
	if at, ok := plainMetaPlace(msg, where); ok {
		return l.stampAt(msg, at, n)
	}
	c := l.cursor(n)
	q, _ := jsontext.AppendQuote(nil, c)
	msg = withMeta(msg, where, metaCursor, q)
	if !l.framed {
		return msg
	}
	ev := make([]byte, 0, len(msg)+len(c)+14)
	ev = append(ev, "id: "...)
	ev = append(ev, c...)
	ev = append(ev, "\ndata: "...)
	ev = append(ev, msg...)
	return append(ev, "\n\n"...)
}

// stampAt is stamp for a message whose params (or result) object opens
// just before at and has no _meta: the cursor's _meta goes first in it,
// and the message, stamped and framed, is written in one allocation, as
// withMeta and the framing would write it.
func (l *streamLog) stampAt(msg []byte, at int, n uint64) []byte {
	size := len(msg) + len(`"_meta":{"acp/cursor":""},`) + len(l.tag) + 21
	if l.framed {
		size += len("id: \ndata: \n\n") + len(l.tag) + 21
	}
	out := l.room(size)
	if l.framed {
		out = append(out, "id: "...)
		out = l.appendCursor(out, n)
		out = append(out, "\ndata: "...)
	}
	out = append(out, msg[:at]...)
	out = append(out, `"_meta":{"`+metaCursor+`":"`...)
	out = l.appendCursor(out, n)
	out = append(out, `"}`...)
	if msg[at] != '}' {
		out = append(out, ',')
	}
	out = append(out, msg[at:]...)
	if l.framed {
		out = append(out, "\n\n"...)
	}
	return l.keep(out)
}

// room returns an empty slice with room for n bytes, in the stream's slab
// when it fits one; keep ends its use.
func (l *streamLog) room(n int) []byte {
	if n > slabMax/4 {
		return make([]byte, 0, n)
	}
	if cap(l.slab)-len(l.slab) < n {
		size := slabMin
		if cap(l.slab) > 0 {
			size = min(2*cap(l.slab), slabMax)
		}
		l.slab = make([]byte, 0, max(size, n))
	}
	at := len(l.slab)
	return l.slab[at:at:cap(l.slab)]
}

// keep returns out, written in the room room returned, and takes its
// bytes from the slab: the rest of the room stays for the next message,
// and out's capacity ends with it, so that an append to out copies it.
func (l *streamLog) keep(out []byte) []byte {
	at := len(l.slab)
	if cap(out) == cap(l.slab)-at && len(out) > 0 && cap(l.slab) > at && &out[:1][0] == &l.slab[:at+1][at] {
		l.slab = l.slab[:at+len(out)]
	}
	return out[:len(out):len(out)]
}

// appendCursor appends the cursor of the message numbered n: its
// characters (hex digits, a dot, digits) need no escaping in JSON.
func (l *streamLog) appendCursor(b []byte, n uint64) []byte {
	b = append(b, l.tag...)
	b = append(b, '.')
	return strconv.AppendUint(b, n, 10)
}

// plainMetaPlace returns the offset just inside the object of member
// where ("params" or "result") of msg when msg is in the layout the
// generated connections write and has no _meta anywhere:
// {"jsonrpc":"2.0", then "id" as digits, "method" as a plain string, or
// both, then where's object. For any other message ok is false, and
// withMeta finds the place by reading the message.
func plainMetaPlace(msg []byte, where string) (at int, ok bool) {
	const head = `{"jsonrpc":"2.0",`
	if !bytes.HasPrefix(msg, []byte(head)) || bytes.Contains(msg, []byte(`"_meta"`)) {
		return 0, false
	}
	i := len(head)
	if bytes.HasPrefix(msg[i:], []byte(`"id":`)) {
		j := i + len(`"id":`)
		for j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
			j++
		}
		if j == i+len(`"id":`) || j == len(msg) || msg[j] != ',' {
			return 0, false
		}
		i = j + 1
	}
	if bytes.HasPrefix(msg[i:], []byte(`"method":"`)) {
		j := i + len(`"method":"`)
		end := bytes.IndexByte(msg[j:], '"')
		if end < 0 || bytes.IndexByte(msg[j:j+end], '\\') >= 0 || j+end+1 >= len(msg) || msg[j+end+1] != ',' {
			return 0, false
		}
		i = j + end + 2
	}
	member := `"` + where + `":{`
	if !bytes.HasPrefix(msg[i:], []byte(member)) || i+len(member) >= len(msg) {
		return 0, false
	}
	return i + len(member), true
}

// retain keeps msg, just sent, dropping what is past the retention.
func (l *streamLog) retain(msg []byte, r *Resumable, now time.Time) {
	if over := l.sent.len() + 1 - r.RetentionMessages; over > 0 {
		l.sent.dropFront(over)
		l.base += uint64(over)
	}
	l.sent.push(retained{now, msg}, r.RetentionMessages)
	l.evict(r, now)
}

// evict drops the sent messages past the retention.
func (l *streamLog) evict(r *Resumable, now time.Time) {
	drop := 0
	if over := l.sent.len() - r.RetentionMessages; over > 0 {
		drop = over
	}
	for drop < l.sent.len() && now.Sub(l.sent.at(drop).at) > r.RetentionAge {
		drop++
	}
	if drop == 0 {
		return
	}
	l.sent.dropFront(drop)
	l.base += uint64(drop)
}

// position returns the number in cursor, or the reason it is refused:
// another stream's, or not one this stream still holds the messages after.
func (l *streamLog) position(cursor string, r *Resumable, now time.Time) (uint64, string) {
	tag, num, ok := strings.Cut(cursor, ".")
	if !ok || tag != l.tag {
		return 0, reasonForeign
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || n >= l.next {
		return 0, reasonUnknown
	}
	l.evict(r, now)
	if n+1 < l.base {
		return 0, reasonExpired
	}
	return n, ""
}

// rewind puts the messages sent after the message numbered n back at the
// head of queue, and returns the queue and the bytes put back.
func (l *streamLog) rewind(n uint64, queue [][]byte) ([][]byte, int) {
	k := int(n + 1 - l.base)
	if k >= l.sent.len() {
		// Nothing sent after n; what is queued may start at or before it
		// only if the client had it, which it cannot have.
		return queue, 0
	}
	back := make([][]byte, 0, l.sent.len()-k+len(queue))
	size := 0
	for i := k; i < l.sent.len(); i++ {
		msg := l.sent.at(i).msg
		back = append(back, msg)
		size += len(msg)
	}
	l.sent.truncate(k)
	return append(back, queue...), size
}

// lastCursor returns the cursor of the last message numbered, or "" for
// a stream that has numbered none.
func (l *streamLog) lastCursor() string {
	if l.next == 1 {
		return ""
	}
	return l.cursor(l.next - 1)
}

// resumeFailure is the body of a refused resume: the reason, and the
// cursor refused.
func resumeFailure(reason, cursor string) []byte {
	b := []byte(`{"reason":`)
	b, _ = jsontext.AppendQuote(b, reason)
	b = append(b, `,"cursor":`...)
	b, _ = jsontext.AppendQuote(b, cursor)
	return append(b, '}')
}

// eventData returns the JSON text of ev, a message as a stream queues it:
// itself, or the data of an SSE event.
func eventData(ev []byte, framed bool) []byte {
	if !framed {
		return ev
	}
	_, data, _ := bytes.Cut(ev, []byte("\ndata: "))
	return bytes.TrimSuffix(data, []byte("\n\n"))
}
