package zoddiff

import (
	"encoding/json"
	"sort"
	"strings"
)

// mutants returns variations of the JSON value v, one change each, at every
// object member and array item down to a depth: the member removed; the
// value replaced by null, by a value of another kind, by a custom string
// ("_custom", an unknown tag or enum value); an integer written as 1.0 and
// as 1e0 style; a fraction where an integer stands.
func mutants(v any, depth int) []any {
	var out []any
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			orig := v[k]
			delete(v, k)
			out = append(out, deepCopy(v))
			for _, r := range replacements(orig) {
				v[k] = r
				out = append(out, deepCopy(v))
			}
			if depth > 0 {
				for _, m := range mutants(orig, depth-1) {
					v[k] = m
					out = append(out, deepCopy(v))
				}
			}
			v[k] = orig
		}
	case []any:
		for i, orig := range v {
			for _, r := range replacements(orig)[:2] {
				v[i] = r
				out = append(out, deepCopy(v))
			}
			if depth > 0 {
				for _, m := range mutants(orig, depth-1) {
					v[i] = m
					out = append(out, deepCopy(v))
				}
			}
			v[i] = orig
		}
	}
	return out
}

// replacements are the values that stand in for v: null and a value of
// another kind first, then values of the same kind that test its limits.
func replacements(v any) []any {
	out := []any{nil}
	switch v := v.(type) {
	case string:
		out = append(out, json.Number("7"), "_custom", true)
	case json.Number:
		out = append(out, "7")
		if s := v.String(); !strings.ContainsAny(s, ".eE") {
			out = append(out, json.Number(s+".0"), json.Number(s+"e0"), json.Number(s+".5"), json.Number("-1"),
				json.Number("18446744073709551616"))
		}
	case bool:
		out = append(out, "true")
	case map[string]any:
		out = append(out, "x", []any{})
	case []any:
		out = append(out, map[string]any{}, "x")
	default:
		out = append(out, "x")
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
