package zoddiff

import (
	"encoding/json"
	"sort"
	"strings"
)

// Synthetic instances: for every definition, one value per variant (each
// branch of a top-level anyOf/oneOf, the shared properties merged in), in
// two sizes: every property filled, and the required ones only. Nested
// values take their first non-null branch; recursion stops at a depth.

type instanceMaker struct {
	defs map[string]any // $defs of the raw schema
}

const maxDepth = 6

// instances returns the values made for definition name.
func (m *instanceMaker) instances(name string) []any {
	s, _ := m.defs[name].(map[string]any)
	if s == nil {
		return nil
	}
	var out []any
	for _, full := range []bool{true, false} {
		bs := branchesOf(s)
		if len(bs) == 0 {
			out = append(out, m.value(s, 0, full))
			continue
		}
		shared := withoutBranches(s)
		for _, b := range bs {
			out = append(out, m.value(merge(shared, b), 0, full))
		}
	}
	return out
}

// branchesOf returns the anyOf or oneOf branches of s.
func branchesOf(s map[string]any) []map[string]any {
	var out []map[string]any
	for _, k := range []string{"anyOf", "oneOf"} {
		list, _ := s[k].([]any)
		for _, b := range list {
			if bm, ok := b.(map[string]any); ok {
				out = append(out, bm)
			}
		}
	}
	return out
}

func withoutBranches(s map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range s {
		if k != "anyOf" && k != "oneOf" && k != "discriminator" {
			out[k] = v
		}
	}
	return out
}

// merge combines the keywords of a and b, properties and required joined.
func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		switch k {
		case "properties":
			props := map[string]any{}
			if p, ok := out[k].(map[string]any); ok {
				for pk, pv := range p {
					props[pk] = pv
				}
			}
			for pk, pv := range v.(map[string]any) {
				props[pk] = pv
			}
			out[k] = props
		case "required":
			req, _ := out[k].([]any)
			out[k] = append(append([]any(nil), req...), v.([]any)...)
		default:
			out[k] = v
		}
	}
	return out
}

// value makes one value of s.
func (m *instanceMaker) value(s map[string]any, depth int, full bool) any {
	if ref, ok := s["$ref"].(string); ok {
		target, _ := m.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if target == nil {
			return nil
		}
		return m.value(merge(target, withoutKey(s, "$ref")), depth+1, full && depth < maxDepth)
	}
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	if all, ok := s["allOf"].([]any); ok {
		merged := withoutKey(s, "allOf")
		for _, a := range all {
			am, _ := a.(map[string]any)
			if ref, ok := am["$ref"].(string); ok {
				am, _ = m.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
			}
			if am != nil {
				merged = merge(merged, am)
			}
		}
		return m.value(merged, depth+1, full)
	}
	if bs := branchesOf(s); len(bs) > 0 {
		shared := withoutBranches(s)
		for _, b := range bs {
			if b["type"] != "null" {
				return m.value(merge(shared, b), depth+1, full)
			}
		}
		return nil
	}
	return m.typed(s, depth, full)
}

// typed makes one value of s by its type.
func (m *instanceMaker) typed(s map[string]any, depth int, full bool) any {
	switch typeOf(s) {
	case "string":
		switch s["format"] {
		case "date-time":
			return "2025-01-02T03:04:05Z"
		case "uri":
			return "https://example.com/a"
		}
		return "s"
	case "integer":
		if min, ok := s["minimum"].(float64); ok && min > 1 {
			return json.Number(strings.TrimSuffix(json.Number(formatFloat(min)).String(), ".0"))
		}
		return json.Number("1")
	case "number":
		return json.Number("0.5")
	case "boolean":
		return true
	case "array":
		items, _ := s["items"].(map[string]any)
		min, _ := s["minItems"].(float64)
		if items == nil || depth >= maxDepth && min == 0 {
			return []any{}
		}
		return []any{m.value(items, depth+1, full)}
	case "object":
		return m.object(s, depth, full)
	}
	return map[string]any{}
}

// typeOf is the type of s: its first that is not null, "object" for a
// schema with properties and no type.
func typeOf(s map[string]any) any {
	typ := s["type"]
	if list, ok := typ.([]any); ok {
		typ = nil
		for _, t := range list {
			if t != "null" {
				typ = t
				break
			}
		}
	}
	if typ == nil && s["properties"] != nil {
		typ = "object"
	}
	return typ
}

// object makes an object of s: its required properties, and with full the
// others too, above maxDepth.
func (m *instanceMaker) object(s map[string]any, depth int, full bool) map[string]any {
	obj := map[string]any{}
	props, _ := s["properties"].(map[string]any)
	req := map[string]bool{}
	if r, ok := s["required"].([]any); ok {
		for _, k := range r {
			req[k.(string)] = true
		}
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !req[k] && (!full || depth >= maxDepth) {
			continue
		}
		if ps, ok := props[k].(map[string]any); ok {
			obj[k] = m.value(ps, depth+1, full)
		}
	}
	return obj
}

func withoutKey(s map[string]any, key string) map[string]any {
	out := map[string]any{}
	for k, v := range s {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func formatFloat(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}
