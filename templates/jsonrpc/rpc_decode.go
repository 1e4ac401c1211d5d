//go:build ignore

package acp

import (
	"errors"
	"fmt"
	"io"
)

// A MessageError reports a message that DecodeMessage or a RequestTracker
// could not decode, with what was read of it, so that a request can still be
// answered with its id.
type MessageError struct {
	// Code is the JSON-RPC error code that answers the message:
	// -32700 (parse error) when it is not JSON, -32600 (invalid request)
	// when it is not a valid JSON-RPC message, and -32602 (invalid params)
	// when its params, or a response's result, do not fit the method's type.
	Code ErrorCode
	// ID is the message's id, when it was read; nil otherwise.
	ID *RequestID
	// Method is the method of a request or notification, or the method of
	// the request a response answers, when known.
	Method string
	// Err says what is wrong; a type error is a *json.UnmarshalTypeError
	// that carries the JSON path of the value.
	Err error
}

// The error codes of JSON-RPC 2.0 and of the protocol, for the message
// decoder and the connections; they are spelled out here because older
// schemas do not name them.
const (
	codeParseError             = -32700
	codeInvalidRequest         = -32600
	codeMethodNotFound         = -32601
	codeInvalidParams          = -32602
	codeInternalError          = -32603
	codeRequestCancelled       = -32800
	codeAuthenticationRequired = -32000
	codeResourceNotFound       = -32002
)

// Error returns the reason the message was not decoded.
func (e *MessageError) Error() string { return e.Err.Error() }

// Unwrap returns the reason the message was not decoded.
func (e *MessageError) Unwrap() error { return e.Err }

// envelope is what one pass over a message has read of its members. The
// params or result are decoded as soon as their type is known: in the order
// JSON-RPC implementations write (id and method before params and result)
// that is when the decoder reaches them, in the same pass over the input.
// When a member that decides the type comes later, the payload is kept as
// the slice of the input it spans and decoded once the envelope is read:
// the input is still tokenized once, and the payload decoded once.
type envelope struct {
	msg       *Message
	notObject byte // the kind of a message that is not an object, or 0
	version   bool // "jsonrpc" is "2.0"
	hasID     bool // "id" is present, null or not
	idErr     error
	method    bool // "method" is a string
	methodErr error
	hasError  bool // "error" is present and not null
	errorErr  error

	params    payload // "params"
	hasResult bool
	result    payload // "result"

	// resultMethod is the method of the request a response answers: known
	// from the start, or found by id in tracker.
	resultMethod string
	tracker      *RequestTracker
	resolved     bool // resultMethod is known
}

// decodeMessage reads one JSON-RPC message in a single pass. A response's
// result is typed by method, or, when tracker is not nil, by the method of
// the tracked request it answers, whose entry it drops. Errors are
// *MessageError.
func decodeMessage(data []byte, method string, tracker *RequestTracker) (*Message, error) {
	e := envelope{msg: new(Message), resultMethod: method, tracker: tracker, resolved: tracker == nil}
	d := decoders.Get().(*decoder)
	d.reset(data)
	err := e.read(d)
	d.release()
	decoders.Put(d)
	if err != nil {
		return nil, &MessageError{Code: codeParseError, Err: err}
	}
	return e.finish()
}

// read reads the message through its end.
func (e *envelope) read(d *decoder) error {
	if k := d.PeekKind(); k != '{' {
		if err := d.SkipValue(); err != nil {
			return err
		}
		e.notObject = byte(k)
	} else if err := e.members(d); err != nil {
		return err
	}
	if _, err := d.ReadToken(); err != io.EOF {
		if err != nil {
			return err
		}
		return errors.New("json: invalid data after top-level value")
	}
	return nil
}

// members reads the object's members through its '}'.
func (e *envelope) members(d *decoder) error {
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	for d.PeekKind() != '}' {
		name, err := d.readName()
		if err != nil {
			return err
		}
		switch string(name) {
		case "jsonrpc":
			err = e.readVersion(d)
		case "id":
			err = e.readID(d)
		case "method":
			err = e.readMethod(d)
		case "params":
			err = e.readParams(d)
		case "result":
			err = e.readResult(d)
		case "error":
			err = e.readError(d)
		default:
			err = d.SkipValue()
		}
		if err != nil {
			return err
		}
	}
	_, err := d.ReadToken()
	return err
}

func (e *envelope) readVersion(d *decoder) error {
	if d.PeekKind() != '"' {
		e.version = false
		return d.SkipValue()
	}
	raw, err := d.ReadValue()
	if err != nil {
		return err
	}
	e.version = string(raw) == `"2.0"`
	return nil
}

func (e *envelope) readID(d *decoder) error {
	e.hasID, e.msg.ID, e.idErr = true, nil, nil
	if d.PeekKind() == 'n' {
		return d.SkipValue()
	}
	id := new(RequestID)
	if err := id.decodeJSON(d); err != nil {
		if !isTypeError(err) {
			return err
		}
		e.idErr = err
		return nil
	}
	e.msg.ID = id
	return nil
}

func (e *envelope) readMethod(d *decoder) error {
	e.method, e.methodErr = false, nil
	switch k := d.PeekKind(); k {
	case 'n':
		return d.SkipValue()
	case '"':
		raw, err := d.ReadValue()
		if err != nil {
			return err
		}
		s, err := unquote(raw)
		if err != nil {
			return err
		}
		e.method, e.msg.Method = true, methodName(s)
		return nil
	default:
		e.methodErr = d.mismatch(k, &e.msg.Method)
		return nil
	}
}

// readParams decodes the params now when the method is known, as the
// params of a request if an id came before, else of a notification (if an
// id comes after, finish decodes them again as a request's).
func (e *envelope) readParams(d *decoder) error {
	e.params = payload{}
	if !e.method || e.msg.Method == "" {
		return e.params.keep(d)
	}
	newParams, as := NewNotificationParams, int8(asNotification)
	if e.hasID {
		newParams, as = NewRequestParams, asRequest
	}
	return e.params.decode(d, newParams(e.msg.Method), as)
}

// readResult decodes the result now when its method is known: given, or
// found by the id read before it.
func (e *envelope) readResult(d *decoder) error {
	e.hasResult, e.result = true, payload{}
	if !e.resolved && e.hasID && e.idErr == nil {
		e.resultMethod, e.resolved = e.tracker.method(e.msg.ID), true
	}
	if !e.resolved || e.method {
		return e.result.keep(d)
	}
	return e.result.decode(d, NewResult(e.resultMethod), asResult)
}

func (e *envelope) readError(d *decoder) error {
	e.hasError, e.msg.Error, e.errorErr = false, nil, nil
	if d.PeekKind() == 'n' {
		return d.SkipValue()
	}
	e.hasError = true
	v, err := decodeValue(d, new(Error))
	if err != nil {
		if !isTypeError(err) {
			return err
		}
		e.errorErr = err
		return nil
	}
	e.msg.Error = v.(*Error)
	return nil
}

// finish checks the envelope, as JSON-RPC 2.0 asks, and returns the
// message with its payload decoded.
func (e *envelope) finish() (*Message, error) {
	m := e.msg
	fail := func(code ErrorCode, err error) (*Message, error) {
		method := m.Method
		if method == "" {
			method = e.resultMethod // of the request a response answers
		}
		return nil, &MessageError{Code: code, ID: m.ID, Method: method, Err: err}
	}
	if !e.method && e.methodErr == nil && e.idErr == nil && (e.hasError || e.hasResult) {
		// A response, valid or not, ends the wait for its request.
		e.answered()
	}
	switch {
	case e.notObject != 0:
		return fail(codeInvalidRequest, fmt.Errorf("json-rpc: message is %s, not an object", kindName(e.notObject)))
	case !e.version:
		return fail(codeInvalidRequest, errors.New(`json-rpc: message without "jsonrpc": "2.0"`))
	case e.idErr != nil:
		m.ID = nil
		return fail(codeInvalidRequest, fmt.Errorf("json-rpc: id: %w", e.idErr))
	case e.methodErr != nil:
		return fail(codeInvalidRequest, fmt.Errorf("json-rpc: method: %w", e.methodErr))
	case e.method:
		return e.finishParams()
	case e.hasError:
		if e.hasResult {
			return fail(codeInvalidRequest, errors.New(`json-rpc: response with both "result" and "error"`))
		}
		if e.errorErr != nil {
			return fail(codeInvalidRequest, fmt.Errorf("json-rpc: error: %w", e.errorErr))
		}
		return m, nil
	case e.hasResult:
		return e.finishResult()
	}
	return fail(codeInvalidRequest, errors.New(`json-rpc: message with neither "method", "result" nor "error"`))
}

// answered drops the tracked request a response answers, and finds its
// method if the id did not come before the result.
func (e *envelope) answered() {
	if e.tracker == nil {
		return
	}
	method := e.tracker.take(e.msg.ID)
	if !e.resolved {
		e.resultMethod, e.resolved = method, true
	}
}

func (e *envelope) finishParams() (*Message, error) {
	m := e.msg
	if m.Method == "" {
		return nil, &MessageError{Code: codeInvalidRequest, ID: m.ID, Err: errors.New("json-rpc: empty method")}
	}
	if e.params.raw == nil {
		return m, nil
	}
	if e.hasID {
		e.params.decodeAgain(NewRequestParams, m.Method, asRequest)
	} else {
		e.params.decodeAgain(NewNotificationParams, m.Method, asNotification)
	}
	if e.params.err != nil {
		return nil, &MessageError{Code: codeInvalidParams, ID: m.ID, Method: m.Method,
			Err: fmt.Errorf("json-rpc: params of %q: %w", m.Method, e.params.err)}
	}
	m.Params = e.params.value
	return m, nil
}

func (e *envelope) finishResult() (*Message, error) {
	m := e.msg
	e.result.decodeAgain(NewResult, e.resultMethod, asResult)
	if e.result.err != nil {
		return nil, &MessageError{Code: codeInvalidParams, ID: m.ID, Method: e.resultMethod,
			Err: fmt.Errorf("json-rpc: result of %q: %w", e.resultMethod, e.result.err)}
	}
	m.Result = e.result.value
	return m, nil
}
