//go:build ignore

package acp

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// A Message is one JSON-RPC 2.0 message of the protocol: a request (Method
// and ID), a notification (Method, no ID), or a response to a request (a
// Result, or an Error).
type Message struct {
	// ID is the id of a request, or of the request a response answers; nil
	// for a notification, and for a response whose id is null.
	ID *RequestID
	// Method is the method of a request or notification; "" for a response.
	Method string
	// Params holds the params of a request or notification: a pointer to
	// the method's params type (*InitializeRequest, …), nil if the message
	// has none, or json.RawMessage for an extension method ("_" prefix) and
	// any method the schema does not define, kept exactly as received.
	Params any
	// Result holds the result of a successful response: a pointer to the
	// method's result type, or json.RawMessage when the method is not given
	// or the schema does not define it.
	Result any
	// Error is the error of a failed response.
	Error *Error
}

// IsRequest, IsNotification and IsResponse tell the kinds of message apart.
func (m *Message) IsRequest() bool { return m.Method != "" && m.ID != nil }

// IsNotification reports whether m is a notification: a method without id.
func (m *Message) IsNotification() bool { return m.Method != "" && m.ID == nil }

// IsResponse reports whether m answers a request, with a result or an error.
func (m *Message) IsResponse() bool { return m.Method == "" }

// DecodeMessage decodes one JSON-RPC message into typed params or result.
// A response carries no method: method names the method of the request it
// answers (keep it from the request with the same id, or let a
// RequestTracker do it), or "" to keep the result as raw JSON. method is
// ignored for requests and notifications. The message is read in one pass:
// the params or result are decoded as the decoder reaches them, once the
// members that decide their type (method, id) have been read, as JSON-RPC
// implementations write them; a payload that comes before them is decoded
// after the rest of the message. Errors are *MessageError.
func DecodeMessage(data []byte, method string) (*Message, error) {
	return decodeMessage(data, method, nil)
}

// MarshalJSON writes the message with "jsonrpc": "2.0"; its kind follows
// from Method, ID, Error and Result as DecodeMessage sets them. A message
// without a Method is a response: it needs a Result or an Error, not both,
// and an ID, except that an error response may leave ID nil to be written
// with a null id, as JSON-RPC answers a message whose id could not be read.
// A result of null is written from Result: json.RawMessage("null"), or a
// nil pointer of the result type. The zero Message is an error.
func (m Message) MarshalJSON() ([]byte, error) {
	buf := encodeBuffer()
	b, err := m.appendJSON(*buf)
	return encoded(buf, b, err)
}

func (m *Message) appendJSON(b []byte) ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	b = append(b, `{"jsonrpc":"2.0"`...)
	var err error
	if m.Method == "" || m.ID != nil {
		// A nil ID in an error response is written as a null id.
		b = append(b, `,"id":`...)
		if b, err = appendAny(b, m.ID); err != nil {
			return nil, err
		}
	}
	switch {
	case m.Method != "":
		b = append(b, `,"method":`...)
		b = appendString(b, m.Method)
		if m.Params != nil {
			b = append(b, `,"params":`...)
			b, err = appendAny(b, m.Params)
		}
	case m.Error != nil:
		b = append(b, `,"error":`...)
		b, err = encodeObject(m.Error, b)
	default:
		b = append(b, `,"result":`...)
		b, err = appendAny(b, m.Result)
	}
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// check reports a message that is neither a request, a notification nor a
// response.
func (m *Message) check() error {
	switch {
	case m.Method != "":
		return nil
	case m.Result == nil && m.Error == nil && m.ID == nil:
		return errors.New("json-rpc: empty message: a request or notification needs a Method, a response an ID and a Result or an Error")
	case m.Result == nil && m.Error == nil:
		return errors.New("json-rpc: response without a Result or an Error")
	case m.Result != nil && m.Error != nil:
		return errors.New("json-rpc: response with both a Result and an Error")
	case m.ID == nil && m.Error == nil:
		return errors.New("json-rpc: result response without an ID")
	}
	return nil
}

// appendAny appends v through its generated encoder when it has one, and
// otherwise as encoding/json writes it; nil, and a nil pointer, are null.
func appendAny(b []byte, v any) ([]byte, error) {
	if out, ok, err := appendGenerated(b, v); ok {
		return out, err
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, out...), nil
}

// appendGenerated appends v through its generated encoder; ok is false
// when v has none. nil, and a nil pointer, are null.
func appendGenerated(b []byte, v any) (out []byte, ok bool, err error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), true, nil
	case json.RawMessage:
		out, err = appendRaw(b, v)
	case *json.RawMessage:
		if v == nil {
			return append(b, "null"...), true, nil
		}
		out, err = appendRaw(b, *v)
	case interface{ appendJSON([]byte) ([]byte, error) }:
		if isNilPointer(v) {
			return append(b, "null"...), true, nil
		}
		out, err = v.appendJSON(b)
	case membersAppender:
		if isNilPointer(v) {
			return append(b, "null"...), true, nil
		}
		out, err = encodeObject(v, b)
	default:
		return nil, false, nil
	}
	return out, true, err
}

// isNilPointer reports whether v holds a nil pointer.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// Error returns the error's code and message, so that an *Error is a Go
// error: a handler can return one, and a caller can find one with errors.As.
func (e *Error) Error() string {
	return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message)
}

// NewError returns an error with the given code and message and no data.
// The ErrorCode constants name the codes the protocol defines.
func NewError(code ErrorCode, message string) *Error {
	return &Error{Code: code, Message: message}
}
