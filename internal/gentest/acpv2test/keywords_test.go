package acpv2test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// Tests of the validation keywords of the schema that the decoders check:
// minLength, minItems, minimum and maximum, each a type error at the
// member's path, or the default where the member defaults on error; and of
// numbers that a float64 would round.

func TestKeywordsMinLength(t *testing.T) {
	jsontest.RunCases(t, []jsontest.Case[acpv2.Notice]{
		{Name: "empty title", In: `{"title":"","severity":"info"}`, Err: "string of 0 characters (at least 1)", Field: "title"},
		{Name: "one character", In: `{"title":"é","severity":"info"}`, Want: acpv2.Notice{Title: "é", Severity: acpv2.NoticeSeverityInfo}, Valid: true},
	})
}

func TestKeywordsMinItems(t *testing.T) {
	t.Run("RequestPermissionRequest", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.RequestPermissionRequest]{
			{Name: "no option", In: `{"sessionId":"s","title":"t","toolCall":{"toolCallId":"c"},"options":[]}`, Err: "array of 0 items (at least 1)", Field: "options"},
		})
	})
	t.Run("StringMultiSelectItems", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.StringMultiSelectItems]{
			{Name: "empty enum", In: `{"enum":[]}`, Err: "array of 0 items", Field: "enum"},
			{Name: "one value", In: `{"enum":["a"]}`, Want: acpv2.StringMultiSelectItems{Enum: []string{"a"}}, Valid: true},
		})
	})
	t.Run("TitledMultiSelectItems", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.TitledMultiSelectItems]{
			{Name: "empty anyOf", In: `{"anyOf":[]}`, Err: "array of 0 items", Field: "anyOf"},
		})
	})
	t.Run("SessionConfigSelectOptions", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.SessionConfigSelectOptions]{
			{Name: "no option", In: `[]`, Err: "cannot unmarshal"},
		})
	})
	t.Run("PromptRequest", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.PromptRequest]{
			{Name: "empty prompt", In: `{"sessionId":"s","prompt":[]}`, Err: "array of 0 items", Field: "prompt"},
		})
	})
}

func TestKeywordsBounds(t *testing.T) {
	t.Run("Annotations", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.Annotations]{
			{Name: "above maximum defaults", In: `{"priority":1.5}`, Want: acpv2.Annotations{}, Enc: `{}`},
			{Name: "below minimum defaults", In: `{"priority":-0.5}`, Want: acpv2.Annotations{}, Enc: `{}`},
			{Name: "maximum", In: `{"priority":1}`, Want: acpv2.Annotations{Priority: acpv2.Ptr(1.0)}, Valid: true},
			{Name: "rounded defaults", In: `{"priority":18446744073709551616}`, Want: acpv2.Annotations{}, Enc: `{}`},
			{Name: "written another way", In: `{"priority":0.50}`, Want: acpv2.Annotations{Priority: acpv2.Ptr(0.5)}, Enc: `{"priority":0.5}`},
		})
	})
	t.Run("TerminalSize", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.TerminalSize]{
			{Name: "zero columns", In: `{"cols":0,"rows":24}`, Err: "out of the schema's range", Field: "cols"},
			{Name: "one column", In: `{"cols":1,"rows":1}`, Want: acpv2.TerminalSize{Cols: 1, Rows: 1}, Valid: true},
		})
	})
	t.Run("ToolCallLocation", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.ToolCallLocation]{
			{Name: "line 0 defaults", In: `{"path":"/a","line":0}`, Want: acpv2.ToolCallLocation{Path: "/a"}, Enc: `{"path":"/a"}`},
		})
	})
}

// An unknown variant's members that every variant shares, and those of the
// alternatives every unknown variant must match, are decoded and checked as
// on a known variant: a value the schema rejects takes the member's default
// (here: absent), and the object is written back without it; the rest of
// the object is kept as received.
func TestKeywordsUnknownVariantShared(t *testing.T) {
	jsontest.RunCases(t, []jsontest.Case[acpv2.CreateElicitationRequest]{{
		Name:  "valid",
		In:    `{"mode":"_x","message":"m","sessionId":"s","toolCallId":"c","_meta":{"a":1},"extra":[1, 2]}`,
		Check: func(t *testing.T, got *acpv2.CreateElicitationRequest) {},
		Valid: true,
	}, {
		Name:  "meta not an object",
		In:    `{"mode":"_x","message":"m","sessionId":"s","_meta":"x","extra":[1, 2]}`,
		Check: func(t *testing.T, got *acpv2.CreateElicitationRequest) {},
		Enc:   `{"mode":"_x","message":"m","sessionId":"s","extra":[1,2]}`,
	}, {
		Name:  "tool call id not a string",
		In:    `{"message":"m","_meta":{},"mode":"_x","sessionId":"s","toolCallId":7}`,
		Check: func(t *testing.T, got *acpv2.CreateElicitationRequest) {},
		Enc:   `{"message":"m","_meta":{},"mode":"_x","sessionId":"s"}`,
	}, {
		Name: "message not a string",
		In:   `{"mode":"_x","message":7,"sessionId":"s"}`,
		Err:  "cannot unmarshal number", Field: "message",
	}, {
		Name: "session id not a string",
		In:   `{"mode":"_x","message":"m","sessionId":7}`,
		Err:  "cannot unmarshal",
	}})
}
