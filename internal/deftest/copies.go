package deftest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// RunCopies checks copy, the deep copy of a package's session state, on
// the zero value of every definition and on the params, results and errors
// of the version's conformance corpus: the copy is equal to the original,
// encodes to the same bytes, and shares no pointer, list or map with it
// (strings, which cannot change, may be shared). Free-form JSON stays
// byte for byte as received, whitespace included.
func RunCopies(t *testing.T, defs jsontest.Definitions, p conformance.Package, copy func(any) any) {
	names := make([]string, 0, len(defs))
	for name := range defs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		checkCopy(t, name, defs[name](), copy)
	}
	n := 0
	for _, m := range conformance.Messages(t, p.Version) {
		var v any
		switch m.Kind {
		case "request":
			v = p.NewRequestParams(m.Method)
		case "notification":
			v = p.NewNotificationParams(m.Method)
		case "result":
			v = p.NewResult(m.Method)
		case "error":
			v = p.NewError()
		}
		if v == nil || json.Unmarshal(m.Params, v) != nil {
			continue
		}
		checkCopy(t, m.Name, v, copy)
		n++
	}
	if n < 50 {
		t.Errorf("copied %d corpus messages, want at least 50", n)
	}
}

func checkCopy(t *testing.T, name string, v any, copy func(any) any) {
	t.Helper()
	before, errBefore := json.Marshal(v)
	c := copy(v)
	if rv := reflect.ValueOf(v); rv.Type().Elem().Size() > 0 && reflect.ValueOf(c).Pointer() == rv.Pointer() {
		t.Errorf("%s: the copy is the original", name)
		return
	}
	if !reflect.DeepEqual(v, c) {
		t.Errorf("%s: the copy differs from the original", name)
	}
	after, errAfter := json.Marshal(c)
	if (errBefore == nil) != (errAfter == nil) || !bytes.Equal(before, after) {
		t.Errorf("%s: the copy encodes to\n%s (%v), the original to\n%s (%v)", name, after, errAfter, before, errBefore)
	}
	if path := Shared(reflect.ValueOf(v), reflect.ValueOf(c), name); path != "" {
		t.Errorf("the copy shares %s with the original", path)
	}
}

// Shared returns the path of the first pointer, list or map a and b (of
// one type) share, or "" when they share none.
func Shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer, reflect.Map:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() && (a.Kind() == reflect.Map || a.Type().Elem().Size() > 0) {
			return path
		}
		if a.Kind() == reflect.Map {
			for it := a.MapRange(); it.Next(); {
				if p := Shared(it.Value(), b.MapIndex(it.Key()), path+"["+it.Key().String()+"]"); p != "" {
					return p
				}
			}
			return ""
		}
		return Shared(a.Elem(), b.Elem(), path)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		return Shared(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Cap() == 0 || b.Cap() == 0 || a.Type().Elem().Size() == 0 {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		for i := range min(a.Len(), b.Len()) {
			if p := Shared(a.Index(i), b.Index(i), path+"["+strconv.Itoa(i)+"]"); p != "" {
				return p
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if p := Shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	case reflect.Array:
		for i := range a.Len() {
			if p := Shared(a.Index(i), b.Index(i), path); p != "" {
				return p
			}
		}
	}
	return ""
}
