package acpinspect

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
)

// A dialect decodes the messages of one protocol version with its
// generated package, and keeps its sessions' state with that package's
// SessionState.
type dialect interface {
	version() int
	// decode decodes a message; method names the request a response
	// answers.
	decode(data []byte, method string) decoded
	// decodeParams decodes the params of a request (or notification) of
	// method whose envelope is in the plain layout (scanner.plain): what
	// decode makes of the whole message. false when it cannot say, for a
	// method the schema does not define or params that do not decode,
	// which decode then judges.
	decodeParams(params []byte, method string, request bool) (decoded, bool)
	newSession(id string) sessionState
}

// decoded is what a dialect made of a message.
type decoded struct {
	payload any    // the typed params or result, nil when there is none
	goType  string // the Go type of the payload, "acpv1.PromptRequest"
	err     error  // why the message does not decode
	code    int    // the JSON-RPC code that would answer err
	path    string // where in the message err is, when known
}

// decodeTyped decodes params into typed, a new params value of a method
// (nil when the schema defines none) with its generated decoder.
func decodeTyped(params []byte, typed any) (decoded, bool) {
	u, ok := typed.(json.Unmarshaler)
	if !ok || u.UnmarshalJSON(params) != nil {
		return decoded{}, false
	}
	return decoded{payload: typed, goType: goTypeName(typed)}, true
}

// sessionState is a session's state in one dialect.
type sessionState interface {
	// apply feeds the params of a session/update notification, which it
	// takes over (the state keeps parts of them); false when they are not
	// one.
	apply(params any) bool
	// toolCall returns a tool call's title and status.
	toolCall(id string) (title, status string, ok bool)
	// view returns the plans and the session's other state.
	view() stateView
}

// stateView is the version-neutral part of a session's state the UI shows.
type stateView struct {
	Plans []PlanView      `json:"plans"`
	Mode  string          `json:"mode,omitempty"`
	Title string          `json:"title,omitempty"`
	State json.RawMessage `json:"state,omitempty"` // v2: the last state_update
	Usage json.RawMessage `json:"usage,omitempty"`
}

// PlanView is a plan as the session state holds it after the plan rules:
// a v1 plan replaces the main plan whole, a plan_update replaces its plan
// by id, a plan_removed removes it.
type PlanView struct {
	ID      string      `json:"id"`
	Kind    string      `json:"kind"`
	Entries []EntryView `json:"entries,omitempty"`
	Content string      `json:"content,omitempty"`
	URI     string      `json:"uri,omitempty"`
}

// EntryView is one entry of an items plan.
type EntryView struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// typeName is the name of v's type without the pointer: acpv1.PromptRequest.
func typeName(v any) string {
	if v == nil {
		return ""
	}
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeOf(json.RawMessage(nil)) {
		return "json.RawMessage"
	}
	return t.String()
}

// errorPath returns the JSON path a decode error names, when it names one.
func errorPath(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Field
	}
	return ""
}

// goTypeNames caches goTypeName by the payload's type and its variant's.
var goTypeNames sync.Map // [2]reflect.Type -> string

// updateFields caches, by struct type, the index of an Update field that
// holds a union and of the union's Value ({-1} when there is none, {-2}
// when its Update is not a union field of its own).
var updateFields sync.Map // reflect.Type -> [2]int

// goTypeName is the name of a payload's type with its variant's:
// acpv1.SessionNotification (SessionUpdateAgentMessageChunk).
func goTypeName(v any) string {
	if v == nil {
		return ""
	}
	vt, ok := variantType(v)
	if !ok {
		return variantName(pkgOf(typeName(v)), v)
	}
	key := [2]reflect.Type{reflect.TypeOf(v), vt}
	if s, ok := goTypeNames.Load(key); ok {
		return s.(string)
	}
	s := variantName(pkgOf(typeName(v)), v)
	goTypeNames.Store(key, s)
	return s
}

// variantType is the type of the variant in v's Update, or nil; false
// when v's type has an Update that is not a union field of its own, whose
// name is not cached.
func variantType(v any) (reflect.Type, bool) {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return nil, true
	}
	i, ok := updateFields.Load(rv.Type())
	if !ok {
		i = [2]int{-1} // no Update
		if f, found := rv.Type().FieldByName("Update"); found {
			i = [2]int{-2} // not a union field of its own
			if v, has := f.Type.FieldByName("Value"); len(f.Index) == 1 && f.Type.Kind() == reflect.Struct &&
				has && len(v.Index) == 1 && v.Type.Kind() == reflect.Interface {
				i = [2]int{f.Index[0], v.Index[0]}
			}
		}
		updateFields.Store(rv.Type(), i)
	}
	switch i := i.([2]int); {
	case i[0] == -1:
		return nil, true
	case i[0] < 0:
		return nil, false
	default:
		val := rv.Field(i[0]).Field(i[1])
		if val.IsNil() {
			return nil, true
		}
		return val.Elem().Type(), true
	}
}

// variantName adds the variant of a union payload to its type's name:
// acpv1.SessionNotification (SessionUpdateAgentMessageChunk).
func variantName(name string, v any) string {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return name
	}
	u := rv.FieldByName("Update")
	if !u.IsValid() || u.Kind() != reflect.Struct {
		return name
	}
	val := u.FieldByName("Value")
	if !val.IsValid() || val.IsNil() {
		return name
	}
	t := val.Elem().Type()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return name + " (" + t.Name() + ")"
}

// pkgOf trims the package path from a type name.
func pkgOf(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}
