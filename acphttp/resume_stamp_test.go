package acphttp

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// TestStampPlainLayout: a message in the generated connections' layout is
// stamped without being read, into the same bytes as withMeta and the
// framing make of it; any other message is read, as before.
func TestStampPlainLayout(t *testing.T) {
	for _, tc := range []struct {
		msg   string
		m     message
		plain bool
	}{
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk"}}}`, message{hasMethod: true}, true},
		{`{"jsonrpc":"2.0","id":12,"method":"session/request_permission","params":{"sessionId":"s"}}`, message{hasMethod: true, hasID: true}, true},
		{`{"jsonrpc":"2.0","id":3,"result":{"sessionId":"s"}}`, message{hasID: true}, true},
		{`{"jsonrpc":"2.0","id":3,"result":{}}`, message{hasID: true}, true},
		{`{"jsonrpc":"2.0","method":"x","params":{}}`, message{hasMethod: true}, true},
		{`{"jsonrpc":"2.0","id":"a","result":{"sessionId":"s"}}`, message{hasID: true}, false},
		{`{"jsonrpc":"2.0","id":3,"result":{"_meta":{"k":1},"sessionId":"s"}}`, message{hasID: true}, false},
		{`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"m"}}`, message{hasID: true}, false},
		{`{"jsonrpc":"2.0","method":"a\"b","params":{}}`, message{hasMethod: true}, false},
		{`{"jsonrpc":"2.0","result":{"sessionId":"s"},"id":3}`, message{hasID: true}, true},
		{`{"id":3,"jsonrpc":"2.0","result":{}}`, message{hasID: true}, false},
		{`{"jsonrpc":"2.0","method":"x","params":[1]}`, message{hasMethod: true}, false},
	} {
		where := "params"
		if tc.m.isResponse() {
			where = "result"
		}
		if _, ok := plainMetaPlace([]byte(tc.msg), where); ok != tc.plain {
			t.Errorf("%s: plain %v, want %v", tc.msg, ok, tc.plain)
		}
		for _, framed := range []bool{false, true} {
			l := newStreamLog(framed)
			l.next = 41
			got := string(l.stamp([]byte(tc.msg), &tc.m))
			c := l.cursor(41)
			q, _ := jsontext.AppendQuote(nil, c)
			want := string(withMeta([]byte(tc.msg), where, metaCursor, q))
			if framed {
				want = "id: " + c + "\ndata: " + want + "\n\n"
			}
			if got != want {
				t.Errorf("framed %v:\n got  %s\n want %s", framed, got, want)
			}
		}
	}
}
