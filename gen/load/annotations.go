package load

import (
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Annotations are the keywords the ACP schema adds to JSON Schema.
type Annotations struct {
	Method        string // x-method: the JSON-RPC method a params or result type belongs to
	Side          string // x-side: agent, client, protocol or proxy
	Discriminator string // discriminator.propertyName
	DocsIgnore    bool   // x-docs-ignore

	DefaultOnError   bool // x-deserialize-default-on-error
	SkipInvalidItems bool // x-deserialize-skip-invalid-items
	DefaultOnNull    bool // x-deserialize-default-on-null
}

// Annotate returns the ACP keywords of s.
func Annotate(s *jsonschema.Schema) Annotations {
	if a, ok := s.Extensions["acp"].(*Annotations); ok {
		return *a
	}
	return Annotations{}
}

// Validate accepts every value: the keywords annotate, they do not constrain.
func (*Annotations) Validate(jsonschema.ValidationContext, interface{}) error { return nil }

type annotationCompiler struct{}

func (annotationCompiler) Compile(_ jsonschema.CompilerContext, m map[string]interface{}) (jsonschema.ExtSchema, error) {
	var a Annotations
	a.Method, _ = m["x-method"].(string)
	a.Side, _ = m["x-side"].(string)
	if d, ok := m["discriminator"].(map[string]interface{}); ok {
		a.Discriminator, _ = d["propertyName"].(string)
	}
	a.DocsIgnore, _ = m["x-docs-ignore"].(bool)
	a.DefaultOnError, _ = m["x-deserialize-default-on-error"].(bool)
	a.SkipInvalidItems, _ = m["x-deserialize-skip-invalid-items"].(bool)
	a.DefaultOnNull, _ = m["x-deserialize-default-on-null"].(bool)
	if a == (Annotations{}) {
		return nil, nil
	}
	return &a, nil
}
