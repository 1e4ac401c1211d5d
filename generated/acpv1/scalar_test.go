package acpv1

import (
	"encoding/json"
	"testing"
)

// TestScalarTypesDecodeAsMembers: a bare value of a defined scalar type
// decodes as the same value does inside a struct (null is an error, an
// integer may be written 1.0), and encodes as it does there.
func TestScalarTypesDecodeAsMembers(t *testing.T) {
	cases := []struct {
		name   string
		bare   func(data []byte) (any, error)
		member func(data []byte) (any, error)
		inputs []string
	}{
		{"SessionID", func(data []byte) (any, error) {
			var v SessionID
			return v, json.Unmarshal(data, &v)
		}, func(data []byte) (any, error) {
			var n CancelNotification
			err := json.Unmarshal([]byte(`{"sessionId":`+string(data)+`}`), &n)
			return n.SessionID, err
		}, []string{`null`, `"s1"`, `"a\u003cb"`, `7`, `{}`}},
		{"ProtocolVersion", func(data []byte) (any, error) {
			var v ProtocolVersion
			return v, json.Unmarshal(data, &v)
		}, func(data []byte) (any, error) {
			var r InitializeRequest
			err := json.Unmarshal([]byte(`{"protocolVersion":`+string(data)+`}`), &r)
			return r.ProtocolVersion, err
		}, []string{`null`, `1`, `1.0`, `1e0`, `1.5`, `65536`, `-1`, `"1"`}},
		{"ErrorCode", func(data []byte) (any, error) {
			var v ErrorCode
			return v, json.Unmarshal(data, &v)
		}, func(data []byte) (any, error) {
			var e Error
			err := json.Unmarshal([]byte(`{"code":`+string(data)+`,"message":"m"}`), &e)
			return e.Code, err
		}, []string{`null`, `-32600`, `-32600.0`, `-3.26e4`, `7`, `2147483648`, `"x"`}},
		{"ToolKind", func(data []byte) (any, error) {
			var v ToolKind
			return v, json.Unmarshal(data, &v)
		}, nil, []string{`null`, `"edit"`, `"unknown"`}},
	}
	for _, c := range cases {
		for _, in := range c.inputs {
			got, err := c.bare([]byte(in))
			if c.member == nil {
				if (err == nil) != (in == `"edit"`) {
					t.Errorf("%s %s: %v, %v", c.name, in, got, err)
				}
				continue
			}
			want, wantErr := c.member([]byte(in))
			if (err == nil) != (wantErr == nil) || (err == nil && got != want) {
				t.Errorf("%s %s: bare %v, %v; member %v, %v", c.name, in, got, err, want, wantErr)
			}
		}
	}
	var v ProtocolVersion
	if err := json.Unmarshal([]byte("1.0"), &v); err != nil || v != 1 {
		t.Errorf("ProtocolVersion 1.0: %v, %v", v, err)
	}
	if err := json.Unmarshal([]byte("null"), new(SessionID)); err == nil {
		t.Error("SessionID null decodes")
	}
	for _, c := range []struct {
		v    json.Marshaler
		want string
	}{{SessionID("a<b"), `"a<b"`}, {ProtocolVersion(1), `1`}, {ErrorCodeInvalidRequest, `-32600`}, {ToolKindEdit, `"edit"`}} {
		if got, err := c.v.MarshalJSON(); err != nil || string(got) != c.want {
			t.Errorf("%#v: %s, %v, want %s", c.v, got, err, c.want)
		}
	}
}
