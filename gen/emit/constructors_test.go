package emit

import (
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

func TestMethodConstructorDoc(t *testing.T) {
	relay := &ir.Method{Name: "relay", Kind: ir.Request}
	update := &ir.Method{Name: "update", Kind: ir.Notification}
	for _, c := range []struct {
		c    ir.MethodConstructor
		want string
	}{
		{ir.MethodConstructor{GoName: "NewRelayResponse", Uses: []ir.MethodUse{{Method: relay, Result: true}}},
			`NewRelayResponse returns the result of a "relay" request.`},
		{ir.MethodConstructor{GoName: "NewUpdate", ParamNames: []string{"sessionID", "update"}, Uses: []ir.MethodUse{{Method: update}}},
			`NewUpdate returns the params of an "update" notification with the given sessionID and update.`},
		{ir.MethodConstructor{GoName: "NewMsg", ParamNames: []string{"id", "value"}, Variant: true,
			Uses: []ir.MethodUse{{Method: relay}, {Method: update}}},
			`NewMsg returns the params of a "relay" request and the params of an "update" notification with the given id, holding the variant value.`},
		{ir.MethodConstructor{GoName: "NewChoice", ParamNames: []string{"value"}, Variant: true, Uses: []ir.MethodUse{{Method: relay, Result: true}}},
			`NewChoice returns the result of a "relay" request holding the variant value.`},
	} {
		if got := methodConstructorDoc(&c.c); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
