// Package rpctest holds the tests of the JSON-RPC message layer that every
// generated package runs: DecodeMessage, whatever the order of a message's
// members, its errors, and the RequestTracker. Each package drives them
// through a small adapter (Codec) that shows its messages as Message.
package rpctest

import (
	"encoding/json"
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
