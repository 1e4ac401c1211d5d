package acpv1test

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// TestScalarTypesDecodeAsMembers: a bare value of a defined scalar type
// decodes as the same value does inside a struct (null is an error, an
// integer may be written 1.0), and encodes as it does there.
func TestScalarTypesDecodeAsMembers(t *testing.T) {
	jsontest.AssertDecodesAlike(t, jsontest.Member(`{"sessionId":`, `}`, func(n *acpv1.CancelNotification) acpv1.SessionID { return n.SessionID }),
		`null`, `"s1"`, `"a\u003cb"`, `7`, `{}`)
	jsontest.AssertDecodesAlike(t, jsontest.Member(`{"protocolVersion":`, `}`, func(r *acpv1.InitializeRequest) acpv1.ProtocolVersion { return r.ProtocolVersion }),
		`null`, `1`, `1.0`, `1e0`, `1.5`, `65536`, `-1`, `"1"`)
	jsontest.AssertDecodesAlike(t, jsontest.Member(`{"code":`, `,"message":"m"}`, func(e *acpv1.Error) acpv1.ErrorCode { return e.Code }),
		`null`, `-32600`, `-32600.0`, `-3.26e4`, `7`, `2147483648`, `"x"`)
	jsontest.AssertDecodes[acpv1.ToolKind](t, func(in string) bool { return in == `"edit"` }, `null`, `"edit"`, `"unknown"`)
	var v acpv1.ProtocolVersion
	if err := json.Unmarshal([]byte("1.0"), &v); err != nil || v != 1 {
		t.Errorf("ProtocolVersion 1.0: %v, %v", v, err)
	}
	if err := json.Unmarshal([]byte("null"), new(acpv1.SessionID)); err == nil {
		t.Error("SessionID null decodes")
	}
	jsontest.AssertEncodes(t, map[json.Marshaler]string{
		acpv1.SessionID("a<b"): `"a<b"`, acpv1.ProtocolVersion(1): `1`, acpv1.ErrorCodeInvalidRequest: `-32600`, acpv1.ToolKindEdit: `"edit"`,
	})
}
