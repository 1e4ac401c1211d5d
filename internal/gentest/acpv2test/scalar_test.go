package acpv2test

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// TestScalarTypesDecodeAsMembers: a bare value of a defined scalar type
// decodes as the same value does inside a struct (null is an error, an
// integer may be written 1.0), and encodes as it does there.
func TestScalarTypesDecodeAsMembers(t *testing.T) {
	jsontest.AssertDecodesAlike(t, jsontest.Member(`{"sessionId":`, `}`, func(n *acpv2.CancelSessionNotification) acpv2.SessionID { return n.SessionID }),
		`null`, `"s1"`, `"a\u003cb"`, `7`, `{}`)
	jsontest.AssertDecodesAlike(t, jsontest.Member(`{"protocolVersion":`, `,"info":{"name":"x","version":"1"}}`, func(r *acpv2.InitializeRequest) acpv2.ProtocolVersion { return r.ProtocolVersion }),
		`null`, `1`, `1.0`, `1e0`, `1.5`, `65536`, `-1`, `"1"`)
	jsontest.AssertDecodesAlike(t, jsontest.Member(`{"code":`, `,"message":"m"}`, func(e *acpv2.Error) acpv2.ErrorCode { return e.Code }),
		`null`, `-32600`, `-32600.0`, `-3.26e4`, `7`, `2147483648`, `"x"`)
	// ToolKind is an open enum in v2.
	jsontest.AssertDecodes[acpv2.ToolKind](t, func(in string) bool { return in != `null` }, `null`, `"edit"`, `"unknown"`)
	var v acpv2.ProtocolVersion
	if err := json.Unmarshal([]byte("1.0"), &v); err != nil || v != 1 {
		t.Errorf("ProtocolVersion 1.0: %v, %v", v, err)
	}
	if err := json.Unmarshal([]byte("null"), new(acpv2.SessionID)); err == nil {
		t.Error("SessionID null decodes")
	}
	jsontest.AssertEncodes(t, map[json.Marshaler]string{
		acpv2.SessionID("a<b"): `"a<b"`, acpv2.ProtocolVersion(1): `1`, acpv2.ErrorCodeInvalidRequest: `-32600`, acpv2.ToolKindEdit: `"edit"`,
	})
}
