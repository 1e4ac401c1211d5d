package rpctest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"
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

// MemberOrder decodes every corpus message with its members in the order
// written and with params and result first, through DecodeMessage and a
// RequestTracker, and expects the same message.
func MemberOrder(t *testing.T, c *Codec) {
	for _, m := range conformance.Messages(t, c.Version) {
		method := ""
		if m.Kind == "result" || m.Kind == "error" {
			method = m.Method
		}
		want, err := c.Decode(m.Body, method)
		if err != nil {
			continue // an invalid example: TestMessages checks it
		}
		reordered := payloadFirst(t, m.Body)
		got, err := c.Decode(reordered, method)
		if err != nil {
			t.Errorf("%s: payload first: %v", m.Name, err)
			continue
		}
		if got.JSON != want.JSON {
			t.Errorf("%s: payload first decodes to\n%s\nwant\n%s", m.Name, got.JSON, want.JSON)
		}
		for _, in := range [][]byte{m.Body, reordered} {
			tr := c.NewTracker()
			if want.Response && want.ID != "" {
				if err := tr.Track(want.ID, method); err != nil {
					t.Fatal(err)
				}
			}
			got, err := tr.Decode(in)
			if err != nil {
				t.Errorf("%s: tracker: %v", m.Name, err)
				continue
			}
			if got.JSON != want.JSON {
				t.Errorf("%s: tracker decodes %s to\n%s\nwant\n%s", m.Name, in, got.JSON, want.JSON)
			}
			if tr.Len() != 0 {
				t.Errorf("%s: response left its request tracked", m.Name)
			}
		}
	}
}

// OrderTypes: params are typed by the method, and a request's once its id
// is read, wherever the members stand.
func OrderTypes(t *testing.T, c *Codec) {
	for _, tc := range []struct {
		in   string
		want func(m Message) bool
	}{
		{`{"method":"session/new","params":{"cwd":"/","mcpServers":[]},"id":1,"jsonrpc":"2.0"}`, func(m Message) bool {
			return is(m.Params, "NewSessionRequest", `"cwd":"/"`) && m.Request
		}},
		{`{"params":{"sessionId":"s"},"jsonrpc":"2.0","method":"session/cancel"}`, func(m Message) bool {
			return is(m.Params, c.Cancel, `"sessionId":"s"`) && m.Notification
		}},
		// A notification's method with an id is no request the schema knows.
		{`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"},"id":1}`, func(m Message) bool {
			raw, ok := m.Params.(json.RawMessage)
			return ok && string(raw) == `{"sessionId":"s"}`
		}},
		{`{"jsonrpc":"2.0","method":"session/cancel","params":null}`, func(m Message) bool {
			name, isNil := typeName(m.Params)
			return name == "*"+c.Cancel && isNil
		}},
		{`{"jsonrpc":"2.0","method":"session/cancel"}`, func(m Message) bool { return m.Params == nil }},
		{"  {\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\",\"params\" : \n {\"sessionId\":\"s\"}}\n", func(m Message) bool {
			return is(m.Params, c.Cancel)
		}},
	} {
		m, err := c.Decode([]byte(tc.in), "")
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if !tc.want(m) {
			t.Errorf("%s: decoded to %+v", tc.in, m)
		}
	}
	m, err := c.Decode([]byte(`{"result":{"sessionId":"s"},"id":2,"jsonrpc":"2.0"}`), "session/new")
	if err != nil {
		t.Fatal(err)
	}
	if !is(m.Result, "NewSessionResponse", `"sessionId":"s"`) {
		t.Errorf("result before id decoded to %#v", m.Result)
	}
}

// Errors: each message that is not one gets the code that answers it, with
// the id and method that could be read.
func Errors(t *testing.T, c *Codec) {
	for _, tc := range []struct {
		in     string
		code   int
		id     string // the id the error carries, as JSON
		method string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"x"`, -32700, "", ""},
		{`not json`, -32700, "", ""},
		{`{"jsonrpc":"2.0","id":1,"method":"x"} {}`, -32700, "", ""},
		{`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s",}}`, -32700, "", ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"x"}]`, -32600, "", ""},
		{`{"id":4,"method":"x"}`, -32600, "4", "x"},
		{`{"jsonrpc":"2.0","id":{},"method":"x"}`, -32600, "", "x"},
		{`{"jsonrpc":"2.0","id":1,"method":7}`, -32600, "1", ""},
		{`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`, -32600, "1", ""},
		{`{"jsonrpc":"2.0","id":1,"error":{"message":"m"}}`, -32600, "1", ""},
		{`{"jsonrpc":"2.0","id":"a","method":"session/new","params":{"cwd":3,"mcpServers":[]}}`, -32602, `"a"`, "session/new"},
		{`{"params":{"cwd":false},"id":"a","method":"session/new","jsonrpc":"2.0"}`, -32602, `"a"`, "session/new"},
	} {
		_, err := c.Decode([]byte(tc.in), "")
		me, ok := c.MessageError(err)
		if !ok {
			t.Errorf("%s: error %v is not a *MessageError", tc.in, err)
			continue
		}
		if me.Code != tc.code || me.ID != tc.id || me.Method != tc.method {
			t.Errorf("%s: error %d id %s method %q (%v), want %d id %s method %q", tc.in, me.Code, me.ID, me.Method, err, tc.code, tc.id, tc.method)
		}
	}
	_, err := c.Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":5}]}}`), "")
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field != "prompt.text" {
		t.Errorf("invalid params error %v does not name the path prompt.text (%+v)", err, te)
	}
}

// Unencodable: messages of no kind are errors to MarshalJSON and to
// encoding/json.
func Unencodable(t *testing.T, messages []json.Marshaler) {
	for _, m := range messages {
		if out, err := m.MarshalJSON(); err == nil {
			t.Errorf("%+v encoded to %s", m, out)
		}
		if out, err := json.Marshal(m); err == nil {
			t.Errorf("%+v encoded by encoding/json to %s", m, out)
		}
	}
}

// TrackerTypesResults: a response's result is typed by the method of the
// request its id names, the number 1 and the string "1" being two ids.
func TrackerTypesResults(t *testing.T, c *Codec) {
	tr := c.NewTracker()
	for _, r := range [][2]string{{"1", "session/new"}, {`"1"`, "session/prompt"}} {
		if err := tr.Track(r[0], r[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.Track("1", "initialize"); err == nil {
		t.Error("an id awaiting its response was tracked again")
	}
	m, err := tr.Decode([]byte(`{"jsonrpc":"2.0","id":"1","result":` + c.PromptResult + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if !is(m.Result, "PromptResponse") {
		t.Errorf(`result for id "1" = %#v, want the prompt response`, m.Result)
	}
	m, err = tr.Decode([]byte(`{"result":{"sessionId":"s"},"jsonrpc":"2.0","id":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if !is(m.Result, "NewSessionResponse", `"sessionId":"s"`) {
		t.Errorf("result for id 1 = %#v, want the new session response", m.Result)
	}
	if n := tr.Len(); n != 0 {
		t.Errorf("%d requests still tracked after their responses", n)
	}
	// Now unknown: a second response to id 1 keeps its result raw.
	m, err = tr.Decode([]byte(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if raw, ok := m.Result.(json.RawMessage); !ok || string(raw) != `{"sessionId":"s"}` {
		t.Errorf("result for an unknown id = %#v, want raw JSON", m.Result)
	}
}

// TrackerErrorsAndForget: error responses, results that do not fit, Forget,
// and requests and notifications as DecodeMessage decodes them.
func TrackerErrorsAndForget(t *testing.T, c *Codec) {
	tr := c.NewTracker()
	for _, id := range []string{"1", "2", "3"} {
		if err := tr.Track(id, "session/new"); err != nil {
			t.Fatal(err)
		}
	}
	m, err := tr.Decode([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.ErrorCode != -32603 || !m.Response {
		t.Errorf("error response decoded to %+v", m)
	}
	_, err = tr.Decode([]byte(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":7}}`))
	if me, ok := c.MessageError(err); !ok || me.Method != "session/new" || me.ID != "2" {
		t.Errorf("a result that does not fit: error %v (%+v), want a *MessageError for id 2 of session/new", err, me)
	}
	if !tr.Forget("3") || tr.Forget("3") {
		t.Error("Forget did not report the tracked request once")
	}
	if n := tr.Len(); n != 0 {
		t.Errorf("%d requests still tracked", n)
	}
	m, err = tr.Decode([]byte(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !is(m.Params, c.Cancel) {
		t.Errorf("notification params = %#v", m.Params)
	}
}

// TrackerInvalidResponse drops a request whose response is not valid, and
// says which it was.
func TrackerInvalidResponse(t *testing.T, c *Codec) {
	tr := c.NewTracker()
	if err := tr.Track("9", "session/new"); err != nil {
		t.Fatal(err)
	}
	_, err := tr.Decode([]byte(`{"jsonrpc":"2.0","id":9,"result":{},"error":{"code":1,"message":"m"}}`))
	if me, ok := c.MessageError(err); !ok || me.ID != "9" || me.Code != -32600 || me.Method != "session/new" {
		t.Errorf("error %v (%+v), want an invalid request for id 9", err, me)
	}
	if tr.Len() != 0 {
		t.Error("an invalid response left its request tracked")
	}
}

// TrackerConcurrent tracks and answers requests from many goroutines at
// once; run with -race.
func TrackerConcurrent(t *testing.T, c *Codec) {
	tr := c.NewTracker()
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			id, method, line := fmt.Sprint(i), "session/new", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"sessionId":"s%d"}}`, i, i)
			if i%2 == 1 {
				id, method, line = fmt.Sprintf(`"%d"`, i), "session/prompt", fmt.Sprintf(`{"jsonrpc":"2.0","id":"%d","result":%s}`, i, c.PromptResult)
			}
			if err := tr.Track(id, method); err != nil {
				errs <- err
				return
			}
			_ = tr.Len()
			m, err := tr.Decode([]byte(line))
			switch {
			case err != nil:
				errs <- err
			case method == "session/new" && !is(m.Result, "NewSessionResponse", fmt.Sprintf(`"sessionId":"s%d"`, i)),
				method == "session/prompt" && !is(m.Result, "PromptResponse"):
				errs <- fmt.Errorf("id %s: result %#v", id, m.Result)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if l := tr.Len(); l != 0 {
		t.Errorf("%d requests still tracked", l)
	}
}

// ErrorIsGoError checks that methodNotFound, the package's *Error of code
// -32601 and message "Method not found", is a Go error that errors.As finds
// when wrapped, and that its text carries the code and the message.
func ErrorIsGoError(t *testing.T, methodNotFound error) {
	err := fmt.Errorf("prompt: %w", methodNotFound)
	target := reflect.New(reflect.TypeOf(methodNotFound))
	if !errors.As(err, target.Interface()) {
		t.Fatalf("errors.As did not find %T in %v", methodNotFound, err)
	}
	found := target.Elem().Elem()
	if found.FieldByName("Code").Int() != -32601 || found.FieldByName("Message").String() != "Method not found" {
		t.Errorf("errors.As found %+v", found.Interface())
	}
	if got, want := err.Error(), "prompt: json-rpc error -32601: Method not found"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// Run runs, each in a subtest of its name, the tests of the message layer
// and of the request tracker that take only the Codec.
func Run(t *testing.T, c *Codec) {
	for _, tc := range []struct {
		name string
		run  func(*testing.T, *Codec)
	}{
		{"Kinds", Kinds}, // a message of each kind, and lines that are none
		{"MemberOrder", MemberOrder},
		{"OrderTypes", OrderTypes},
		{"Errors", Errors},
		{"TrackerTypesResults", TrackerTypesResults},
		{"TrackerErrorsAndForget", TrackerErrorsAndForget},
		{"TrackerInvalidResponse", TrackerInvalidResponse},
		{"TrackerConcurrent", TrackerConcurrent},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, c) })
	}
}
