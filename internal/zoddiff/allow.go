package zoddiff

import (
	"encoding/json"
	"reflect"
	"strings"
)

// The allow-list: the places where acpgen differs from the TypeScript SDK on
// purpose (docs/decoding.md, "Decoding differences from the TypeScript SDK"). Nothing
// else may differ where the schema sides with zod.

const (
	// allowV1Unknown: a v1 union with a tag it does not know. The v1 schema
	// and zod have closed unions and reject it; acpgen keeps it in the
	// union's Other variant, byte for byte, as v2 does, so that a peer of a
	// newer protocol revision is not cut off by a new session update.
	allowV1Unknown = "v1 unknown variant kept in Other"
	// allowUnnamedMembers: members an object's schema allows without naming
	// them (additionalProperties, an unknown variant's payload) are kept
	// and written back; zod strips them from its output.
	allowUnnamedMembers = "unnamed members kept"
	// allowUnknownMethod: a JSON-RPC message whose method the schema does
	// not define keeps its params (or result) as free-form JSON: an
	// extension method, or one of a newer protocol revision. Where the
	// schema's anyOf over the known methods' params has no free-form
	// branch (ProxyRequest), it and zod reject such params.
	allowUnknownMethod = "params of a method the schema does not define kept raw"
)

// allowedAcceptance returns the allow-list entry that explains why acpgen
// accepts (goErr nil) what zod and the schema reject, or "".
func allowedAcceptance(p Package, in input) string {
	if in.goErr == nil && p.Version == "v1" && in.goOther {
		return allowV1Unknown
	}
	var msg struct {
		Method *string `json:"method"`
	}
	if in.goErr == nil && json.Unmarshal(in.data, &msg) == nil && msg.Method != nil && !p.methods[*msg.Method] {
		return allowUnknownMethod
	}
	return ""
}

// holdsOther reports whether v holds, at any depth, a union's Other variant
// that keeps an unknown tag's object.
func holdsOther(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && holdsOther(v.Elem())
	case reflect.Struct:
		t := v.Type()
		if isOther(t) {
			return true
		}
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() && holdsOther(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return false
		}
		for i := 0; i < v.Len(); i++ {
			if holdsOther(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if holdsOther(it.Value()) {
				return true
			}
		}
	}
	return false
}

// isOther reports whether t is a union's Other variant, which keeps an
// unknown tag's object in Raw.
func isOther(t reflect.Type) bool {
	if !strings.HasSuffix(t.Name(), "Other") {
		return false
	}
	f, ok := t.FieldByName("Raw")
	return ok && f.Type == reflect.TypeOf(json.RawMessage(nil))
}
