package acpinspect

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// maxUnknown bounds the unknown variants and members reported of one
// message.
const maxUnknown = 50

// rawMessageType is json.RawMessage: free-form JSON, never walked.
var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// findUnknown walks a decoded payload and lists, with their JSON paths, the
// variants of unions whose tag the generated package does not know (kept
// in an Other type with its Tag and Raw) and the members the schema does
// not name (kept, as received, in the unexported unknownMembers of the
// generated structs).
func findUnknown(v any) []string {
	w := unknownWalker{}
	w.walk(reflect.ValueOf(v), "", 0)
	return w.found
}

type unknownWalker struct {
	found []string
}

func (w *unknownWalker) add(s string) {
	if len(w.found) < maxUnknown {
		w.found = append(w.found, s)
	}
}

func (w *unknownWalker) walk(v reflect.Value, path string, depth int) {
	if depth > 64 || len(w.found) >= maxUnknown || !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			w.walk(v.Elem(), path, depth+1)
		}
	case reflect.Slice, reflect.Array:
		if v.Type() == rawMessageType || v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			w.walk(v.Index(i), path+"["+strconv.Itoa(i)+"]", depth+1)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			w.walk(iter.Value(), join(path, keyString(iter.Key())), depth+1)
		}
	case reflect.Struct:
		w.walkStruct(v, path, depth)
	}
}

func (w *unknownWalker) walkStruct(v reflect.Value, path string, depth int) {
	t := v.Type()
	if strings.HasSuffix(t.Name(), "Other") {
		tag, raw := v.FieldByName("Tag"), v.FieldByName("Raw")
		if tag.IsValid() && tag.Kind() == reflect.String && raw.IsValid() {
			w.add(orRoot(path) + `: unknown variant "` + tag.String() + `" (` + t.Name() + ")")
			return
		}
	}
	names := namesOf(t)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fv := v.Field(i)
		switch {
		case f.Name == "unknownMembers" && fv.Kind() == reflect.String:
			if s := fv.String(); s != "" {
				for _, name := range memberNames(s) {
					w.add(join(path, name) + ": unknown member")
				}
			}
		case !f.IsExported():
		case f.Anonymous || f.Name == "Value":
			w.walk(fv, path, depth+1)
		default:
			w.walk(fv, join(path, names[i]), depth+1)
		}
	}
}

// memberNames lists the names of the members of s, an object's members
// each after a comma, as the generated structs keep unknown ones.
func memberNames(s string) []string {
	var names []string
	dec := json.NewDecoder(bytes.NewReader([]byte("{" + strings.TrimPrefix(s, ",") + "}")))
	if _, err := dec.Token(); err != nil {
		return []string{"?"}
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if name, ok := tok.(string); ok {
			names = append(names, name)
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return names
}

// jsonName is the member name of a struct field.
func jsonName(f reflect.StructField) string {
	if tag, ok := f.Tag.Lookup("json"); ok {
		if name, _, _ := strings.Cut(tag, ","); name != "" && name != "-" {
			return name
		}
	}
	return f.Name
}

func keyString(k reflect.Value) string {
	if k.Kind() == reflect.String {
		return k.String()
	}
	return "?"
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func orRoot(path string) string {
	if path == "" {
		return "(message)"
	}
	return path
}

// fieldNames caches the member names of the fields of struct types.
var fieldNames sync.Map // reflect.Type -> []string

// namesOf returns the member name of each field of t.
func namesOf(t reflect.Type) []string {
	if v, ok := fieldNames.Load(t); ok {
		return v.([]string)
	}
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = jsonName(t.Field(i))
	}
	fieldNames.Store(t, names)
	return names
}
