package acphttp

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// scanTokens is scan as it was, walking the message's tokens with the
// decoder: the reference of FuzzScanTokens.
func scanTokens(data []byte) (message, error) {
	var d jsontext.Decoder
	d.Reset(bytes.NewReader(data))
	return scanTokensWith(&d)
}

// FuzzScanTokens checks that scan reads what a walk of the message's
// tokens reads, and fails where it fails.
func FuzzScanTokens(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, `[1]`, `"x"`,
		`{"id":"\u0061","params":{"sessionId":"s"}}`, `{`, ``, `{"jsonrpc":"2.0","id":"a\"b","method":"session/prompt","params":{"prompt":[{"sessionId":"no"}],"sessionId":"s1"},"x":[1,{"y":null}]}`,
		"{ \"id\" : [ \"]\" , {} ] ,\n\"result\":{\"sessionId\":\"s2\", \"a\":\"}\"}}", `{"met\u0068od":"x","params":{"session\u0049d":"\u00e9"}}`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := scan(data)
		want, werr := scanTokens(data)
		if (err == nil) != (werr == nil) {
			t.Fatalf("scan(%q) = %v, the tokens' walk %v", data, err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("scan(%q) = %+v, the tokens' walk %+v", data, got, want)
		}
	})
}

func scanTokensWith(d *jsontext.Decoder) (message, error) {
	var m message
	switch d.PeekKind() {
	case '{':
	case '[':
		if err := wholeValue(d); err != nil {
			return m, err
		}
		return m, errBatch
	default:
		if err := wholeValue(d); err != nil {
			return m, err
		}
		return m, errNotObject
	}
	if _, err := d.ReadToken(); err != nil {
		return m, err
	}
	for d.PeekKind() != '}' {
		name, err := d.ReadValue()
		if err != nil {
			return m, err
		}
		if err := m.memberTokens(d, name); err != nil {
			return m, err
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return m, err
	}
	return m, atEOF(d)
}

// member reads the value of the top-level member whose name, as written,
// is name into m.
func (m *message) memberTokens(d *jsontext.Decoder, name jsontext.Value) error {
	if bytes.IndexByte(name, '\\') >= 0 {
		name, _ = jsontext.AppendQuote(nil, unquote(name))
	}
	switch string(name[1 : len(name)-1]) {
	case "jsonrpc":
		v, err := d.ReadValue()
		m.jsonrpc2 = err == nil && string(v) == `"2.0"`
		return err
	case "id":
		v, err := d.ReadValue()
		m.hasID, m.id = true, bytes.Clone(v)
		return err
	case "method":
		if d.PeekKind() != '"' {
			return d.SkipValue()
		}
		v, err := d.ReadValue()
		if err != nil {
			return err
		}
		m.hasMethod, m.method = true, unquote(v)
		return nil
	case "params":
		s, ok, err := sessionMemberTokens(d)
		if ok {
			m.paramsSession = &s
		}
		return err
	case "result":
		s, _, err := sessionMemberTokens(d)
		m.resultSession = s
		return err
	}
	return d.SkipValue()
}

// sessionMember reads a value and returns its "sessionId" member when the
// value is an object and that member a string.
func sessionMemberTokens(d *jsontext.Decoder) (string, bool, error) {
	if d.PeekKind() != '{' {
		return "", false, d.SkipValue()
	}
	if _, err := d.ReadToken(); err != nil {
		return "", false, err
	}
	var id string
	var found bool
	for d.PeekKind() != '}' {
		name, err := d.ReadValue()
		if err != nil {
			return "", false, err
		}
		if nameIs(name, `"sessionId"`) && d.PeekKind() == '"' {
			v, err := d.ReadValue()
			if err != nil {
				return "", false, err
			}
			id, found = unquote(v), true
			continue
		}
		if err := d.SkipValue(); err != nil {
			return "", false, err
		}
	}
	_, err := d.ReadToken()
	return id, found, err
}
