//go:build ignore

package acp

import (
	"errors"
	"io"
	"strconv"
	"unicode/utf8"
)

// The second stage of a line's path: parsing it into a lineMessage in one
// pass, with the params of a request or notification, and the result of a
// response to a tracked call, decoded into their types as they are
// reached. The message goes on to dispatch.

// line parses one line and hands the message on to dispatch, or, for a
// request or notification that comes while an initialize is served, to
// hold. It returns false once the connection has ended.
func (c *connection) line(line []byte) bool {
	m, err := parseLine(line, c.cfg.limits.MaxIDLength, &c.calls)
	if (m.method != "" || err != nil) && c.holds() {
		c.hold(&m, err)
		return true
	}
	return c.dispatch(&m, err)
}

// tooLong reads, from prefix, the start of a line longer than the limit,
// what can be told of it (its id, if one that is not too long comes before
// the first member that does not fit, and whether it is a response), and
// hands that on to dispatchTooLong.
func (c *connection) tooLong(prefix []byte) {
	id, method, response := peekID(prefix)
	if id != nil && idLength(id) > c.cfg.limits.MaxIDLength {
		id = nil
	}
	c.dispatchTooLong(id, method, response)
}

// lineMessage is one JSON-RPC message as read from a line, in one pass:
// the params of a request or notification, and the result of a response
// to a tracked call, are decoded into their types as they are reached.
type lineMessage struct {
	empty    bool   // a blank line
	response bool   // a message without method, with a result or an error
	id       []byte // as received, a slice of the line ("null" for null); nil when absent
	method   string
	params   payload
	result   payload
	err      *Error
}

// nullIDs says whether a request may have the id null: whether the
// schema's RequestId has null among its values.
var nullIDs = func() bool {
	var id RequestID
	return id.UnmarshalJSON([]byte("null")) == nil && id.Value != nil
}()

// parseLine reads the lineMessage of one line. The error it returns is the
// *Error that answers the line: a parse error, or an invalid request whose
// id, if it could be read, is in the lineMessage. An id longer than maxID
// characters is not read. A response's result is typed by the method of
// the request that tracked has under its id; without tracked, or for an id
// not tracked, it is kept as a json.RawMessage.
func parseLine(line []byte, maxID int, tracked *callTracker) (m lineMessage, rpcErr *Error) {
	if m, ok := parseCommon(line, maxID, tracked); ok {
		return m, nil
	}
	return parseMembers(line, maxID, tracked)
}

// parseMembers is parseLine for any line: it reads the members one by one,
// in any order and layout.
func parseMembers(line []byte, maxID int, tracked *callTracker) (m lineMessage, rpcErr *Error) {
	var hasMethod, hasResult, hasError, version bool
	err := withDecoder(line, func(d *decoder) error {
		switch d.PeekKind() {
		case 0:
			if _, err := d.ReadToken(); err == io.EOF {
				m.empty = true
				return nil
			}
			return errLineParse
		case '{':
		default:
			if err := d.SkipValue(); err != nil {
				return errLineParse
			}
			return errLineNotObject
		}
		if _, err := d.ReadToken(); err != nil {
			return errLineParse
		}
		for d.PeekKind() != '}' {
			name, err := d.readName()
			if err != nil {
				return errLineParse
			}
			switch string(name) {
			case "params":
				err = m.readParams(d, hasMethod)
			case "result":
				hasResult = true
				err = m.readResult(d, hasMethod, tracked)
			default:
				var v []byte
				if v, err = d.ReadValue(); err != nil {
					return errLineParse
				}
				end := int(d.InputOffset())
				v = line[end-len(v) : end]
				switch string(name) {
				case "jsonrpc":
					version = string(v) == `"2.0"`
				case "id":
					m.id = v
				case "method":
					if v[0] != '"' {
						return errLineBadMethod
					}
					s, err := unquote(v)
					if err != nil {
						return errLineParse
					}
					m.method, hasMethod = methodName(s), true
				case "error":
					hasError = true
					m.err = new(Error)
					if err := decodeValid(v, m.err); err != nil {
						m.err = NewInternalError(map[string]string{"details": "a malformed error response: " + err.Error()})
					}
				}
			}
			if err != nil {
				return errLineParse
			}
		}
		if _, err := d.ReadToken(); err != nil {
			return errLineParse
		}
		if _, err := d.ReadToken(); err != io.EOF {
			return errLineParse
		}
		return nil
	})
	m.response = !hasMethod && (hasResult || hasError)
	return m.checked(err, maxID, hasMethod, hasResult, hasError, version, tracked)
}

// checked returns m, read from a line by parseMembers, or the error its
// reading (err) or its members earn; hasMethod, hasResult and hasError say
// which members it had, version whether its jsonrpc was "2.0". A valid
// message is finished.
func (m lineMessage) checked(err error, maxID int, hasMethod, hasResult, hasError, version bool, tracked *callTracker) (lineMessage, *Error) {
	switch {
	case err == errLineParse:
		return lineMessage{}, NewParseError()
	case err != nil:
		return m, NewInvalidRequestError(map[string]string{"details": err.Error()})
	case m.empty:
		return m, nil
	case !version:
		return m, NewInvalidRequestError(map[string]string{"details": `the message lacks "jsonrpc": "2.0"`})
	case m.id != nil && !validID(m.id):
		m.id = nil
		return m, NewInvalidRequestError(map[string]string{"details": "the id is neither a number nor a string"})
	case m.id != nil && idLength(m.id) > maxID:
		m.id = nil
		return m, NewInvalidRequestError(map[string]string{"details": "the id is longer than " + strconv.Itoa(maxID) + " characters"})
	case hasMethod && m.method == "":
		return m, NewInvalidRequestError(map[string]string{"details": "the method is empty"})
	case hasMethod && isNull(m.id) && !nullIDs:
		m.id = nil
		return m, NewInvalidRequestError(map[string]string{"details": "the id is null"})
	case !hasMethod && m.id == nil:
		return m, NewInvalidRequestError(map[string]string{"details": "a message with neither method nor id"})
	case !hasMethod && hasResult == hasError:
		return m, NewInvalidRequestError(map[string]string{"details": `a response needs exactly one of "result" and "error"`})
	}
	m.finish(hasMethod, tracked)
	return m, nil
}

// The layout in which this package writes its messages, as most peers do:
// the members in the order jsonrpc, id, method, params for a request (a
// notification has no id), or jsonrpc, id, result for a response, without
// white space, the payload last.
const (
	commonVersion = `{"jsonrpc":"2.0",`
	commonID      = `"id":`
	commonMethod  = `"method":"`
	commonParams  = `,"params":`
	commonResult  = `"result":`
)

// parseCommon reads a line in the common layout whose id, if it has one,
// is an integer in decimal digits, whose method is printable ASCII without
// escapes, and whose payload, if it has one, is an object: only the payload
// goes through the decoder. It reports false for any other line, and for a
// line with an error, which parseMembers then reads; for a line it reads,
// it makes the lineMessage that parseMembers would.
func parseCommon(line []byte, maxID int, tracked *callTracker) (m lineMessage, ok bool) {
	rest, ok := cutPrefix(line, commonVersion)
	if !ok {
		return m, false
	}
	if r, ok := cutPrefix(rest, commonID); ok {
		n := 0
		for n < len(r) && '0' <= r[n] && r[n] <= '9' {
			n++
		}
		if n == 0 || n > maxID || n > 1 && r[0] == '0' || n == len(r) || r[n] != ',' {
			return m, false
		}
		m.id, rest = r[:n], r[n+1:]
	}
	var method []byte
	if r, ok := cutPrefix(rest, commonMethod); ok {
		n := plainString(r)
		if n <= 0 {
			return m, false
		}
		method, rest = r[:n], r[n+1:]
		if string(rest) == "}" {
			m.method = methodName(method)
			return m, true
		}
		if rest, ok = cutPrefix(rest, commonParams); !ok {
			return m, false
		}
	} else if rest, ok = cutPrefix(rest, commonResult); !ok || m.id == nil {
		return m, false
	}
	if len(rest) < 3 || rest[0] != '{' || rest[len(rest)-1] != '}' {
		return m, false
	}
	value := rest[:len(rest)-1]
	err := withDecoder(value, func(d *decoder) error {
		var err error
		if method != nil {
			m.method = methodName(method)
			err = m.readParams(d, true)
		} else {
			err = m.readResult(d, false, tracked)
		}
		if err == nil && int(d.InputOffset()) != len(value) {
			err = errLineParse
		}
		return err
	})
	if err != nil {
		return lineMessage{}, false
	}
	if m.response = method == nil; tracked == nil {
		m.finish(false, nil) // the result was kept
	}
	return m, true
}

// cutPrefix returns b without prefix, and whether b began with it.
func cutPrefix(b []byte, prefix string) ([]byte, bool) {
	if len(b) < len(prefix) || string(b[:len(prefix)]) != prefix {
		return b, false
	}
	return b[len(prefix):], true
}

// plainString returns the length of the JSON string that b continues,
// after its opening quote, up to its closing quote, if its characters are
// printable ASCII without escapes; otherwise -1.
func plainString(b []byte) int {
	for i, c := range b {
		switch {
		case c == '"':
			return i
		case c < 0x20 || c > 0x7e || c == '\\':
			return -1
		}
	}
	return -1
}

var (
	errLineParse     = errors.New("not JSON")
	errLineNotObject = errors.New("the message is not a JSON object")
	errLineBadMethod = errors.New("the method is not a string")
)

// readParams decodes the params now when the method came before them, as
// the params of a request if an id came before too, else of a
// notification; finish decodes them again if that guess was wrong. The
// params of $/cancel_request are kept as they are: it is handled before
// the next line, and matches the id as received.
func (m *lineMessage) readParams(d *decoder, hasMethod bool) error {
	m.params = payload{}
	if !hasMethod || m.method == MethodCancelRequest {
		return m.params.keep(d)
	}
	if m.id != nil {
		return m.params.decode(d, NewRequestParams(m.method), asRequest)
	}
	return m.params.decode(d, NewNotificationParams(m.method), asNotification)
}

// readResult decodes the result now when the id came before it.
func (m *lineMessage) readResult(d *decoder, hasMethod bool, tracked *callTracker) error {
	m.result = payload{}
	if hasMethod || m.id == nil || tracked == nil {
		return m.result.keep(d)
	}
	return m.result.decode(d, NewResult(tracked.methodKey(m.id)), asResult)
}

// finish decodes what was kept raw because the members that decide its
// type came after it: the payloads are read from the line once more, and
// what refers to the line is copied, but the params of $/cancel_request.
func (m *lineMessage) finish(hasMethod bool, tracked *callTracker) {
	switch {
	case hasMethod && m.params.raw != nil && m.method != MethodCancelRequest:
		if m.id != nil {
			m.params.decodeAgain(NewRequestParams, m.method, asRequest)
		} else {
			m.params.decodeAgain(NewNotificationParams, m.method, asNotification)
		}
	case m.response && m.result.raw != nil:
		method := ""
		if tracked != nil {
			method = tracked.methodKey(m.id)
		}
		m.result.decodeAgain(NewResult, method, asResult)
	}
}

// validID reports whether id, as received, is a string, a number or null.
func validID(id []byte) bool {
	return id[0] == '"' || id[0] == '-' || '0' <= id[0] && id[0] <= '9' || isNull(id)
}

func isNull(id []byte) bool { return string(id) == "null" }

// idLength is the length of an id in characters, without a string's quotes.
func idLength(id []byte) int {
	if id[0] == '"' {
		return utf8.RuneCount(id) - 2
	}
	return len(id)
}

// peekID reads the id and method of a line that was too long to be read
// whole, from its first bytes, and whether the message is a response: what
// can be told from the members before the first one that does not fit.
func peekID(prefix []byte) (id []byte, method string, response bool) {
	var hasMethod bool
	_ = withDecoder(prefix, func(d *decoder) error {
		if d.PeekKind() != '{' {
			return nil
		}
		if _, err := d.ReadToken(); err != nil {
			return err
		}
		for {
			name, err := d.readName()
			if err != nil {
				return err
			}
			switch string(name) {
			case "result", "error":
				response = !hasMethod
				if id != nil {
					return errLineParse // enough is known
				}
			case "method":
				hasMethod, response = true, false
			}
			v, err := d.ReadValue()
			if err != nil {
				return err
			}
			switch string(name) {
			case "id":
				end := int(d.InputOffset())
				id = prefix[end-len(v) : end]
			case "method":
				if v[0] == '"' {
					if s, err := unquote(v); err == nil {
						method = string(s)
					}
				}
			}
		}
	})
	if id != nil && (!validID(id) || isNull(id)) {
		id = nil
	}
	return id, method, response
}
