package acpinspect

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCaptureRoundTrip records a conversation into a capture file and
// reads it back: the same frames, in order, and the same analysis.
func TestCaptureRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.acpcap")
	c, err := CreateCapture(path, "myagent --flag")
	if err != nil {
		t.Fatal(err)
	}
	orig := NewInspector()
	kept := &frames{}
	feed(t, Recorders{c, orig, kept}, goodStart+`a {"jsonrpc":"2.0","id":77,"result":{}}`)
	kept.Record(Frame{Conn: 1, Time: time.Unix(1767323045, 7), From: FromStderr, Data: []byte("a line of stderr")})
	c.Record(kept.fs[len(kept.fs)-1])
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if !IsCapture(path) {
		t.Fatal("IsCapture is false for a capture")
	}
	if _, err := CreateCapture(path, ""); err == nil {
		t.Error("CreateCapture over an existing file did not fail")
	}
	back := &frames{}
	about, err := ReadCapture(context.Background(), path, back)
	if err != nil {
		t.Fatal(err)
	}
	if about != "myagent --flag" {
		t.Errorf("about %q", about)
	}
	if len(back.fs) != len(kept.fs) {
		t.Fatalf("%d frames read back, %d recorded", len(back.fs), len(kept.fs))
	}
	for i, f := range back.fs {
		k := kept.fs[i]
		if f.Conn != k.Conn || f.From != k.From || !bytes.Equal(f.Data, k.Data) || !f.Time.Equal(k.Time) {
			t.Fatalf("frame %d read back as %+v, recorded %+v", i, f, k)
		}
	}
	reopened := NewInspector()
	if _, err := ReadCapture(context.Background(), path, reopened); err != nil {
		t.Fatal(err)
	}
	if reopened.Len() != orig.Len() || len(reopened.Findings()) != 1 || len(reopened.Console()) != 1 {
		t.Errorf("reopened: %d messages, %d findings, %d console lines; recorded %d messages",
			reopened.Len(), len(reopened.Findings()), len(reopened.Console()), orig.Len())
	}
}

// TestCaptureRefusesOtherFiles: an SQLite file that is not a capture,
// and a file that is not SQLite, are refused with their path.
func TestCaptureRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t (x)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := ReadCapture(context.Background(), other, &frames{}); err == nil || !strings.Contains(err.Error(), "other.db is not a capture") {
		t.Errorf("ReadCapture of another database: %v", err)
	}
	if IsCapture(filepath.Join(dir, "missing")) {
		t.Error("IsCapture of a missing file")
	}
}

// TestWireLog reads a wire log written by each side, and the export of an
// Inspector, which is a wire log too.
func TestWireLog(t *testing.T) {
	// Written by the client: its "out" is the client's.
	log := `{"time":"2026-01-02T15:04:05.000000001Z","conn":1,"dir":"out","bytes":77,"msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}}
{"time":"2026-01-02T15:04:05.000000002Z","conn":1,"dir":"in","bytes":50,"msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}}
{"time":"2026-01-02T15:04:05.000000003Z","conn":1,"dir":"in","bytes":9,"text":"not json!"}
`
	in := NewInspector()
	if err := ReadWireLog(strings.NewReader(log), in); err != nil {
		t.Fatal(err)
	}
	es := in.Entries(1, 10)
	if len(es) != 3 || es[0].From != "client" || es[1].From != "agent" || es[1].Pair != 1 || es[2].Verdict != "invalid" {
		t.Fatalf("entries: %+v", es)
	}
	// The export reads back as the same messages, from the agent's side.
	exported := in.AppendJSONL(nil)
	if !strings.Contains(string(exported), `"dir":"in","bytes":`) {
		t.Errorf("export: %s", exported)
	}
	again := NewInspector()
	if err := ReadWireLog(bytes.NewReader(exported), again); err != nil {
		t.Fatal(err)
	}
	for i, e := range again.Entries(1, 10) {
		if e.From != es[i].From || e.Kind != es[i].Kind || e.Verdict != es[i].Verdict {
			t.Errorf("entry %d after export: %+v, before %+v", i, e, es[i])
		}
	}
	if err := ReadWireLog(strings.NewReader("{\"dir\":\"sideways\",\"msg\":{}}\n"), in); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a bad record: %v", err)
	}
}

// TestCaptureGapAndBatches: a capture handed more frames than a batch
// writes them all, in order, and keeps the number of lines that passed
// unrecorded.
func TestCaptureGapAndBatches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.acpcap")
	c, err := CreateCapture(path, "gap")
	if err != nil {
		t.Fatal(err)
	}
	const n = 3*flushSize + 5
	for i := range n {
		c.Record(Frame{Conn: 1, Time: time.Unix(0, int64(i)), From: FromAgent, Data: []byte(fmt.Sprintf(`{"n":%d}`, i))})
	}
	c.Gap(1, FromAgent, 7, 700)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	got := &frames{}
	if _, err := ReadCapture(context.Background(), path, got); err != nil {
		t.Fatal(err)
	}
	if len(got.fs) != n {
		t.Fatalf("%d frames read back, want %d", len(got.fs), n)
	}
	for i, f := range got.fs {
		if string(f.Data) != fmt.Sprintf(`{"n":%d}`, i) {
			t.Fatalf("frame %d is %s", i, f.Data)
		}
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var dropped string
	if err := db.QueryRow(`SELECT value FROM capture WHERE key = 'dropped'`).Scan(&dropped); err != nil || dropped != "7" {
		t.Fatalf("dropped = %q, %v; want 7", dropped, err)
	}
}
