package acpinspect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
)

// wireRecord is one line of a wire log (see WithWireLog in the generated
// packages).
type wireRecord struct {
	Time      time.Time       `json:"time"`
	Conn      int64           `json:"conn"`
	Dir       string          `json:"dir"`
	Bytes     int             `json:"bytes"`
	Msg       json.RawMessage `json:"msg"`
	Text      *string         `json:"text"`
	Truncated bool            `json:"truncated"`
	Envelope  bool            `json:"envelope"`
}

// ReadWireLog hands the records of a wire log (ACP_WIRE_LOG) to rec as
// frames, in order. A wire log is written by one side of a connection,
// whose "in" and "out" are its own: the side is found per connection from
// who sent initialize (the client), and is the agent when the log holds
// no initialize. A line that is not a record is an error naming it.
func ReadWireLog(r io.Reader, rec Recorder) error {
	var records []wireRecord
	clientSide := map[int64]bool{} // the connections logged by their client
	decided := map[int64]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var w wireRecord
		if err := json.Unmarshal(line, &w); err != nil {
			return fmt.Errorf("acpinspect: wire log line %d: %w", n, err)
		}
		if w.Dir != "in" && w.Dir != "out" {
			return fmt.Errorf("acpinspect: wire log line %d: dir is %q, not in or out", n, w.Dir)
		}
		if w.Msg == nil && w.Text == nil {
			return fmt.Errorf("acpinspect: wire log line %d: neither msg nor text", n)
		}
		if !decided[w.Conn] && w.Msg != nil {
			var m struct {
				Method string `json:"method"`
			}
			if json.Unmarshal(w.Msg, &m) == nil && m.Method == "initialize" {
				decided[w.Conn] = true
				clientSide[w.Conn] = w.Dir == "out"
			}
		}
		records = append(records, w)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("acpinspect: wire log: %w", err)
	}
	for _, w := range records {
		from := FromClient
		if (w.Dir == "in") == clientSide[w.Conn] {
			from = FromAgent
		}
		f := Frame{Conn: w.Conn, Time: w.Time, From: from, Truncated: w.Truncated || w.Envelope}
		if w.Msg != nil {
			f.Data = w.Msg
		} else {
			f.Data = []byte(*w.Text)
		}
		rec.Record(f)
	}
	return nil
}

// appendWireRecord appends f as a line of a wire log written from the
// agent's side ("in" is what the client sent), which ReadWireLog reads
// back as the same frame.
func appendWireRecord(b []byte, f Frame) []byte {
	b = append(b, `{"time":`...)
	b = strconv.AppendQuote(b, f.Time.UTC().Format(time.RFC3339Nano))
	b = append(b, `,"conn":`...)
	b = strconv.AppendInt(b, f.Conn, 10)
	if f.From == FromClient {
		b = append(b, `,"dir":"in"`...)
	} else {
		b = append(b, `,"dir":"out"`...)
	}
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, int64(len(f.Data)), 10)
	if json.Valid(f.Data) {
		var c bytes.Buffer
		if json.Compact(&c, f.Data) == nil {
			b = append(append(b, `,"msg":`...), c.Bytes()...)
		}
	} else {
		t, _ := json.Marshal(string(f.Data))
		b = append(append(b, `,"text":`...), t...)
	}
	if f.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	return append(b, "}\n"...)
}
