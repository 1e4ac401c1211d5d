package acpinspect

import (
	"reflect"
	"strings"
	"testing"
)

var decodeParamsCases = []string{
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"read","status":"pending","x":1}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"new_kind","a":[1]}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":5,"update":{"sessionUpdate":"plan","entries":[]}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a","text":"b"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","sessionId":"s2","update":{"sessionUpdate":"user_message_chunk","content":{"type":"image","data":"AA==","mimeType":"image/png"}}}}`,
	`{"params":{"sessionId":"s1"},"method":"session/cancel","jsonrpc":"2.0"}`,
	`{"jsonrpc":"2.0","params":{"sessionId":"s1","prompt":[]},"id":7,"method":"session/prompt"}`,
	`{"jsonrpc":"2.0","id":7,"method":"session/update","params":{"sessionId":"s1"}}`,
	`{"jsonrpc":"2.0","method":"_x/y","params":{"a":1}}`,
	`{"jsonrpc":"2.0","method":"no/such","params":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2,"clientCapabilities":{"fs":{"readTextFile":true},"zz":{}}}}`,
}

// TestDecodeParamsMatchesDecode: where the scanner finds the envelope
// plain, decoding the params alone gives what decoding the whole message
// gives, in both dialects.
func TestDecodeParamsMatchesDecode(t *testing.T) {
	plain := 0
	for _, line := range append(strings.Split(strings.TrimSpace(goodStart), "\n"), decodeParamsCases...) {
		if line[1] == ' ' {
			line = line[2:]
		}
		if checkDecodeParams(t, line) {
			plain++
		}
	}
	if plain < len(decodeParamsCases) {
		t.Errorf("%d messages plain, want at least %d", plain, len(decodeParamsCases))
	}
}

// checkDecodeParams compares the two decodings of line; false when its
// envelope is not plain.
func checkDecodeParams(t *testing.T, line string) bool {
	t.Helper()
	var s scanner
	env, _, ok := s.readMessage([]byte(line))
	if !ok || !s.plain {
		return false
	}
	request := env.ID != nil
	for _, d := range []dialect{v1{}, v2{}} {
		whole := d.decode([]byte(line), env.Method)
		alone, ok := d.decodeParams(env.Params, env.Method, request)
		if !ok {
			continue // decode judges it
		}
		if whole.err != nil {
			t.Fatalf("v%d %s: the params alone decode, the message does not: %v", d.version(), line, whole.err)
		}
		if alone.goType != whole.goType || !reflect.DeepEqual(alone.payload, whole.payload) {
			t.Fatalf("v%d %s: params alone\n%s %#v\nwhole message\n%s %#v", d.version(), line, alone.goType, alone.payload, whole.goType, whole.payload)
		}
	}
	return true
}

// FuzzDecodeParams: decoding the params alone gives what decoding the
// whole message gives.
func FuzzDecodeParams(f *testing.F) {
	for _, line := range append(scanCases, decodeParamsCases...) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		checkDecodeParams(t, line)
	})
}
