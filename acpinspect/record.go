package acpinspect

import (
	"time"
)

// Sender says who wrote a frame.
type Sender uint8

// The senders of frames.
const (
	// FromClient is a frame the client wrote to the agent.
	FromClient Sender = iota + 1
	// FromAgent is a frame the agent wrote to the client.
	FromAgent
	// FromStderr is a line of the agent's standard error.
	FromStderr
)

// String returns "client", "agent" or "stderr".
func (s Sender) String() string {
	switch s {
	case FromClient:
		return "client"
	case FromAgent:
		return "agent"
	case FromStderr:
		return "stderr"
	}
	return "unknown"
}

// parseSender is the inverse of Sender.String.
func parseSender(s string) (Sender, bool) {
	switch s {
	case "client":
		return FromClient, true
	case "agent":
		return FromAgent, true
	case "stderr":
		return FromStderr, true
	}
	return 0, false
}

// A Frame is one line that passed: a JSON-RPC message (or a line that
// should have been one), or a line of standard error.
type Frame struct {
	// Conn numbers the connection, from 1.
	Conn int64
	// Time is when the line was read.
	Time time.Time
	// From is who wrote it.
	From Sender
	// Data is the line without its newline; the recorder owns it.
	Data []byte
	// Truncated is set when Data is only the start of the line (a wire
	// log cuts long lines).
	Truncated bool
}

// A Recorder receives frames in the order they passed. f.Data is handed
// over: the caller does not use or change it again, so a recorder may keep
// it.
type Recorder interface {
	Record(f Frame)
}

// A GapRecorder is a Recorder that is told of the lines it was not handed:
// a tap or a proxy passes every byte on, but when its recorder falls so far
// behind that the bytes waiting for it reach their bound, it stops keeping
// them for the recorder until the recorder has caught up, and says what was
// left out.
type GapRecorder interface {
	Recorder
	// Gap says that about lines lines (bytes bytes) that from wrote on
	// connection conn passed without being recorded, before the frame
	// recorded next.
	Gap(conn int64, from Sender, lines, bytes int)
}

// Recorders hands each frame to every recorder in turn.
type Recorders []Recorder

// Record hands f to each recorder.
func (rs Recorders) Record(f Frame) {
	for _, r := range rs {
		r.Record(f)
	}
}

// Gap tells each recorder that is a GapRecorder of a gap.
func (rs Recorders) Gap(conn int64, from Sender, lines, bytes int) {
	for _, r := range rs {
		if g, ok := r.(GapRecorder); ok {
			g.Gap(conn, from, lines, bytes)
		}
	}
}
