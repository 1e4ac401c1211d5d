// Package acpinspect records and explains ACP traffic: the frames that pass
// between a client and an agent, decoded with the generated packages of
// the version the two negotiated, judged against the schema and against
// the protocol rules that can be judged from observed traffic, and shown
// live in a web page on 127.0.0.1.
//
// A Recorder is where frames go. Tap runs an agent under acpexec and
// passes its standard input and output through byte for byte, handing
// each line to a Recorder; Proxy stands in front of a remote agent over
// Streamable HTTP and WebSocket and does the same. A Capture keeps the
// frames in an SQLite file (modernc.org/sqlite, pure Go) that OpenCapture
// reads back; ReadWireLog reads the JSON lines of a connection's wire log
// (ACP_WIRE_LOG). An Inspector decodes the frames in order and keeps the
// message list, the sessions (built with the generated SessionState), the
// per-method latencies and the findings; NewUI serves it.
//
// The traffic never waits for the recorder. Each read is passed on at once
// and queued for the recorder's goroutine, which takes what is queued once
// the traffic has been quiet for a millisecond (or half the queue's bound
// is reached), so that a burst passes at the speed of the pipes and is
// decoded after it. The bytes queued are bounded (TapOptions.MaxPending,
// DefaultMaxPending): when a recorder falls that far behind, what passes
// is not queued until it has caught up, and a GapRecorder (the Inspector,
// a Capture) is told how many lines and bytes it missed; the page shows
// their number.
//
// Built with the umbrella tag unstable (go build -tags unstable), the
// generated packages decode every unstable feature; without it the
// messages of unstable features are shown as unknown variants and members
// of the stable schema, which is what a stable program sees of them.
package acpinspect
