package acprouter

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// maxProtocolVersion is the largest protocol version: versions are uint16.
const maxProtocolVersion = 0xffff

// decide handles one line read before initialize. It returns the route the
// line selects with the initialize line to replay into it, or the reply to
// write (nil for none) when the line leaves the connection uninitialized.
func (rt *Router) decide(line []byte) (route *Route, initialize, reply []byte) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil, nil, nil
	}
	if !json.Valid(trimmed) {
		return nil, nil, errorLine(nil, -32700, "Parse error", nil)
	}
	switch trimmed[0] {
	case '[':
		// ACP does not use JSON-RPC batches on any version.
		return nil, nil, errorLine(nil, -32600, "Invalid request: JSON-RPC batches are not supported", nil)
	case '{':
	default:
		return nil, nil, errorLine(nil, -32600, "Invalid request", trimmed)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return nil, nil, errorLine(nil, -32700, "Parse error", nil)
	}
	id, hasID := m["id"]
	method, hasMethod := m["method"]
	_, hasResult := m["result"]
	_, hasError := m["error"]
	envelope := string(m["jsonrpc"]) == `"2.0"`
	methodIsString := hasMethod && method[0] == '"'
	switch {
	case envelope && !hasID && methodIsString:
		return nil, nil, nil // a notification: ignored before initialize
	case !hasMethod && (hasID || hasResult || hasError):
		return nil, nil, nil // a response, or what looks like one: nothing awaits it
	case !envelope || !methodIsString || !validID(id):
		return nil, nil, errorLine(nil, -32600, "Invalid request", []byte(`"first ACP message must be an initialize request"`))
	}
	var name string
	if json.Unmarshal(method, &name) != nil || name != "initialize" {
		return nil, nil, errorLine(id, -32600, "Invalid request", []byte(`"first ACP request must be initialize"`))
	}
	return rt.initialize(id, m["params"])
}

// initialize handles an initialize request with the given id and params.
func (rt *Router) initialize(id, params []byte) (*Route, []byte, []byte) {
	requested, ok := protocolVersion(params)
	if !ok {
		return nil, nil, errorLine(id, -32602, "Invalid params",
			[]byte(`"initialize.protocolVersion must be a valid ACP protocol version"`))
	}
	route := rt.selectRoute(requested)
	if route == nil {
		data, _ := json.Marshal(struct {
			Requested int   `json:"requested"`
			Supported []int `json:"supported"`
		}{requested, rt.versions()})
		return nil, nil, errorLine(id, -32022, "Unsupported protocol version", data)
	}
	if route.Version >= 2 && !integerOrString(id) {
		return nil, nil, errorLine(nil, -32600, "Invalid request: ACP v2 request IDs must be strings or integers", nil)
	}
	normalized, err := route.Initialize(params, requested)
	if err != nil {
		data, _ := json.Marshal("invalid initialize params: " + err.Error())
		return nil, nil, errorLine(id, -32602, "Invalid params", data)
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"method":"initialize","params":`)
	b.Write(normalized)
	b.WriteString("}\n")
	return route, b.Bytes(), nil
}

// protocolVersion reads the protocolVersion of initialize params: an integer
// from 0 to 65535 in params that are a JSON object.
func protocolVersion(params []byte) (int, bool) {
	if len(params) == 0 || params[0] != '{' {
		return 0, false
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return 0, false
	}
	f, ok := number(p["protocolVersion"])
	if !ok || f != math.Trunc(f) || f < 0 || f > maxProtocolVersion {
		return 0, false
	}
	return int(f), true
}

// validID reports whether id is a JSON-RPC request id: null, a string or a
// finite number.
func validID(id []byte) bool {
	if len(id) == 0 {
		return false
	}
	switch id[0] {
	case 'n', '"':
		return true
	}
	_, ok := number(id)
	return ok
}

// integerOrString reports whether id is a string or an integer, the ids of
// ACP v2.
func integerOrString(id []byte) bool {
	if len(id) > 0 && id[0] == '"' {
		return true
	}
	f, ok := number(id)
	return ok && f == math.Trunc(f)
}

// number reads a finite JSON number as JavaScript does.
func number(v []byte) (float64, bool) {
	if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	return f, err == nil && !math.IsInf(f, 0)
}

// errorLine writes a JSON-RPC error response line; a nil id is written null,
// nil data is left out.
func errorLine(id []byte, code int, message string, data []byte) []byte {
	if id == nil {
		id = []byte("null")
	}
	b := []byte(`{"jsonrpc":"2.0","id":`)
	b = append(b, id...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	b = strconv.AppendQuote(b, message)
	if data != nil {
		b = append(b, `,"data":`...)
		b = append(b, data...)
	}
	return append(b, "}}\n"...)
}
