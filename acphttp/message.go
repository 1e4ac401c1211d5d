package acphttp

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// The header names and media types of the transport.
const (
	HeaderConnectionID = "Acp-Connection-Id"
	HeaderSessionID    = "Acp-Session-Id"

	mimeJSON        = "application/json"
	mimeEventStream = "text/event-stream"
)

// The ACP methods the transport looks at.
const (
	methodInitialize    = "initialize"
	methodSessionLoad   = "session/load"
	methodSessionResume = "session/resume"
)

// sessionScoped holds the client methods whose POST must carry
// Acp-Session-Id, as the TypeScript SDK lists them.
var sessionScoped = map[string]bool{
	"session/cancel":            true,
	"session/close":             true,
	"session/delete":            true,
	"session/fork":              true,
	"session/load":              true,
	"session/prompt":            true,
	"session/resume":            true,
	"session/set_config_option": true,
	"session/set_mode":          true,
	"session/set_model":         true,
}

// errNotObject is the scan error of valid JSON that is not an object.
var errNotObject = errors.New("not a JSON object")

// errBatch is the scan error of a JSON array: ACP does not use batches.
var errBatch = errors.New("JSON-RPC batches are not supported")

// message is what the transport needs of one JSON-RPC message, read by a
// scan of its top-level members rather than a decode.
type message struct {
	jsonrpc2      bool   // "jsonrpc": "2.0"
	hasID         bool   // an "id" member, null included
	id            []byte // the id as written
	method        string // a string "method", or ""
	hasMethod     bool
	paramsSession *string // params.sessionId when it is a string
	resultSession string  // result.sessionId when it is a string
}

// isResponse reports whether m is a response: an id and no method.
func (m *message) isResponse() bool { return m.hasID && !m.hasMethod }

// isRequest reports whether m is a request: a method and an id.
func (m *message) isRequest() bool { return m.hasMethod && m.hasID }

// isNotification reports whether m is a notification: a method, no id.
func (m *message) isNotification() bool { return m.hasMethod && !m.hasID }

// isInitialize reports whether m is an initialize request as the
// TypeScript SDK recognises one.
func (m *message) isInitialize() bool {
	return m.jsonrpc2 && m.hasID && m.method == methodInitialize
}

// idKey is the key of m's id in the route tables: its JSON text, which
// both sides echo as received.
func (m *message) idKey() string { return string(m.id) }

// stringID returns m's id when it is a JSON string.
func (m *message) stringID() (string, bool) {
	if len(m.id) == 0 || m.id[0] != '"' {
		return "", false
	}
	return unquote(m.id), true
}

// validRequestID reports whether m's id may open a connection: a string
// no longer than maxLen bytes, or a finite integer, as ACP v2 asks and a
// connection of any version reads. Any other id (null, a fraction, a
// number past float64, an object, an array, a boolean) is answered
// -32600 with id null, as the connections answer such a line over stdio:
// never echoed.
func (m *message) validRequestID(maxLen int) bool {
	if len(m.id) == 0 {
		return false
	}
	if m.id[0] == '"' {
		return len(unquote(m.id)) <= maxLen
	}
	if m.id[0] != '-' && (m.id[0] < '0' || m.id[0] > '9') {
		return false
	}
	f, err := strconv.ParseFloat(string(m.id), 64)
	return err == nil && !math.IsInf(f, 0) && f == math.Trunc(f)
}

// decoders pools the decoders of scan, with their readers.
var decoders = sync.Pool{New: func() any { return new(scanner) }}

type scanner struct {
	d jsontext.Decoder
	r bytes.Reader
}

// scan reads the members of data that routing needs. It fails with
// errBatch for an array, errNotObject for any other value that is not an
// object, and a syntax error for text that is not one JSON value.
func scan(data []byte) (message, error) {
	var m message
	if !jsontext.Value(data).IsValid() {
		// The decoder says why.
		s := decoders.Get().(*scanner)
		s.r.Reset(data)
		s.d.Reset(&s.r)
		_, err := s.d.ReadValue()
		if err == nil {
			err = atEOF(&s.d)
		}
		s.r.Reset(nil)
		s.d.Reset(&s.r)
		decoders.Put(s)
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return m, err
	}
	// data is one valid JSON value (no duplicate member names, valid
	// UTF-8, at any depth): the members routing needs are read from its
	// text, without another pass of the decoder.
	i := skipSpace(data, 0)
	switch data[i] {
	case '{':
	case '[':
		return m, errBatch
	default:
		return m, errNotObject
	}
	for name, value := range members(data[i:]) {
		m.member(name, value)
	}
	return m, nil
}

// check fails as scan does for data, without reading the members: for a
// reader that only needs to know that data is one JSON object.
func check(data []byte) error {
	s := decoders.Get().(*scanner)
	s.r.Reset(data)
	s.d.Reset(&s.r)
	var err error
	switch s.d.PeekKind() {
	case '{':
		err = wholeValue(&s.d)
	case '[':
		if err = wholeValue(&s.d); err == nil {
			err = errBatch
		}
	default:
		if err = wholeValue(&s.d); err == nil {
			err = errNotObject
		}
	}
	s.r.Reset(nil)
	s.d.Reset(&s.r)
	decoders.Put(s)
	return err
}

// member reads the top-level member whose name and value, as written, are
// name and value into m.
func (m *message) member(name, value []byte) {
	if bytes.IndexByte(name, '\\') >= 0 {
		name, _ = jsontext.AppendQuote(nil, unquote(name))
	}
	switch string(name[1 : len(name)-1]) {
	case "jsonrpc":
		m.jsonrpc2 = string(value) == `"2.0"`
	case "id":
		m.hasID, m.id = true, bytes.Clone(value)
	case "method":
		if value[0] == '"' {
			m.hasMethod, m.method = true, methodName(value)
		}
	case "params":
		if s, ok := sessionMember(value); ok {
			m.paramsSession = &s
		}
	case "result":
		m.resultSession, _ = sessionMember(value)
	}
}

// methodName returns the string of the method value, valid JSON: the
// methods an agent sends most, without an allocation.
func methodName(value []byte) string {
	switch string(value) {
	case `"session/update"`:
		return "session/update"
	case `"session/request_permission"`:
		return "session/request_permission"
	case `"session/prompt"`:
		return "session/prompt"
	}
	return unquote(value)
}

// sessionMember returns the "sessionId" member of value, valid JSON, when
// value is an object and that member a string.
func sessionMember(value []byte) (string, bool) {
	if value[0] != '{' {
		return "", false
	}
	for name, v := range members(value) {
		if v[0] == '"' && nameIs(name, `"sessionId"`) {
			return unquote(v), true
		}
	}
	return "", false
}

// members yields the name and value, as written, of each member of obj,
// the text of a valid JSON object.
func members(obj []byte) func(yield func(name, value []byte) bool) {
	return func(yield func(name, value []byte) bool) {
		i := skipSpace(obj, 1)
		for i < len(obj) && obj[i] == '"' {
			end := skipString(obj, i)
			name := obj[i:end]
			i = skipSpace(obj, end)
			i = skipSpace(obj, i+1) // the colon
			end = skipValue(obj, i)
			if !yield(name, obj[i:end]) {
				return
			}
			i = skipSpace(obj, end)
			if i < len(obj) && obj[i] == ',' {
				i = skipSpace(obj, i+1)
			}
		}
	}
}

// skipSpace returns the index of the first byte of b at or after i that
// is not JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just after the valid JSON string that
// starts at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index just after the valid JSON value that starts
// at b[i].
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// nameIs reports whether the member name, as written, is quoted, a name
// written without escapes.
func nameIs(name jsontext.Value, quoted string) bool {
	if bytes.IndexByte(name, '\\') < 0 {
		return string(name) == quoted
	}
	return `"`+unquote(name)+`"` == quoted
}

// unquote returns the string of the valid JSON string v.
func unquote(v jsontext.Value) string {
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1])
	}
	b, _ := jsontext.AppendUnquote(nil, v)
	return string(b)
}

// wholeValue reads one value and checks that nothing follows it.
func wholeValue(d *jsontext.Decoder) error {
	if err := d.SkipValue(); err != nil {
		return err
	}
	return atEOF(d)
}

// atEOF checks that d has nothing left but whitespace.
func atEOF(d *jsontext.Decoder) error {
	if _, err := d.ReadToken(); err != io.EOF {
		if err == nil {
			err = errors.New("text after the JSON value")
		}
		return err
	}
	return nil
}

// oneLine returns data, a valid JSON value, without line breaks: the
// connections read one message per line.
func oneLine(data []byte) []byte {
	if bytes.IndexByte(data, '\n') < 0 && bytes.IndexByte(data, '\r') < 0 {
		return data
	}
	v := jsontext.Value(data)
	if err := v.Compact(); err != nil {
		return data
	}
	return v
}

// Protocol error responses, with id null, that the transport sends itself.
var (
	batchError      = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: JSON-RPC batches are not supported"}}`)
	invalidRequest  = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request"}}`)
	parseErrorReply = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
)

// newConnectionID returns a random version 4 UUID, as the TypeScript SDK's
// connection ids are.
func newConnectionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}
