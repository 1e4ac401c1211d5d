package acpv1test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// The one-pass decoders: where the tag is, how names match, what follows a
// value, and the errors that leave nothing half read.

func TestDecodeTagPosition(t *testing.T) {
	for _, in := range []string{
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}`,
		`{"content":{"text":"hi","type":"text"},"sessionUpdate":"agent_message_chunk"}`,
		`{"content":{"type":"text","text":"hi"},"_meta":{"a":[1,{"b":null}]},"sessionUpdate":"agent_message_chunk"}`,
		`{"sessionUpdate":null,"content":{"type":"text","text":"hi"},"sessionUpdate":"agent_message_chunk"}`,
		` { "sessionUpdate" : "agent_message_chunk" , "content" : { "type" : "text" , "text" : "hi" } } `,
	} {
		var u acpv1.SessionUpdate
		if err := u.UnmarshalJSON([]byte(in)); err != nil {
			t.Errorf("decode %s: %v", in, err)
			continue
		}
		chunk, ok := u.Value.(*acpv1.SessionUpdateAgentMessageChunk)
		if !ok {
			t.Errorf("decode %s: got %T", in, u.Value)
			continue
		}
		if text, ok := chunk.Content.Value.(*acpv1.ContentBlockText); !ok || text.Text != "hi" {
			t.Errorf("decode %s: content %#v", in, chunk.Content.Value)
		}
	}
}

func TestDecodeUnknownVariantKeepsObject(t *testing.T) {
	for _, in := range []string{
		`{"sessionUpdate":"_acme","x":[1,2,{"y":"z"}]}`,
		`{"x":[1,2,{"y":"z"}],"sessionUpdate":"_acme"}`,
	} {
		var u acpv1.SessionUpdate
		if err := u.UnmarshalJSON([]byte(in)); err != nil {
			t.Fatalf("decode %s: %v", in, err)
		}
		o, ok := u.Value.(*acpv1.SessionUpdateOther)
		if !ok || o.Tag != "_acme" || string(o.Raw) != in {
			t.Errorf("decode %s: got %#v", in, u.Value)
		}
	}
}

// Names match exactly, as in the reference: encoding/json would take
// "Content" for "content".
func TestDecodeNamesMatchExactly(t *testing.T) {
	var c acpv1.ContentChunk
	err := json.Unmarshal([]byte(`{"Content":{"type":"text","text":"hi"}}`), &c)
	jsontest.AssertTypeError(t, err, []string{"content"}, `object without "content"`)
	// An escaped name is the same name.
	if err := json.Unmarshal([]byte(`{"\u0063ontent":{"type":"text","text":"hi"}}`), &c); err != nil {
		t.Errorf("escaped name: %v", err)
	}
}

func TestDecodeMalformed(t *testing.T) {
	for _, in := range []string{
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}} {}`,
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}`,
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\xff"}}`,
		``,
	} {
		var u acpv1.SessionUpdate
		err := u.UnmarshalJSON([]byte(in))
		var te *json.UnmarshalTypeError
		if err == nil || errors.As(err, &te) {
			t.Errorf("decode %q: err = %v, want a syntax error", in, err)
		}
	}
}

// A member that defaults on error reads past whatever it could not decode,
// however deep, and the members after it still decode.
func TestDecodeDefaultOnErrorReadsPast(t *testing.T) {
	in := `{"toolCallId":"c","title":"t","kind":{"deep":[[{"x":1}],2]},"locations":[{"line":3,"_meta":{"a":[{}]}},{"path":"/b"}],"status":"completed"}`
	var tc acpv1.ToolCall
	if err := json.Unmarshal([]byte(in), &tc); err != nil {
		t.Fatal(err)
	}
	if tc.Kind != nil || tc.Status == nil || *tc.Status != acpv1.ToolCallStatusCompleted {
		t.Errorf("kind %v, status %v", tc.Kind, tc.Status)
	}
	if len(tc.Locations) != 1 || tc.Locations[0].Path != "/b" {
		t.Errorf("locations %+v, want only /b", tc.Locations)
	}
	if tc.Title != "t" || tc.ToolCallID != "c" {
		t.Errorf("title %q, id %q", tc.Title, tc.ToolCallID)
	}
}
