package acpinspect

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// scanner reads the envelope of a message, and the members of its params
// the rules read, in one pass with a jsontext.Decoder (the generated
// packages' reader): the recorder's hot path. It gives up on anything
// unusual (a member named with an escape, with other letters' case, or
// twice; a member of a type the envelope does not take; a message that is
// not an object), and readMessage then reads the message with
// encoding/json as before, so that what the scanner reads is exactly what
// encoding/json reads. An Inspector has one, used under its lock.
type scanner struct {
	d   jsontext.Decoder
	src bytes.Buffer
	in  []byte
	// atoms holds the strings that recur from message to message: the
	// methods, session ids, tags, message and tool call ids. A message's
	// entry shares them instead of holding a copy.
	atoms map[string]string
	// plain is set when the message readMessage read last is a request or
	// notification in the plain layout, whose params the dialect may
	// decode alone (decodeParams) instead of the whole message.
	plain bool
}

// maxAtoms bounds the strings a scanner holds.
const maxAtoms = 4096

// readMessage reads the envelope of data and what the rules read of its
// params; ok is false when data is not a JSON-RPC message.
func (s *scanner) readMessage(data []byte) (env envelope, u update, ok bool) {
	s.plain = false
	if s.scan(data, &env, &u) {
		return env, u, true
	}
	return s.readSlow(data)
}

// readSlow is readMessage with encoding/json alone.
func (s *scanner) readSlow(data []byte) (env envelope, u update, ok bool) {
	var slow struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	if !utf8.Valid(data) || json.Unmarshal(data, &slow) != nil {
		return env, u, false
	}
	env = envelope{ID: slow.ID, Params: slow.Params, Result: slow.Result, Error: slow.Error}
	if slow.Method != nil {
		env.Method, env.HasMethod = *slow.Method, true
	}
	if env.Params != nil {
		json.Unmarshal(env.Params, &u) // what does not fit is left out, and is the decoder's to judge
	}
	if env.Result != nil {
		env.session = resultSession(env.Result)
	}
	return env, u, true
}

// scan reads data into env and u; false when it gives up.
func (s *scanner) scan(data []byte, env *envelope, u *update) (ok bool) {
	s.in = data
	s.src = *bytes.NewBuffer(data)
	s.d.Reset(&s.src, jsontext.AllowDuplicateNames(true))
	defer func() { s.in = nil }()
	if s.d.PeekKind() != '{' {
		return false
	}
	if _, err := s.d.ReadToken(); err != nil {
		return false
	}
	var seen uint8
	others, version := false, false
	for s.d.PeekKind() != '}' {
		name, ok := s.name(&seen, "id", "method", "params", "result", "error", "jsonrpc")
		if !ok {
			return false
		}
		switch name {
		case "id":
			env.ID, ok = s.value()
		case "method":
			env.Method, env.HasMethod, ok = s.atom()
		case "params":
			env.Params, ok = s.params(u)
		case "result":
			env.Result, env.session, ok = s.result()
		case "error":
			env.Error, ok = s.rpcError()
		case "jsonrpc":
			var raw []byte
			raw, ok = s.value()
			version = string(raw) == `"2.0"`
		default:
			others = true
			ok = s.d.SkipValue() == nil
		}
		if !ok {
			return false
		}
	}
	if _, err := s.d.ReadToken(); err != nil {
		return false
	}
	if _, err := s.d.ReadToken(); err != io.EOF {
		return false
	}
	s.plain = version && !others && seen&(1<<3|1<<4) == 0 && env.Method != "" &&
		len(env.Params) > 0 && env.Params[0] == '{' && plainID(env.ID)
	return true
}

// plainID reports whether id is absent or a small non-negative integer,
// an id every generated decoder takes.
func plainID(id []byte) bool {
	if id == nil {
		return true
	}
	if len(id) == 0 || len(id) > 15 {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// name reads a member's name and returns it when it is one of names, ""
// for another; false when the name is one of names but escaped, in
// another case, or seen before (seen has a bit for each of names).
func (s *scanner) name(seen *uint8, names ...string) (string, bool) {
	raw, err := s.d.ReadValue()
	if err != nil || len(raw) < 2 {
		return "", false
	}
	n := raw[1 : len(raw)-1]
	for i, want := range names {
		if len(n) != len(want) {
			continue
		}
		if string(n) != want {
			if bytes.EqualFold(n, []byte(want)) {
				return "", false // encoding/json takes it: leave it to it
			}
			continue
		}
		if *seen&(1<<i) != 0 {
			return "", false
		}
		*seen |= 1 << i
		return want, true
	}
	if bytes.IndexByte(n, '\\') >= 0 || !isASCII(n) {
		return "", false // might be one of names, escaped or folded
	}
	return "", true
}

// value reads a value and returns its text, a slice of the input.
func (s *scanner) value() ([]byte, bool) {
	start := s.valueStart()
	if s.d.SkipValue() != nil {
		return nil, false
	}
	return s.in[start:s.d.InputOffset()], true
}

// str reads a string or null; false for another kind.
func (s *scanner) str() (string, bool, bool) {
	switch s.d.PeekKind() {
	case 'n':
		_, err := s.d.ReadValue()
		return "", false, err == nil
	case '"':
		raw, err := s.d.ReadValue()
		if err != nil {
			return "", false, false
		}
		if bytes.IndexByte(raw, '\\') < 0 {
			return string(raw[1 : len(raw)-1]), true, true
		}
		b, err := jsontext.AppendUnquote(nil, raw)
		return string(b), true, err == nil
	}
	return "", false, false
}

// atom is str for a string that recurs: it is made once.
func (s *scanner) atom() (string, bool, bool) {
	if s.d.PeekKind() != '"' {
		return s.str()
	}
	raw, err := s.d.ReadValue()
	if err != nil {
		return "", false, false
	}
	text := raw[1 : len(raw)-1]
	if bytes.IndexByte(text, '\\') >= 0 {
		b, err := jsontext.AppendUnquote(nil, raw)
		return string(b), true, err == nil
	}
	if a, ok := s.atoms[string(text)]; ok {
		return a, true, true
	}
	a := string(text)
	if s.atoms == nil {
		s.atoms = map[string]string{}
	}
	if len(s.atoms) < maxAtoms {
		s.atoms[a] = a
	}
	return a, true, true
}

// params reads the params and, when they are an object, what u takes of
// them.
func (s *scanner) params(u *update) ([]byte, bool) {
	start := s.valueStart()
	if s.d.PeekKind() != '{' {
		if s.d.SkipValue() != nil {
			return nil, false
		}
		return s.in[start:s.d.InputOffset()], true
	}
	s.d.ReadToken()
	var seen uint8
	for s.d.PeekKind() != '}' {
		name, ok := s.name(&seen, "sessionId", "update")
		if !ok {
			return nil, false
		}
		switch name {
		case "sessionId":
			u.SessionID, _, ok = s.atom()
		case "update":
			ok = s.update(u)
		default:
			ok = s.d.SkipValue() == nil
		}
		if !ok {
			return nil, false
		}
	}
	if _, err := s.d.ReadToken(); err != nil {
		return nil, false
	}
	return s.in[start:s.d.InputOffset()], true
}

// update reads params.update.
func (s *scanner) update(u *update) bool {
	switch s.d.PeekKind() {
	case 'n':
		_, err := s.d.ReadValue()
		return err == nil
	case '{':
	default:
		return false
	}
	start := s.valueStart()
	s.d.ReadToken()
	var seen uint8
	up := &u.Update
	for s.d.PeekKind() != '}' {
		name, ok := s.name(&seen, "sessionUpdate", "messageId", "content", "toolCallId", "state", "stopReason")
		if !ok {
			return false
		}
		switch name {
		case "sessionUpdate":
			up.Tag, _, ok = s.atom()
		case "messageId":
			up.MessageID, _, ok = s.atom()
		case "toolCallId":
			up.ToolCallID, _, ok = s.atom()
		case "state":
			up.State, _, ok = s.atom()
		case "stopReason":
			up.StopReason, _, ok = s.atom()
		case "content":
			at := s.valueStart()
			if s.d.PeekKind() == '{' {
				ok = s.content(&u.content)
			} else {
				ok = s.d.SkipValue() == nil
			}
			if ok {
				up.Content = s.in[at:s.d.InputOffset()]
			}
		default:
			ok = s.d.SkipValue() == nil
		}
		if !ok {
			return false
		}
	}
	if _, err := s.d.ReadToken(); err != nil {
		return false
	}
	u.raw = s.in[start:s.d.InputOffset()]
	return true
}

// content reads the members of a content block contentText reads.
func (s *scanner) content(c *contentBlock) bool {
	s.d.ReadToken()
	var seen uint8
	for s.d.PeekKind() != '}' {
		name, ok := s.name(&seen, "type", "text", "uri")
		if !ok {
			return false
		}
		switch name {
		case "type":
			c.typ, _, ok = s.atom()
		case "text":
			c.text, _, ok = s.str()
		case "uri":
			c.uri, _, ok = s.str()
		default:
			ok = s.d.SkipValue() == nil
		}
		if !ok {
			return false
		}
	}
	_, err := s.d.ReadToken()
	c.read = err == nil
	return c.read
}

// result reads the result, and its sessionId when it is an object.
func (s *scanner) result() ([]byte, string, bool) {
	start := s.valueStart()
	if s.d.PeekKind() != '{' {
		if s.d.SkipValue() != nil {
			return nil, "", false
		}
		return s.in[start:s.d.InputOffset()], "", true
	}
	s.d.ReadToken()
	var seen uint8
	session := ""
	for s.d.PeekKind() != '}' {
		name, ok := s.name(&seen, "sessionId")
		if !ok {
			return nil, "", false
		}
		if name == "sessionId" {
			session, _, ok = s.atom()
		} else {
			ok = s.d.SkipValue() == nil
		}
		if !ok {
			return nil, "", false
		}
	}
	if _, err := s.d.ReadToken(); err != nil {
		return nil, "", false
	}
	return s.in[start:s.d.InputOffset()], session, true
}

// rpcError reads an error object, or null.
func (s *scanner) rpcError() (*rpcError, bool) {
	switch s.d.PeekKind() {
	case 'n':
		_, err := s.d.ReadValue()
		return nil, err == nil
	case '{':
	default:
		return nil, false
	}
	s.d.ReadToken()
	var seen uint8
	e := &rpcError{}
	for s.d.PeekKind() != '}' {
		name, ok := s.name(&seen, "code", "message")
		if !ok {
			return nil, false
		}
		switch name {
		case "code":
			ok = s.int(&e.Code)
		case "message":
			e.Message, _, ok = s.str()
		default:
			ok = s.d.SkipValue() == nil
		}
		if !ok {
			return nil, false
		}
	}
	_, err := s.d.ReadToken()
	return e, err == nil
}

// int reads an integer, or null.
func (s *scanner) int(v *int) bool {
	switch s.d.PeekKind() {
	case 'n':
		_, err := s.d.ReadValue()
		return err == nil
	case '0':
		raw, err := s.d.ReadValue()
		if err != nil {
			return false
		}
		n, err := strconv.Atoi(string(raw))
		*v = n
		return err == nil
	}
	return false
}

// valueStart returns the offset of the value the decoder reads next: past
// the blanks and the colon after the last token.
func (s *scanner) valueStart() int {
	i := int(s.d.InputOffset())
	for i < len(s.in) {
		switch s.in[i] {
		case ' ', '\t', '\n', '\r', ':':
			i++
			continue
		}
		break
	}
	return i
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
