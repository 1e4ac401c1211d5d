package zoddiff

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

// Unions with a default branch. Where a union's branch without tag leaves
// the tag free and the schema has no branch of its own for unknown tags
// (ir.UnionInfo.UnknownDefault: v1 AuthMethod, McpServer,
// SetSessionConfigOptionRequest), the schema's anyOf, the reference
// decoder and zod read an unknown tag as that branch. Every value of such
// a union is given again with unknown tags, and a value the schema accepts
// must not be kept in the union's unknown variant.

// unknownTags stand in for the tag of a default union: a custom one and one
// of a newer revision.
var unknownTags = []string{"_custom", "env_var"}

// defaultUnions returns the tag of each union of types whose unknown tags go
// to its branch without tag, by schema name.
func defaultUnions(types map[string]*ir.Type) map[string]string {
	out := map[string]string{}
	for name, t := range types {
		if t.Kind == ir.Union && t.Union.UnknownDefault {
			out[name] = t.Union.Tag
		}
	}
	return out
}

// withUnknownTags returns v, an object, with each of unknownTags as its tag.
func withUnknownTags(v any, tag string) []any {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out []any
	for _, u := range unknownTags {
		c := deepCopy(obj).(map[string]any)
		c[tag] = u
		out = append(out, c)
	}
	return out
}

// otherTypes returns the Go names of the unknown variants that v holds, at
// any depth.
func otherTypes(v reflect.Value, out map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			otherTypes(v.Elem(), out)
		}
	case reflect.Struct:
		if isOther(v.Type()) {
			out[v.Type().Name()] = true
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				otherTypes(v.Field(i), out)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.Uint8 {
			for i := 0; i < v.Len(); i++ {
				otherTypes(v.Index(i), out)
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			otherTypes(it.Value(), out)
		}
	}
}

// defaultOthers are the Go names of the unknown variants of the default
// unions: the union's Go name and "Other".
func defaultOthers(p Package, unions map[string]string) map[string]string {
	out := map[string]string{}
	for name := range unions {
		if mk := p.Definitions[name]; mk != nil {
			out[reflect.TypeOf(mk()).Elem().Name()+"Other"] = name
		}
	}
	return out
}

// keptAsUnknown returns the default union whose unknown variant in holds
// although the schema accepts in, or "".
func keptAsUnknown(in input, others map[string]string) string {
	for _, name := range in.goOthers {
		if u := others[name]; u != "" {
			return u
		}
	}
	return ""
}

// checkCoverage fails the test when a default union had no value with an
// unknown tag that the Go decoder read as its branch without tag: the
// differential test would then not cover them.
func checkCoverage(t *testing.T, inputs []input, unions map[string]string, others map[string]string) {
	taken := map[string]int{}
	for _, in := range inputs {
		if in.unknownTag && in.goErr == nil && len(in.goOthers) == 0 {
			taken[in.def]++
		}
	}
	var summary []string
	for name := range unions {
		if taken[name] == 0 {
			t.Errorf("%s: no value with an unknown tag decoded into its branch without tag", name)
		}
		summary = append(summary, fmt.Sprintf("%s %d", name, taken[name]))
	}
	sort.Strings(summary)
	if len(others) != len(unions) {
		t.Errorf("the unknown variants of the default unions: %v, for %d unions", others, len(unions))
	}
	t.Logf("values with an unknown tag read as the branch without tag: %s", strings.Join(summary, ", "))
}
