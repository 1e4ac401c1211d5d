package jsontest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// A shape describes a decoded Go value without naming its Go type, so that
// one table of cases serves every generated package. A shape is nil (the
// zero value of any type), a string, bool, int or float64 (a value of that
// kind, named types included; a string also matches a []byte holding it),
// or one of the types below. A pointer or an interface is followed to the
// value it holds, which must exist unless the shape is nil.

// Fields is the shape of a struct: each named field has its shape and every
// other field holds its zero value. Fields of embedded structs are named as
// promoted fields. A name ending in "()" calls that method (no arguments, one
// result) and matches its result.
type Fields map[string]any

// Some is Fields that leaves the fields it does not name unchecked.
type Some map[string]any

// Is returns the shape of the value behind an interface, such as a union's
// Value: the name of its type, without package or "*", and the value's
// shape. A struct with such a Value field, a union, has the shape of its
// Value.
func Is(typ string, want any) any {
	return variant{typ, want}
}

// variant is the shape Is returns.
type variant struct {
	typ  string
	want any
}

// All is the shape of a value that has each of the shapes, such as a
// string and Some methods of its type.
type All []any

// List is the shape of a slice that is not nil: its elements' shapes, in
// order.
type List []any

// Contains is the shape of a string or []byte holding the text.
type Contains string

// Empty is the shape of a slice, map or string of length 0, nil included.
type Empty struct{}

// NotZero is the shape of any value but the zero value of its type.
type NotZero struct{}

// AssertShape fails the test unless v has the shape want; v is a pointer to
// the value, so that methods with pointer receivers can be called.
func AssertShape(t testing.TB, v any, want any) {
	t.Helper()
	for _, p := range matchShape("", reflect.ValueOf(v).Elem(), want) {
		b, _ := json.Marshal(v)
		t.Errorf("%s (in %T %s)", p, v, b)
	}
}

// matchShape returns what differs between got and want, each located by its
// Go path from the value matched first.
func matchShape(path string, got reflect.Value, want any) []string {
	if want == nil {
		if !got.IsValid() || got.IsZero() {
			return nil
		}
		return []string{fmt.Sprintf("%s = %#v, want the zero value", at(path), got.Interface())}
	}
	if _, ok := want.(Empty); ok {
		switch got.Kind() {
		case reflect.Slice, reflect.Map, reflect.String:
			if got.Len() == 0 {
				return nil
			}
		}
		return []string{fmt.Sprintf("%s = %#v, want it empty", at(path), got.Interface())}
	}
	if _, ok := want.(NotZero); ok {
		if got.IsValid() && !got.IsZero() {
			return nil
		}
		return []string{at(path) + " is the zero value, want another"}
	}
	for got.IsValid() && (got.Kind() == reflect.Pointer || got.Kind() == reflect.Interface) {
		if got.IsNil() {
			return []string{fmt.Sprintf("%s is nil, want %#v", at(path), want)}
		}
		if is, ok := want.(variant); ok && got.Kind() == reflect.Interface {
			name := got.Elem().Type().Name()
			if got.Elem().Kind() == reflect.Pointer {
				name = got.Elem().Type().Elem().Name()
			}
			if name != is.typ {
				return []string{fmt.Sprintf("%s holds a %s, want a %s", at(path), got.Elem().Type(), is.typ)}
			}
			want = is.want
			if want == nil {
				return nil
			}
		}
		got = got.Elem()
	}
	switch w := want.(type) {
	case All:
		var diffs []string
		for _, each := range w {
			diffs = append(diffs, matchShape(path, got, each)...)
		}
		return diffs
	case Fields:
		return matchFields(path, got, w, true)
	case Some:
		return matchFields(path, got, w, false)
	case List:
		return matchList(path, got, w)
	case variant:
		if value := got; value.Kind() == reflect.Struct {
			if value = value.FieldByName("Value"); value.Kind() == reflect.Interface {
				return matchShape(join(path, "Value"), value, w)
			}
		}
		return []string{fmt.Sprintf("%s is a %s, not an interface holding a %s", at(path), got.Type(), w.typ)}
	}
	if !matchScalar(got, want) {
		return []string{fmt.Sprintf("%s = %#v, want %#v", at(path), got.Interface(), want)}
	}
	return nil
}

// at names a path in a message.
func at(path string) string {
	if path == "" {
		return "value"
	}
	return path
}

// matchScalar reports whether got is the scalar want.
func matchScalar(got reflect.Value, want any) bool {
	switch w := want.(type) {
	case string:
		if got.Kind() == reflect.Slice && got.Type().Elem().Kind() == reflect.Uint8 {
			return string(got.Bytes()) == w
		}
		return got.Kind() == reflect.String && got.String() == w
	case Contains:
		if got.Kind() == reflect.Slice && got.Type().Elem().Kind() == reflect.Uint8 {
			return bytes.Contains(got.Bytes(), []byte(w))
		}
		return got.Kind() == reflect.String && strings.Contains(got.String(), string(w))
	case bool:
		return got.Kind() == reflect.Bool && got.Bool() == w
	case int:
		switch {
		case got.CanInt():
			return got.Int() == int64(w)
		case got.CanUint():
			return w >= 0 && got.Uint() == uint64(w)
		case got.CanFloat():
			return got.Float() == float64(w)
		}
	case float64:
		return got.CanFloat() && got.Float() == w
	}
	return false
}

// matchFields matches a struct with the fields named in want; when exact,
// the fields want does not name must be zero.
func matchFields(path string, got reflect.Value, want map[string]any, exact bool) []string {
	var diffs []string
	seen := map[string]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			w, named := want[f.Name]
			switch {
			case named && f.IsExported():
				seen[f.Name] = true
				diffs = append(diffs, matchShape(join(path, f.Name), v.Field(i), w)...)
			case f.Anonymous && f.Type.Kind() == reflect.Struct:
				walk(v.Field(i))
			case exact && f.IsExported() && !v.Field(i).IsZero():
				diffs = append(diffs, fmt.Sprintf("%s = %#v, want the zero value", join(path, f.Name), v.Field(i).Interface()))
			}
		}
	}
	if got.Kind() == reflect.Struct {
		walk(got)
	}
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if seen[name] {
			continue
		}
		m, ok := strings.CutSuffix(name, "()")
		if !ok {
			diffs = append(diffs, fmt.Sprintf("%s (a %s) has no field %s", at(path), got.Type(), name))
			continue
		}
		diffs = append(diffs, matchMethod(join(path, name), got, m, want[name])...)
	}
	return diffs
}

// matchMethod calls the method name of v, or of its address, and matches
// the one result with want.
func matchMethod(path string, v reflect.Value, name string, want any) []string {
	m := v.MethodByName(name)
	if !m.IsValid() && v.CanAddr() {
		m = v.Addr().MethodByName(name)
	}
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		return []string{fmt.Sprintf("%s: %s has no method %s with no arguments and one result", path, v.Type(), name)}
	}
	return matchShape(path, m.Call(nil)[0], want)
}

// matchList matches a slice, element by element.
func matchList(path string, got reflect.Value, want List) []string {
	if got.Kind() != reflect.Slice || got.IsNil() {
		return []string{fmt.Sprintf("%s = %#v, want a list of %d", at(path), got.Interface(), len(want))}
	}
	if got.Len() != len(want) {
		return []string{fmt.Sprintf("%s has %d elements, want %d: %#v", at(path), got.Len(), len(want), got.Interface())}
	}
	var diffs []string
	for i, w := range want {
		diffs = append(diffs, matchShape(fmt.Sprintf("%s[%d]", path, i), got.Index(i), w)...)
	}
	return diffs
}

// join appends a field to a path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
