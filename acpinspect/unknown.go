package acpinspect

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// maxUnknown bounds the unknown variants and members reported of one
// message.
const maxUnknown = 50

// rawMessageType is json.RawMessage: free-form JSON, never walked.
var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// find walks a decoded payload and lists, with their JSON paths, the
// variants of unions whose tag the generated package does not know (kept
// in an Other type with its Tag and Raw) and the members the schema does
// not name (kept, as received, in the unexported unknownMembers of the
// generated structs). An Inspector keeps one walker, whose path's memory
// serves every message.
func (w *unknownWalker) find(v any) []string {
	w.found, w.path = nil, w.path[:0]
	w.walk(reflect.ValueOf(v), 0)
	return w.found
}

// unknownWalker keeps the path it is at as a stack of segments, made into
// text only for what it finds.
type unknownWalker struct {
	found []string
	path  []segment
	types map[reflect.Type]*structInfo
}

// segment is a member name, or an index.
type segment struct {
	name    string
	index   int
	isIndex bool
}

func (w *unknownWalker) add(s string) {
	if len(w.found) < maxUnknown {
		w.found = append(w.found, s)
	}
}

// pathText is the path as text: a.b[2].c, "" at the root.
func (w *unknownWalker) pathText() string {
	var b strings.Builder
	for _, s := range w.path {
		if s.isIndex {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.name)
	}
	return b.String()
}

// walkIn walks v at the path's segment s.
func (w *unknownWalker) walkIn(v reflect.Value, s segment, depth int) {
	w.path = append(w.path, s)
	w.walk(v, depth)
	w.path = w.path[:len(w.path)-1]
}

func (w *unknownWalker) walk(v reflect.Value, depth int) {
	if depth > 64 || len(w.found) >= maxUnknown || !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			w.walk(v.Elem(), depth+1)
		}
	case reflect.Slice, reflect.Array:
		if v.Type() == rawMessageType || v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			w.walkIn(v.Index(i), segment{index: i, isIndex: true}, depth+1)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			w.walkIn(iter.Value(), segment{name: keyString(iter.Key())}, depth+1)
		}
	case reflect.Struct:
		w.walkStruct(v, depth)
	}
}

func (w *unknownWalker) walkStruct(v reflect.Value, depth int) {
	t := v.Type()
	info := w.structInfo(t)
	if info.other {
		w.add(orRoot(w.pathText()) + `: unknown variant "` + v.Field(info.tag).String() + `" (` + t.Name() + ")")
		return
	}
	for i, f := range info.fields {
		switch f.role {
		case unknownField:
			if s := v.Field(i).String(); s != "" {
				for _, name := range memberNames(s) {
					w.add(join(w.pathText(), name) + ": unknown member")
				}
			}
		case inlineField:
			w.walk(v.Field(i), depth+1)
		case memberField:
			w.walkIn(v.Field(i), segment{name: f.name}, depth+1)
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

// The roles of a struct's fields in the walk.
const (
	skipField    = iota // unexported
	unknownField        // unknownMembers: the members the schema does not name
	inlineField         // embedded, or a union's Value: at the struct's own path
	memberField         // a member, at its name
)

// fieldInfo is what the walk needs of a struct field.
type fieldInfo struct {
	name string // the member name
	role int
}

// structInfo is what the walk needs of a struct type.
type structInfo struct {
	// other is set for an unknown variant's type (its name ends in Other,
	// it has a string Tag and a Raw), whose Tag is field tag.
	other  bool
	tag    int
	fields []fieldInfo
}

// structInfo returns what the walk needs of t, worked out once a walker.
func (w *unknownWalker) structInfo(t reflect.Type) *structInfo {
	if info := w.types[t]; info != nil {
		return info
	}
	info := &structInfo{fields: fieldsOf(t)}
	if strings.HasSuffix(t.Name(), "Other") {
		tag, hasTag := t.FieldByName("Tag")
		_, hasRaw := t.FieldByName("Raw")
		if hasTag && hasRaw && tag.Type.Kind() == reflect.String && len(tag.Index) == 1 {
			info.other, info.tag = true, tag.Index[0]
		}
	}
	if w.types == nil {
		w.types = map[reflect.Type]*structInfo{}
	}
	w.types[t] = info
	return info
}

// fieldsOf returns what the walk needs of each field of t.
func fieldsOf(t reflect.Type) []fieldInfo {
	fields := make([]fieldInfo, t.NumField())
	for i := range fields {
		f := t.Field(i)
		switch {
		case f.Name == "unknownMembers" && f.Type.Kind() == reflect.String:
			fields[i].role = unknownField
		case !f.IsExported():
			fields[i].role = skipField
		case !mayHold(f.Type, 0):
			fields[i].role = skipField // nothing in it can be unknown
		case f.Anonymous || f.Name == "Value":
			fields[i].role = inlineField
		default:
			fields[i] = fieldInfo{name: jsonName(f), role: memberField}
		}
	}
	return fields
}

// mayHold reports whether a value of type t can hold, at any depth, what
// the walk looks for: a struct (unknown members, an unknown variant) or an
// interface (a union's variant). Scalars, raw JSON and what holds only
// them are not walked.
func mayHold(t reflect.Type, depth int) bool {
	if depth > 16 {
		return true
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Interface:
		return true
	case reflect.Pointer, reflect.Map:
		return mayHold(t.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		return t != rawMessageType && t.Elem().Kind() != reflect.Uint8 && mayHold(t.Elem(), depth+1)
	}
	return false
}
