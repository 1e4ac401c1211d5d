package acpinspect

import (
	"reflect"
	"strings"
	"testing"
)

// slowRead is what the Inspector read of a message with encoding/json
// alone: the scanner must read the same wherever it does not give up.
func slowRead(data []byte) (envelope, update, bool) {
	var s scanner
	return s.readSlow(data)
}

var scanCases = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
	`{"jsonrpc":"2.0","id":"a\"b","result":{"sessionId":"s\u00e91","x":[1,{"sessionId":2}]}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"hi\n"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}}}`,
	` { "id" : 3 , "error" : { "code" : -32601 , "message" : "no" , "data" : null } } `,
	`{"id":null,"method":null,"params":null,"result":null,"error":null}`,
	`{"params":[1,2],"result":"x","id":[1]}`,
	`{"params":{"update":null,"sessionId":null}}`,
	`{"params":{"update":{"content":null,"toolCallId":"t1"}}}`,
	`{"id":1,"error":{"code":1.5,"message":"x"}}`,
	`{"id":1,"error":{"code":"1"}}`,
	`{"id":1,"error":[]}`,
	`{"method":5}`,
	`{"Method":"x","ID":1}`,
	`{"method":"a","method":"b"}`,
	`{"params":{"sessionId":"a"},"params":{"update":{}}}`,
	`{"\u006dethod":"x"}`,
	`{"params":{"sessionId":1,"update":{"sessionUpdate":"plan"}}}`,
	`{"params":{"update":{"sessionUpdate":5,"messageId":"m"}}}`,
	`{"method":"\ud800"}`,
	"{\"method\":\"\xff\"}",
	`{"method":"x"} {}`,
	`{"method":"x"`,
	`null`,
	`[]`,
	`"x"`,
	``,
	`{"id":1,"result":{"sessionId":"a","sessionId":"b"}}`,
	`{"id":1e2,"result":{}}`,
	`{"params":{"update":{"content":{"type":"resource_link","uri":"file:///a","text":null}}}}`,
	`{"params":{"update":{"content":{"type":"image","data":"AA=="}}}}`,
	`{"params":{"update":{"content":{"type":"text","text":5}}}}`,
	`{"params":{"update":{"content":{"type":"text","Text":"a"}}}}`,
	`{"params":{"update":{"content":[{"type":"text"}]}}}`,
	`{"params":{"update":{"content":{"type":"text","text":"a","text":"b"}}}}`,
}

func TestScanMatchesEncodingJSON(t *testing.T) {
	for _, line := range scanCases {
		checkScan(t, line)
	}
	// The scanner reads a conversation's messages without giving up.
	for _, line := range strings.Split(strings.TrimSpace(goodStart), "\n") {
		checkScan(t, line[2:])
		var s scanner
		if !s.scan([]byte(line[2:]), &envelope{}, &update{}) {
			t.Errorf("the scanner gave up on %s", line[2:])
		}
	}
}

func checkScan(t *testing.T, line string) {
	t.Helper()
	var s scanner
	env, u, ok := s.readMessage([]byte(line))
	wenv, wu, wok := slowRead([]byte(line))
	if ok != wok {
		t.Fatalf("%q: read %v, encoding/json %v", line, ok, wok)
	}
	if !ok {
		return
	}
	if !reflect.DeepEqual(env, wenv) {
		t.Fatalf("%q: envelope\n%+v\nencoding/json\n%+v", line, env, wenv)
	}
	if got, want := u.contentText(), contentText(wu.Update.Content); got != want {
		t.Fatalf("%q: content text %q, encoding/json %q", line, got, want)
	}
	u.raw, u.content = nil, contentBlock{}
	if !reflect.DeepEqual(u, wu) {
		t.Fatalf("%q: params\n%+v\nencoding/json\n%+v", line, u, wu)
	}
}

// FuzzScan: the scanner reads what encoding/json reads.
func FuzzScan(f *testing.F) {
	for _, line := range scanCases {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		checkScan(t, line)
	})
}
