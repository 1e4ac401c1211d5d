package names

import (
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

func TestGoDoc(t *testing.T) {
	ids := map[string]string{"SessionId": "SessionID", "ToolCall": "ToolCall"}
	ident := func(s string) (string, bool) { id, ok := ids[s]; return id, ok }
	for _, c := range []struct{ in, want string }{
		{"Plain text.", "Plain text."},
		{"Uses `SessionId` and `_meta`.", `Uses [SessionID] and "_meta".`},
		{"Blocks appear in:\n- prompts\n- tool calls\n  and results\n\nAfter.",
			"Blocks appear in:\n\n  - prompts\n  - tool calls\n    and results\n\nAfter."},
		{"Steps:\n1. one\n2. two", "Steps:\n\n  1. one\n  2. two"},
		{"See [Docs](https://x.example/d).", "See [Docs].\n\n[Docs]: https://x.example/d"},
		{"**Bold** word.", "Bold word."},
		{"Code:\n```json\n{\"a\":1}\n```\nDone.", "Code:\n\n\t{\"a\":1}\n\nDone."},
		{"**UNSTABLE**\n\nThis capability is not part of the spec yet, and may be removed or changed at any point.\n\nA thing.\n\nMore.",
			"A thing.\n\nUnstable: this item is not part of the protocol yet and may change or be removed.\n\nMore."},
		{"A thing.\n\nDeprecated: use `ToolCall` instead.", "A thing.\n\nDeprecated: use [ToolCall] instead."},
		{"**Deprecated** old form.", "Deprecated: old form."},
	} {
		if got := goDoc(c.in, ident); got != c.want {
			t.Errorf("goDoc(%q) =\n%q\nwant\n%q", c.in, got, c.want)
		}
	}
}

// TestDocsPrintable: descriptions become text a Go comment can hold, a NUL,
// a carriage return, a bell and a byte order mark each a space.
func TestDocsPrintable(t *testing.T) {
	a := &ir.Type{Name: "A", Kind: ir.Struct, Doc: "x\x00y\r\nz\ufeff\tw.",
		Fields: []*ir.Field{{JSONName: "b", Doc: "Bell\a.", Type: ir.Ref{Kind: ir.RefString}}}}
	if err := Assign(&ir.Package{Name: "p", Version: "v1", Types: []*ir.Type{a}}); err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{a.Doc, a.Fields[0].Doc} {
		if strings.ContainsAny(doc, "\x00\r\a\ufeff") {
			t.Errorf("doc %q keeps a character a comment cannot hold", doc)
		}
	}
	if !strings.Contains(a.Doc, "x y") || !strings.Contains(a.Fields[0].Doc, "Bell .") {
		t.Errorf("docs = %q, %q", a.Doc, a.Fields[0].Doc)
	}
}
