// Package rpctest holds the tests of the JSON-RPC message layer that every
// generated package runs: DecodeMessage, whatever the order of a message's
// members, its errors, and the RequestTracker. Each package drives them
// through a small adapter (Codec) that shows its messages as Message.
package rpctest

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// Codec is one generated package's message layer.
type Codec struct {
	Version string // "v1", "v2": the conformance corpus to read
	// Decode is DecodeMessage.
	Decode func(data []byte, method string) (Message, error)
	// NewTracker returns an empty RequestTracker.
	NewTracker func() Tracker
	// MessageError returns the *MessageError that err is or wraps.
	MessageError func(err error) (MessageError, bool)
	// Cancel is the Go name of the params type of session/cancel;
	// PromptResult a result of session/prompt.
	Cancel, PromptResult string
}

// Message is a decoded message: written back as JSON, its kind, its id as
// JSON ("" when it has none), and its params and result as decoded.
type Message struct {
	JSON                            string
	Request, Notification, Response bool
	ID                              string
	Params, Result                  any
	ErrorCode                       int // of an error response
}

// MessageError is a *MessageError: its code, the id as JSON, the method.
type MessageError struct {
	Code       int
	ID, Method string
}

// Tracker is a RequestTracker, with ids as JSON.
type Tracker interface {
	Track(id, method string) error
	Forget(id string) bool
	Len() int
	Decode(data []byte) (Message, error)
}

// typeName returns the name of the type of v without its package, a
// pointer's with a "*"; and whether v is a nil pointer.
func typeName(v any) (name string, isNil bool) {
	t := reflect.TypeOf(v)
	if t == nil {
		return "", true
	}
	prefix := ""
	if t.Kind() == reflect.Pointer {
		prefix = "*"
		isNil = reflect.ValueOf(v).IsNil()
		t = t.Elem()
	}
	return prefix + t.Name(), isNil
}

// is reports whether v is a non-nil *name whose JSON holds each of parts.
func is(v any, name string, parts ...string) bool {
	got, isNil := typeName(v)
	if got != "*"+name || isNil {
		return false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	for _, p := range parts {
		if !strings.Contains(string(b), p) {
			return false
		}
	}
	return true
}

// Decoded is a package's *Message.
type Decoded interface {
	MarshalJSON() ([]byte, error)
	IsRequest() bool
	IsNotification() bool
	IsResponse() bool
}

// View shows m, a package's decoded *Message, to the tests (its fields
// Params, Result, ID and Error read by name); err passes through.
func View(m Decoded, err error) (Message, error) {
	if err != nil {
		return Message{}, err
	}
	out, err := m.MarshalJSON()
	v := Message{JSON: string(out), Request: m.IsRequest(), Notification: m.IsNotification(), Response: m.IsResponse()}
	s := reflect.ValueOf(m).Elem()
	v.Params = s.FieldByName("Params").Interface()
	v.Result = s.FieldByName("Result").Interface()
	v.ID = jsonOf(s.FieldByName("ID"))
	if e := s.FieldByName("Error"); !e.IsNil() {
		v.ErrorCode = int(e.Elem().FieldByName("Code").Int())
	}
	return v, err
}

// ViewError shows me, a package's *MessageError (nil for none), to the
// tests.
func ViewError(me any) (MessageError, bool) {
	p := reflect.ValueOf(me)
	if me == nil || p.IsNil() {
		return MessageError{}, false
	}
	s := p.Elem()
	return MessageError{Code: int(s.FieldByName("Code").Int()), ID: jsonOf(s.FieldByName("ID")), Method: s.FieldByName("Method").String()}, true
}

// jsonOf returns the JSON of the pointer p, "" when it is nil.
func jsonOf(p reflect.Value) string {
	if p.IsNil() {
		return ""
	}
	b, err := p.Interface().(json.Marshaler).MarshalJSON()
	if err != nil {
		return "!" + err.Error()
	}
	return string(b)
}

// RequestTracker is a package's *RequestTracker, whose ids are ID and
// whose messages M.
type RequestTracker[ID any, M Decoded] interface {
	Track(id ID, method string) error
	Forget(id ID) bool
	Len() int
	Decode(data []byte) (M, error)
}

// WrapTracker returns a package's tracker t as a Tracker, reading ids from
// JSON with parse.
func WrapTracker[ID any, M Decoded](t RequestTracker[ID, M], parse func(string) ID) Tracker {
	return &tracker[ID, M]{t, parse}
}

type tracker[ID any, M Decoded] struct {
	t     RequestTracker[ID, M]
	parse func(string) ID
}

func (t *tracker[ID, M]) Track(id, method string) error { return t.t.Track(t.parse(id), method) }
func (t *tracker[ID, M]) Forget(id string) bool         { return t.t.Forget(t.parse(id)) }
func (t *tracker[ID, M]) Len() int                      { return t.t.Len() }
func (t *tracker[ID, M]) Decode(data []byte) (Message, error) {
	m, err := t.t.Decode(data)
	return View(m, err)
}

// NewCodec returns the Codec of a generated package from its DecodeMessage
// (decode), a constructor of its empty *RequestTracker, and, as type
// arguments, its MessageError (E) and RequestID (ID) types; cancel and
// promptResult are the Codec's.
func NewCodec[E any, ID any, M Decoded, T RequestTracker[ID, M], PID interface {
	*ID
	UnmarshalJSON([]byte) error
}](version string, decode func([]byte, string) (M, error), newTracker func() T, cancel, promptResult string) *Codec {
	return &Codec{
		Version: version,
		Decode: func(data []byte, method string) (Message, error) {
			return View(decode(data, method))
		},
		NewTracker: func() Tracker {
			return WrapTracker[ID, M](newTracker(), func(id string) (rid ID) {
				if err := PID(&rid).UnmarshalJSON([]byte(id)); err != nil {
					panic(err)
				}
				return rid
			})
		},
		MessageError: func(err error) (MessageError, bool) {
			var me *E
			target := any(&me) // *E is the package's error type
			errors.As(err, target)
			return ViewError(me)
		},
		Cancel:       cancel,
		PromptResult: promptResult,
	}
}
