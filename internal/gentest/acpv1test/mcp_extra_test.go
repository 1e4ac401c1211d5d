//go:build unstable_mcp_over_acp || unstable

package acpv1test

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// MCPError's schema allows members it does not name: they are kept in Extra
// and written back.
func TestMCPErrorKeepsExtraMembers(t *testing.T) {
	in := `{"code":-32001,"zeta":[1, 2],"message":"m","data":null,"alpha":{"big":` + jsontest.BigNumber + `}}`
	var e acpv1.MCPError
	if err := e.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if e.Code != -32001 || e.Message != "m" || string(e.Data) != "null" {
		t.Errorf("named members: %+v", e)
	}
	if len(e.Extra) != 2 || string(e.Extra["zeta"]) != "[1, 2]" {
		t.Errorf("Extra = %v, want zeta and alpha as received", e.Extra)
	}
	out := jsontest.Marshal(t, e)
	jsontest.AssertDirect(t, e, out)
	jsontest.AssertSame(t, out, []byte(in))
	jsontest.AssertBigNumber(t, out)

	// Known members never land in Extra; a duplicate extra member keeps the last value.
	var dup acpv1.MCPError
	if err := json.Unmarshal([]byte(`{"code":1,"message":"m","x":1,"x":2}`), &dup); err != nil {
		t.Fatal(err)
	}
	if len(dup.Extra) != 1 || string(dup.Extra["x"]) != "2" {
		t.Errorf("Extra = %v, want only x, the last value", dup.Extra)
	}
	// A bad value for an unnamed member is still an error.
	var bad acpv1.MCPError
	if err := json.Unmarshal([]byte(`{"code":1,"message":"m","x":[1,}`), &bad); err == nil {
		t.Error("invalid JSON in an extra member decoded without error")
	}
}
