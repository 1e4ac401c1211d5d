package acpv2

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/internal/jsontest"
)

// fuzzCorpusDir holds the protocol's documentation examples, beside the
// project root. A checkout without it still fuzzes from the inline seeds.
const fuzzCorpusDir = "../../../shared/conformance/v2"

// corpusObjects returns every JSON object in the corpus that has a string
// member named key, as written in the corpus files, without duplicates.
func corpusObjects(tb testing.TB, key string) [][]byte {
	tb.Helper()
	entries, err := os.ReadDir(fuzzCorpusDir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		tb.Fatal(err)
	}
	seen := map[string]bool{}
	var out [][]byte
	var walk func(raw json.RawMessage)
	walk = func(raw json.RawMessage) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) == nil {
			var s string
			if v, ok := obj[key]; ok && json.Unmarshal(v, &s) == nil && !seen[string(raw)] {
				seen[string(raw)] = true
				out = append(out, append([]byte(nil), raw...))
			}
			keys := make([]string, 0, len(obj))
			for k := range obj {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(obj[k])
			}
			return
		}
		var arr []json.RawMessage
		if json.Unmarshal(raw, &arr) == nil {
			for _, e := range arr {
				walk(e)
			}
		}
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(fuzzCorpusDir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		walk(data)
	}
	return out
}

// roundTrip checks the encoding of decoded values: what decodes encodes, and
// the encoding decodes and encodes again to the same bytes with the same tag.
func roundTrip[U interface{ Tag() string }](t *testing.T, data []byte, isNull func(*U) bool) {
	u := new(U)
	if json.Unmarshal(data, u) != nil {
		return
	}
	if isNull(u) {
		// JSON null leaves the union unset, as encoding/json does for null.
		return
	}
	first, err := json.Marshal(u)
	if err != nil {
		t.Fatalf("decoded %s but encoding fails: %v", data, err)
	}
	if m, ok := any(u).(json.Marshaler); ok {
		jsontest.AssertDirect(t, m, first)
	} else {
		t.Fatalf("%T has no MarshalJSON", u)
	}
	again := new(U)
	if err := json.Unmarshal(first, again); err != nil {
		t.Fatalf("decoded %s, encoded %s, which does not decode: %v", data, first, err)
	}
	if (*again).Tag() != (*u).Tag() {
		t.Fatalf("decoded %s with tag %q, encoded %s, which decodes with tag %q", data, (*u).Tag(), first, (*again).Tag())
	}
	second, err := json.Marshal(again)
	if err != nil {
		t.Fatalf("decoded %s, encoded %s, decoded again, and encoding fails: %v", data, first, err)
	}
	if !bytes.Equal(first, second) {
		t.Fatalf("encoding is not stable for input %s\n first: %s\nsecond: %s", data, first, second)
	}
}

func FuzzSessionUpdate(f *testing.F) {
	for _, s := range []string{
		`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Hello"}}`,
		`{"sessionUpdate":"user_message","messageId":"m1","content":[{"type":"resource","resource":{"uri":"file:///a.txt","text":"hi"}},{"type":"_x"}]}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c1","title":null,"kind":"edit","status":"pending","content":[{"type":"diff","changes":[{"operation":"modify","path":"/a","fileType":"text"}],"patch":{"format":"git_patch","text":"@@"}},{"type":"terminal","terminalId":"t1"}],"locations":[],"rawInput":{"n":9007199254740993}}`,
		`{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c1","content":{"type":"content","content":{"type":"image","data":"AA==","mimeType":"image/png"}}}`,
		`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p1","entries":[{"content":"x","priority":"high","status":"pending"}]}}`,
		`{"sessionUpdate":"plan_update","plan":{"type":"_custom","planId":"p1","body":[1]}}`,
		`{"sessionUpdate":"state_update","state":"running","background":[]}`,
		`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`,
		`{"sessionUpdate":"usage_update","used":1,"size":2,"cost":null}`,
		`{"zeta":1,"sessionUpdate":"_custom","_meta":{"trace":9007199254740993,"nested":{"b":1,"a":2}}}`,
		` { "sessionUpdate" : "future_kind" , "x" : [ 1 , 2 ] } `,
	} {
		f.Add([]byte(s))
	}
	for _, b := range corpusObjects(f, "sessionUpdate") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data, func(u *SessionUpdate) bool { return u.Value == nil })
	})
}

func FuzzContentBlock(f *testing.F) {
	for _, s := range []string{
		`{"type":"text","text":"Hello","annotations":{"audience":["user"],"priority":0.5}}`,
		`{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","uri":"file:///a.png"}`,
		`{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}`,
		`{"type":"resource_link","uri":"file:///a.go","name":"a.go","size":12}`,
		`{"type":"resource","resource":{"uri":"file:///a.txt","text":"hi","mimeType":"text/plain"}}`,
		`{"type":"resource","resource":{"uri":"file:///a.bin","blob":"AAEC"}}`,
		`{"zeta":1,"type":"_custom","_meta":{"trace":9007199254740993,"nested":{"b":1,"a":2}}}`,
		` { "type" : "future_kind" , "x" : "\u003c" } `,
	} {
		f.Add([]byte(s))
	}
	for _, b := range corpusObjects(f, "type") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data, func(u *ContentBlock) bool { return u.Value == nil })
	})
}
