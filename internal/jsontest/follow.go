package jsontest

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Follow returns the value at path in v, a Go path of fields and indexes
// such as "Update.Value.(SessionUpdateToolCall).Content[0]": pointers and
// interfaces are followed on the way, and "(T)" requires the interface just
// reached to hold a T or a *T. It fails the test when a step is missing.
func Follow(t testing.TB, v any, path string) reflect.Value {
	t.Helper()
	got, err := follow(v, path)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// follow is Follow, returning an error for a missing step.
func follow(v any, path string) (reflect.Value, error) {
	got := reflect.ValueOf(v)
	done := ""
	for _, step := range strings.Split(path, ".") {
		name, index, hasIndex := strings.Cut(strings.TrimSuffix(step, "]"), "[")
		if typ, ok := strings.CutPrefix(name, "("); ok {
			typ = strings.TrimSuffix(typ, ")")
			if got.Kind() != reflect.Interface || got.IsNil() || indirectName(got.Elem().Type()) != typ {
				return got, fmt.Errorf("%s is %s, want a %s", at(done), describe(got), typ)
			}
			done = join(done, step)
			continue
		}
		got = indirect(got)
		if got.Kind() != reflect.Struct || !got.FieldByName(name).IsValid() {
			return got, fmt.Errorf("%s (%s) has no field %s", at(done), describe(got), name)
		}
		got = got.FieldByName(name)
		if hasIndex {
			i, err := strconv.Atoi(index)
			got = indirect(got)
			if err != nil || got.Kind() != reflect.Slice || i >= got.Len() {
				return got, fmt.Errorf("%s.%s (%s) has no element %s", at(done), name, describe(got), index)
			}
			got = got.Index(i)
		}
		done = join(done, step)
	}
	return got, nil
}

// indirect follows pointers and interfaces to the value they hold.
func indirect(v reflect.Value) reflect.Value {
	for (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && !v.IsNil() {
		v = v.Elem()
	}
	return v
}

// indirectName is the name of t, or of what t points to.
func indirectName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		return t.Elem().Name()
	}
	return t.Name()
}

// describe names the type of v and, when it is an interface, what it holds.
func describe(v reflect.Value) string {
	switch {
	case !v.IsValid():
		return "nothing"
	case v.Kind() == reflect.Interface && v.IsNil():
		return "a nil " + v.Type().String()
	case v.Kind() == reflect.Interface:
		return "a " + v.Elem().Type().String()
	}
	return fmt.Sprintf("a %s", v.Type())
}

// OtherView returns what a test sees of the fallback variant (XxxOther) that
// union, a tagged union or a pointer to one, must hold.
func OtherView(t testing.TB, union any) FallbackView {
	t.Helper()
	u := indirect(reflect.ValueOf(union))
	if u.Kind() != reflect.Struct {
		t.Fatalf("%s is not a tagged union", describe(u))
	}
	value := u.FieldByName("Value")
	if !value.IsValid() || value.Kind() != reflect.Interface || value.IsNil() ||
		value.Elem().Kind() != reflect.Pointer || !strings.HasSuffix(indirectName(value.Elem().Type()), "Other") {
		t.Fatalf("%s: variant is %s, want its fallback variant", u.Type(), describe(value))
	}
	o := value.Elem()
	return FallbackView{
		UnionTag: call(t, u, "Tag").(string),
		Tag:      o.Elem().FieldByName("Tag").String(),
		Custom:   call(t, o, "IsCustom").(bool),
		Raw:      o.Elem().FieldByName("Raw").Bytes(),
		Variant:  o.Interface(),
	}
}

// call calls the method name, without arguments and with one result, of v.
func call(t testing.TB, v reflect.Value, name string) any {
	t.Helper()
	m := v.MethodByName(name)
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		t.Fatalf("%s has no method %s() with one result", v.Type(), name)
	}
	return m.Call(nil)[0].Interface()
}
