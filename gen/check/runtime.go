package check

import (
	"github.com/acpgen/acpgen/gen/ir"
)

// The JSON-RPC runtime (rpc.go, rpc_decode.go, tracker.go) and the
// connections (conn.go, conn_init.go) are copied from package templates
// into every package that has them, and use some definitions of the schema
// by name. runtime checks that those definitions have the shape the
// runtime's code assumes, so that a schema that changes one is a located
// error here rather than a generated package that does not compile:
//
//   - RequestId is a union (the runtime reads its Value and writes it with
//     appendJSON);
//   - Error is an object with a required integer "code" whose Go type holds
//     the JSON-RPC codes (-32800 and the like: a signed integer of at least
//     32 bits), a required string "message" and a "data" member, all stable;
//   - the connections' $/cancel_request takes CancelRequestNotification,
//     whose required "requestId" is a RequestId, and there is an initialize
//     method.
func (c *checker) runtime() {
	if !c.p.RPC {
		return
	}
	var requestID *ir.Type
	for _, t := range c.p.Types {
		if !t.Unstable && t.Name == "RequestId" {
			requestID = t
		}
	}
	if requestID.Kind != ir.Union {
		c.errorf(requestID.Gate, requestID.Pointer, "the JSON-RPC runtime takes RequestId for a union of the values an id can be (integer, string, …); this definition is not one")
	}
	c.errorShape(c.p.Error)
	if c.p.Conn {
		c.cancelShape(requestID)
	}
}

// errorShape checks the members of Error that the runtime sets and reads.
func (c *checker) errorShape(t *ir.Type) {
	code, message, data := c.p.ErrorCode, member(t, "message"), member(t, "data")
	switch {
	case t.Kind != ir.Struct:
		c.errorf(t.Gate, t.Pointer, "the JSON-RPC runtime takes Error for an object with the members code, message and data; this definition is not an object")
	case code == nil || !code.Required || code.Nullable || !holdsCodes(code.Type):
		c.errorf(t.Gate, t.Pointer, "the JSON-RPC runtime takes Error for an object with a required, stable member \"code\" that is an integer of at least 32 bits (JSON-RPC codes are -32800 and the like); this definition has no such member")
	case message == nil || !message.Required || message.Nullable || message.Type.Kind != ir.RefString:
		c.errorf(t.Gate, t.Pointer, "the JSON-RPC runtime takes Error for an object with a required, stable member \"message\" that is a string; this definition has no such member")
	case data == nil:
		c.errorf(t.Gate, t.Pointer, "the JSON-RPC runtime takes Error for an object with a stable member \"data\" that carries the error's details; this definition has none")
	}
}

// cancelShape checks what the connections use to cancel a request.
func (c *checker) cancelShape(requestID *ir.Type) {
	var cancel *ir.Method
	initialize := false
	for _, m := range c.p.Methods {
		switch {
		case m.Unstable:
		case m.Name == "$/cancel_request":
			cancel = m
		case m.Name == "initialize" && m.Kind == ir.Request:
			initialize = true
		}
	}
	if !initialize {
		c.errorf(ir.Gate{}, "", "the connections answer nothing but initialize until it is done, but the schema has no stable initialize request")
	}
	if cancel == nil {
		return // no connections: ir.AddSides made no sides
	}
	p := cancel.Params
	f := member(p, "requestId")
	if p.Name != "CancelRequestNotification" || p.Kind != ir.Struct || f == nil || !f.Required || f.Nullable ||
		f.Type.Kind != ir.RefNamed || f.Type.Type != requestID {
		c.errorf(p.Gate, p.Pointer, "the connections take the params of $/cancel_request for CancelRequestNotification, an object with a required, stable member \"requestId\" that is a RequestId; %s is not", p.Name)
	}
}

// member returns the stable field of t called name, or nil.
func member(t *ir.Type, name string) *ir.Field {
	for _, f := range t.Fields {
		if f.JSONName == name && !f.Unstable {
			return f
		}
	}
	return nil
}

// holdsCodes reports whether r, an error code's type, is a signed integer
// that holds the JSON-RPC codes.
func holdsCodes(r ir.Ref) bool {
	for i := 0; r.Kind == ir.RefNamed && i < 100; i++ {
		t := r.Type
		switch t.Kind {
		case ir.Enum:
			return t.Enum.Integer && t.Enum.Bits >= 32
		case ir.Named:
			r = *t.Underlying
			continue
		}
		return false
	}
	return r.Kind == ir.RefInt && !r.Unsigned && r.Bits >= 32
}
