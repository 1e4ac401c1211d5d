//go:build unstable

package acpv2test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// TestProxyRequestParams: the params of a ProxyRequest are one of the
// proxy methods' params, each an object (or null, or absent): a string or
// an array is refused, as the schema refuses it, for a known method and an
// unknown one alike.
func TestProxyRequestParams(t *testing.T) {
	for in, ok := range map[string]bool{
		`{"id":1,"method":"proxy/successor","params":{"method":"m"}}`: true,
		`{"id":1,"method":"_x/custom","params":{"a":1}}`:              true,
		`{"id":1,"method":"proxy/successor","params":null}`:           true,
		`{"id":1,"method":"proxy/successor"}`:                         true,
		`{"id":1,"method":"proxy/successor","params":"x"}`:            false,
		`{"id":1,"method":"_x/custom","params":"x"}`:                  false,
		`{"id":1,"method":"proxy/successor","params":[1]}`:            false,
		`{"id":1,"method":"proxy/successor","params":7}`:              false,
	} {
		var r acpv2.ProxyRequest
		err := json.Unmarshal([]byte(in), &r)
		if (err == nil) != ok {
			t.Errorf("%s: error %v, want accepted %v", in, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), "params") {
			t.Errorf("%s: the error does not name params: %v", in, err)
		}
	}
}
