package acphttp

import (
	"bytes"
	"errors"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// TestScan checks what scan reads of messages, and its errors.
func TestScan(t *testing.T) {
	m, err := scan([]byte(`{"jsonrpc":"2.0","id":"a\"b","method":"session/prompt","params":{"prompt":[{"sessionId":"no"}],"sessionId":"s1"},"x":[1,{"y":null}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !m.jsonrpc2 || !m.isRequest() || m.method != "session/prompt" || m.paramsSession == nil || *m.paramsSession != "s1" || string(m.id) != `"a\"b"` {
		t.Errorf("request: %+v", m)
	}
	if id, ok := m.stringID(); !ok || id != `a"b` {
		t.Errorf("stringID() = %q, %v", id, ok)
	}
	m, err = scan([]byte("{\"id\":7,\n\"result\":{\"sessionId\":\"s2\"}}"))
	if err != nil || !m.isResponse() || m.resultSession != "s2" || m.jsonrpc2 {
		t.Errorf("response: %+v %v", m, err)
	}
	m, err = scan([]byte(`{"jsonrpc":"2.0","method":"n","params":{"sessionId":3}}`))
	if err != nil || !m.isNotification() || m.paramsSession != nil {
		t.Errorf("notification: %+v %v", m, err)
	}
	for in, want := range map[string]error{
		`[1]`: errBatch, `"x"`: errNotObject, `null`: errNotObject,
	} {
		if _, err := scan([]byte(in)); !errors.Is(err, want) {
			t.Errorf("scan(%s) = %v, want %v", in, err, want)
		}
	}
	for _, in := range []string{``, `{`, `{"a":1}x`, `[1`, `{"a":1,"a":2}`, "{\"a\":\"\xff\"}"} {
		if _, err := scan([]byte(in)); err == nil || errors.Is(err, errBatch) || errors.Is(err, errNotObject) {
			t.Errorf("scan(%q) = %v, want a syntax error", in, err)
		}
	}
	if got := string(oneLine([]byte("{\n \"a\": [1,\r\n 2]\n}"))); got != `{"a":[1,2]}` {
		t.Errorf("oneLine: %s", got)
	}
}

func BenchmarkScan(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hello world, this is a chunk of text"}}}}`)
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := scan(msg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := check(msg); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzScan checks that scan never panics, and takes for an object exactly
// the valid JSON whose first token is '{'.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, `[1]`, `"x"`, `{"id":"\u0061","params":{"sessionId":"s"}}`, `{`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := scan(data)
		if cerr := check(data); (cerr == nil) != (err == nil) || errors.Is(cerr, errBatch) != errors.Is(err, errBatch) ||
			errors.Is(cerr, errNotObject) != errors.Is(err, errNotObject) {
			t.Fatalf("check(%q) = %v, scan's error %v", data, cerr, err)
		}
		valid := jsontext.Value(data).IsValid()
		if err == nil && !valid {
			t.Fatalf("scan took invalid JSON %q", data)
		}
		if err == nil && m.paramsSession != nil && len(*m.paramsSession) > len(data) {
			t.Fatalf("session id longer than the message")
		}
		if valid && errors.Is(err, errBatch) != (bytes.TrimSpace(data)[0] == '[') {
			t.Fatalf("scan(%q) = %v", data, err)
		}
	})
}
