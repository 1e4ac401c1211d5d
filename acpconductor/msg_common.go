package acpconductor

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/acpgen/acpgen/internal/quickjson"
	"github.com/go-json-experiment/json/jsontext"
)

// readCommon reads into m a line in the layout that conductors, proxies and the
// generated connections write: {"jsonrpc":"2.0", an optional "id" in
// decimal digits, then a "method" without escapes and optional "params", or
// a "result", the payload an object or an array. The envelope is read from
// its bytes and the payload checked by one pass of the decoder; it reports
// false for any other line, which read then reads member by member.
func (m *message) readCommon(line []byte) bool {
	const version, id, method, params, result = `{"jsonrpc":"2.0",`, `"id":`, `"method":"`, `,"params":`, `"result":`
	if !bytes.HasPrefix(line, []byte(version)) {
		return false
	}
	*m = message{raw: line}
	at := len(version)
	if bytes.HasPrefix(line[at:], []byte(id)) {
		at += len(id)
		n := 0
		for at+n < len(line) && '0' <= line[at+n] && line[at+n] <= '9' {
			n++
		}
		if n == 0 || n > 18 || n > 1 && line[at] == '0' || at+n == len(line) || line[at+n] != ',' {
			return false
		}
		m.id, at = span{at, at + n}, at+n+1
	}
	payload := &m.params
	if bytes.HasPrefix(line[at:], []byte(method)) {
		start := at + len(method) - 1
		n := plainLength(line[start+1:])
		if n <= 0 {
			return false
		}
		m.method, at = span{start, start + n + 2}, start+n+2
		m.name = methodText(line[start+1 : start+1+n])
		if string(line[at:]) == "}" {
			return true
		}
		if !bytes.HasPrefix(line[at:], []byte(params)) {
			return false
		}
		at += len(params)
	} else if bytes.HasPrefix(line[at:], []byte(result)) && m.id.ok() {
		at += len(result)
		payload = &m.result
	} else {
		return false
	}
	if len(line)-at < 3 || line[len(line)-1] != '}' {
		return false
	}
	v := line[at : len(line)-1]
	if last := v[len(v)-1]; v[0] != '{' && v[0] != '[' || last != '}' && last != ']' || !validValue(v) {
		return false
	}
	*payload = span{at, len(line) - 1}
	return true
}

// plainLength returns the length of the JSON string that b continues,
// after its opening quote, up to its closing quote, if its characters are
// printable ASCII without escapes; otherwise -1.
func plainLength(b []byte) int {
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

// methodText returns the method as a string, without allocating for the
// methods that carry most messages.
func methodText(b []byte) string {
	switch string(b) {
	case "session/update":
		return "session/update"
	case "proxy/successor":
		return "proxy/successor"
	case "session/prompt":
		return "session/prompt"
	case "mcp/message":
		return "mcp/message"
	}
	return string(b)
}

// methodName returns the text of a quoted method as unquote does, without
// allocating for the methods that carry most messages.
func methodName(raw []byte) string {
	if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return methodText(raw[1 : len(raw)-1])
	}
	name, _ := unquote(raw)
	return name
}

// validValue reports whether b is one JSON value and nothing more, read
// as members reads: by quickjson's loop, or the decoder where the loop
// cannot tell.
func validValue(b []byte) bool {
	return quickjson.Valid(b) || decoderValid(b)
}

// decoderValid is validValue by the decoder.
func decoderValid(b []byte) bool {
	d := decoders.Get().(*decoder)
	defer decoders.Put(d)
	d.rd.Reset(b)
	d.dec.Reset(&d.rd, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if err := d.dec.SkipValue(); err != nil {
		return false
	}
	_, err := d.dec.ReadToken()
	return err == io.EOF
}

// unquote returns the text of the JSON string raw.
func unquote(raw []byte) (string, error) {
	if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errors.New("not a string")
	}
	return s, nil
}
