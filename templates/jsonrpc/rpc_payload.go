//go:build ignore

package acp

import (
	"encoding/json"
	"reflect"
	"sync"
)

// The payload of a message, the params of a request or notification or the
// result of a response, decoded into the type of its method as it is
// reached, or kept as raw JSON until the members that decide its type have
// been read. DecodeMessage (and the RequestTracker through it) and the
// connections' line parser share it.

// payload is the params or result of a message: decoded as the kind of
// payload as says, or kept raw for later (as is asNone).
type payload struct {
	raw   []byte // the slice of the input it spans
	as    int8
	value any
	err   error // the payload does not fit its type
}

// How a payload was decoded in the pass over the envelope.
const (
	asNone         = iota // not yet: it is decoded once the envelope is read
	asNotification        // as the params of a notification, before any id
	asRequest             // as the params of a request
	asResult              // as a result
)

// keep reads the payload at the decoder, to be decoded later.
func (p *payload) keep(d *decoder) error {
	raw, err := d.ReadValue()
	p.raw, p.as = raw, asNone
	return err
}

// decode decodes the payload at the decoder into typed, as the kind of
// payload as says.
func (p *payload) decode(d *decoder, typed any, as int8) error {
	start := d.InputOffset()
	v, err := decodeValue(d, typed)
	if err != nil && !isTypeError(err) {
		return err
	}
	p.raw, p.value, p.err, p.as = trimSeparators(d.in[start:d.InputOffset()]), v, err, as
	return nil
}

// trimSeparators drops the white space and the colon that the decoder's
// offset counts before a member's value.
func trimSeparators(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n' || b[0] == ':') {
		b = b[1:]
	}
	return b
}

// decodeAgain decodes the payload, kept raw or decoded as another kind,
// into a newValue of method, as the kind of payload as says.
func (p *payload) decodeAgain(newValue func(string) any, method string, as int8) {
	if p.as == as {
		return
	}
	p.as = as
	p.err = withDecoder(p.raw, func(d *decoder) (err error) {
		p.value, err = decodeValue(d, newValue(method))
		return err
	})
}

// decodeValue decodes the value at the decoder into typed, a new value of
// a payload's type, or keeps it as raw JSON when typed is nil; null is a
// nil pointer of the type. After a type error it reads to the end of the
// value, so that the message can be read on.
func decodeValue(d *decoder, typed any) (any, error) {
	switch {
	case typed == nil:
		raw, err := d.ReadValue()
		if err != nil {
			return nil, err
		}
		return append(json.RawMessage(nil), raw...), nil
	case d.PeekKind() == 'n':
		return reflect.Zero(reflect.TypeOf(typed)).Interface(), d.SkipValue()
	}
	depth := d.StackDepth()
	generated, err := decodeGenerated(d, typed)
	if !generated {
		raw, err := d.ReadValue()
		if err != nil {
			return nil, err
		}
		return typed, json.Unmarshal(raw, typed)
	}
	if err != nil {
		if isTypeError(err) {
			if end := d.recover(depth); end != nil {
				return nil, end
			}
		}
		return nil, err
	}
	return typed, nil
}

// decodeGenerated decodes the value at the decoder into typed with its
// generated decoder: decodeJSON, or a struct's decodeRest. It reports
// false, having read nothing, for a type without one, which decodeValue
// then decodes with encoding/json.
func decodeGenerated(d *decoder, typed any) (bool, error) {
	switch v := typed.(type) {
	case decodable:
		return true, v.decodeJSON(d)
	case restDecoder:
		return true, d.object(v)
	}
	return false, nil
}

// methodNames holds the method names read so far, so that the name of a
// method the connection has seen before is not allocated again.
var methodNames = struct {
	sync.RWMutex
	m map[string]string
}{m: map[string]string{}}

// methodName returns name as a string, shared by every message that has it.
func methodName(name []byte) string {
	methodNames.RLock()
	s, ok := methodNames.m[string(name)]
	methodNames.RUnlock()
	if ok {
		return s
	}
	s = string(name)
	methodNames.Lock()
	if len(methodNames.m) < 1024 {
		methodNames.m[s] = s
	}
	methodNames.Unlock()
	return s
}
