package acpv2

import (
	"testing"
)

// Tests of the validation keywords of the schema that the decoders check:
// minLength, minItems, minimum and maximum, each a type error at the
// member's path, or the default where the member defaults on error; and of
// numbers that a float64 would round.

func TestKeywordsMinLength(t *testing.T) {
	rulesRun(t, []rulesCase[Notice]{
		{name: "empty title", in: `{"title":"","severity":"info"}`, err: "string of 0 characters (at least 1)", field: "title"},
		{name: "one character", in: `{"title":"é","severity":"info"}`, want: Notice{Title: "é", Severity: NoticeSeverityInfo}, valid: true},
	})
}

func TestKeywordsMinItems(t *testing.T) {
	t.Run("RequestPermissionRequest", func(t *testing.T) {
		rulesRun(t, []rulesCase[RequestPermissionRequest]{
			{name: "no option", in: `{"sessionId":"s","title":"t","toolCall":{"toolCallId":"c"},"options":[]}`, err: "array of 0 items (at least 1)", field: "options"},
		})
	})
	t.Run("StringMultiSelectItems", func(t *testing.T) {
		rulesRun(t, []rulesCase[StringMultiSelectItems]{
			{name: "empty enum", in: `{"enum":[]}`, err: "array of 0 items", field: "enum"},
			{name: "one value", in: `{"enum":["a"]}`, want: StringMultiSelectItems{Enum: []string{"a"}}, valid: true},
		})
	})
	t.Run("TitledMultiSelectItems", func(t *testing.T) {
		rulesRun(t, []rulesCase[TitledMultiSelectItems]{
			{name: "empty anyOf", in: `{"anyOf":[]}`, err: "array of 0 items", field: "anyOf"},
		})
	})
	t.Run("SessionConfigSelectOptions", func(t *testing.T) {
		rulesRun(t, []rulesCase[SessionConfigSelectOptions]{
			{name: "no option", in: `[]`, err: "cannot unmarshal"},
		})
	})
	t.Run("PromptRequest", func(t *testing.T) {
		rulesRun(t, []rulesCase[PromptRequest]{
			{name: "empty prompt", in: `{"sessionId":"s","prompt":[]}`, err: "array of 0 items", field: "prompt"},
		})
	})
}

func TestKeywordsBounds(t *testing.T) {
	t.Run("Annotations", func(t *testing.T) {
		rulesRun(t, []rulesCase[Annotations]{
			{name: "above maximum defaults", in: `{"priority":1.5}`, want: Annotations{}, enc: `{}`},
			{name: "below minimum defaults", in: `{"priority":-0.5}`, want: Annotations{}, enc: `{}`},
			{name: "maximum", in: `{"priority":1}`, want: Annotations{Priority: rulesPtr(1.0)}, valid: true},
			{name: "rounded defaults", in: `{"priority":18446744073709551616}`, want: Annotations{}, enc: `{}`},
			{name: "written another way", in: `{"priority":0.50}`, want: Annotations{Priority: rulesPtr(0.5)}, enc: `{"priority":0.5}`},
		})
	})
	t.Run("TerminalSize", func(t *testing.T) {
		rulesRun(t, []rulesCase[TerminalSize]{
			{name: "zero columns", in: `{"cols":0,"rows":24}`, err: "out of the schema's range", field: "cols"},
			{name: "one column", in: `{"cols":1,"rows":1}`, want: TerminalSize{Cols: 1, Rows: 1}, valid: true},
		})
	})
	t.Run("ToolCallLocation", func(t *testing.T) {
		rulesRun(t, []rulesCase[ToolCallLocation]{
			{name: "line 0 defaults", in: `{"path":"/a","line":0}`, want: ToolCallLocation{Path: "/a"}, enc: `{"path":"/a"}`},
		})
	})
}

// An unknown variant's members that every variant shares, and those of the
// alternatives every unknown variant must match, are decoded and checked as
// on a known variant: a value the schema rejects takes the member's default
// (here: absent), and the object is written back without it; the rest of
// the object is kept as received.
func TestKeywordsUnknownVariantShared(t *testing.T) {
	rulesRun(t, []rulesCase[CreateElicitationRequest]{{
		name:  "valid",
		in:    `{"mode":"_x","message":"m","sessionId":"s","toolCallId":"c","_meta":{"a":1},"extra":[1, 2]}`,
		check: func(t *testing.T, got *CreateElicitationRequest) {},
		valid: true,
	}, {
		name:  "meta not an object",
		in:    `{"mode":"_x","message":"m","sessionId":"s","_meta":"x","extra":[1, 2]}`,
		check: func(t *testing.T, got *CreateElicitationRequest) {},
		enc:   `{"mode":"_x","message":"m","sessionId":"s","extra":[1,2]}`,
	}, {
		name:  "tool call id not a string",
		in:    `{"message":"m","_meta":{},"mode":"_x","sessionId":"s","toolCallId":7}`,
		check: func(t *testing.T, got *CreateElicitationRequest) {},
		enc:   `{"message":"m","_meta":{},"mode":"_x","sessionId":"s"}`,
	}, {
		name: "message not a string",
		in:   `{"mode":"_x","message":7,"sessionId":"s"}`,
		err:  "cannot unmarshal number", field: "message",
	}, {
		name: "session id not a string",
		in:   `{"mode":"_x","message":"m","sessionId":7}`,
		err:  "cannot unmarshal",
	}})
}
