package acpv2

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
)

// payloadFirst rewrites a message with its members in reverse name order:
// "result" and "params" before "method" and "id", "jsonrpc" last.
func payloadFirst(t *testing.T, data []byte) []byte {
	t.Helper()
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + name + `":`)
		b.Write(members[name])
	}
	b.WriteByte('}')
	return b.Bytes()
}

func encode(t *testing.T, m *Message) string {
	t.Helper()
	out, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestDecodeMessageMemberOrder decodes every corpus message with its
// members in the order written and with params and result first, through
// DecodeMessage and a RequestTracker, and expects the same message.
func TestDecodeMessageMemberOrder(t *testing.T) {
	for _, c := range conformance.Messages(t, "v2") {
		method := ""
		if c.Kind == "result" || c.Kind == "error" {
			method = c.Method
		}
		want, err := DecodeMessage(c.Body, method)
		if err != nil {
			continue // an invalid example: TestMessages checks it
		}
		reordered := payloadFirst(t, c.Body)
		got, err := DecodeMessage(reordered, method)
		if err != nil {
			t.Errorf("%s: payload first: %v", c.Name, err)
			continue
		}
		if encode(t, got) != encode(t, want) {
			t.Errorf("%s: payload first decodes to\n%s\nwant\n%s", c.Name, encode(t, got), encode(t, want))
		}
		for _, in := range [][]byte{c.Body, reordered} {
			var tr RequestTracker
			if want.IsResponse() && want.ID != nil {
				if err := tr.Track(*want.ID, method); err != nil {
					t.Fatal(err)
				}
			}
			got, err := tr.Decode(in)
			if err != nil {
				t.Errorf("%s: tracker: %v", c.Name, err)
				continue
			}
			if encode(t, got) != encode(t, want) {
				t.Errorf("%s: tracker decodes %s to\n%s\nwant\n%s", c.Name, in, encode(t, got), encode(t, want))
			}
			if tr.Len() != 0 {
				t.Errorf("%s: response left its request tracked", c.Name)
			}
		}
	}
}

func TestDecodeMessageOrderTypes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want func(m *Message) bool
	}{
		// The method is a request's: its params are typed once the id is read.
		{`{"method":"session/new","params":{"cwd":"/","mcpServers":[]},"id":1,"jsonrpc":"2.0"}`, func(m *Message) bool {
			p, ok := m.Params.(*NewSessionRequest)
			return ok && p.Cwd == "/" && m.IsRequest()
		}},
		{`{"params":{"sessionId":"s"},"jsonrpc":"2.0","method":"session/cancel"}`, func(m *Message) bool {
			p, ok := m.Params.(*CancelSessionNotification)
			return ok && p.SessionID == "s" && m.IsNotification()
		}},
		// A notification's method with an id is no request the schema knows.
		{`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"},"id":1}`, func(m *Message) bool {
			raw, ok := m.Params.(json.RawMessage)
			return ok && string(raw) == `{"sessionId":"s"}`
		}},
		{`{"jsonrpc":"2.0","method":"session/cancel","params":null}`, func(m *Message) bool {
			p, ok := m.Params.(*CancelSessionNotification)
			return ok && p == nil
		}},
		{`{"jsonrpc":"2.0","method":"session/cancel"}`, func(m *Message) bool { return m.Params == nil }},
		{"  {\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\",\"params\" : \n {\"sessionId\":\"s\"}}\n", func(m *Message) bool {
			_, ok := m.Params.(*CancelSessionNotification)
			return ok
		}},
	} {
		m, err := DecodeMessage([]byte(tc.in), "")
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if !tc.want(m) {
			t.Errorf("%s: decoded to %+v", tc.in, m)
		}
	}
	m, err := DecodeMessage([]byte(`{"result":{"sessionId":"s"},"id":2,"jsonrpc":"2.0"}`), MethodSessionNew)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := m.Result.(*NewSessionResponse); !ok || r.SessionID != "s" {
		t.Errorf("result before id decoded to %#v", m.Result)
	}
}

func TestDecodeMessageErrors(t *testing.T) {
	for _, tc := range []struct {
		in     string
		code   ErrorCode
		id     string // the id the error carries, as JSON
		method string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"x"`, ErrorCodeParseError, "", ""},
		{`not json`, ErrorCodeParseError, "", ""},
		{`{"jsonrpc":"2.0","id":1,"method":"x"} {}`, ErrorCodeParseError, "", ""},
		{`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s",}}`, ErrorCodeParseError, "", ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"x"}]`, ErrorCodeInvalidRequest, "", ""},
		{`{"id":4,"method":"x"}`, ErrorCodeInvalidRequest, "4", "x"},
		{`{"jsonrpc":"2.0","id":{},"method":"x"}`, ErrorCodeInvalidRequest, "", "x"},
		{`{"jsonrpc":"2.0","id":1,"method":7}`, ErrorCodeInvalidRequest, "1", ""},
		{`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`, ErrorCodeInvalidRequest, "1", ""},
		{`{"jsonrpc":"2.0","id":1,"error":{"message":"m"}}`, ErrorCodeInvalidRequest, "1", ""},
		{`{"jsonrpc":"2.0","id":"a","method":"session/new","params":{"cwd":3,"mcpServers":[]}}`, ErrorCodeInvalidParams, `"a"`, "session/new"},
		{`{"params":{"cwd":false},"id":"a","method":"session/new","jsonrpc":"2.0"}`, ErrorCodeInvalidParams, `"a"`, "session/new"},
	} {
		_, err := DecodeMessage([]byte(tc.in), "")
		var me *MessageError
		if !errors.As(err, &me) {
			t.Errorf("%s: error %v is not a *MessageError", tc.in, err)
			continue
		}
		id := ""
		if me.ID != nil {
			id = encodeID(t, *me.ID)
		}
		if me.Code != tc.code || id != tc.id || me.Method != tc.method {
			t.Errorf("%s: error %d id %s method %q (%v), want %d id %s method %q", tc.in, me.Code, id, me.Method, err, tc.code, tc.id, tc.method)
		}
	}
	_, err := DecodeMessage([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":5}]}}`), "")
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field != "prompt.text" {
		t.Errorf("invalid params error %v does not name the path prompt.text (%+v)", err, te)
	}
}

func encodeID(t *testing.T, id RequestID) string {
	t.Helper()
	out, err := id.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestEncodeMessageNeedsKind(t *testing.T) {
	id := RequestID{Value: RequestIDStr("a")}
	for _, m := range []Message{
		{},
		{ID: &id},
		{Result: &NewSessionResponse{SessionID: "s"}},
		{ID: &id, Result: json.RawMessage(`{}`), Error: NewError(ErrorCodeInternalError, "m")},
		{ID: &RequestID{}, Result: json.RawMessage(`{}`)},
	} {
		if out, err := m.MarshalJSON(); err == nil {
			t.Errorf("%+v encoded to %s", m, out)
		}
		if out, err := json.Marshal(m); err == nil {
			t.Errorf("%+v encoded by encoding/json to %s", m, out)
		}
	}
}
