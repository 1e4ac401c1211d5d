//go:build unstable_mcp_over_acp || unstable

package acpmcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Method is the ACP method that carries MCP requests and their notifications.
const Method = "mcp/message"

// ProtocolVersion is the only MCP revision the binding supports.
const ProtocolVersion = "2026-07-28"

// The inner MCP _meta keys of MCP 2026-07-28 that every request carries.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
)

// The outer ACP error codes of the binding. They are never inner MCP error
// codes: an inner MCP error travels in a successful response's "error"
// carrier.
const (
	// CodeInvalidParams: a malformed envelope, or a duplicate active
	// (serverId, requestId) pair.
	CodeInvalidParams = -32602
	// CodeRequestCancelled: the ACP request was cancelled.
	CodeRequestCancelled = -32800
	// CodeResourceLimitExceeded: a limit of the binding was exceeded.
	CodeResourceLimitExceeded = -33000
	// CodeServerUnavailable: no server is registered under the server ID.
	CodeServerUnavailable = -33001
	// CodeBackendFailed: the server or the transport failed without a valid
	// MCP outcome.
	CodeBackendFailed = -33002
)

// Message holds the members of one "mcp/message" request or notification:
// the declared server, the caller's ID for the inner MCP request, the inner
// method and params, and the envelope's own _meta.
type Message struct {
	ServerID  string
	RequestID string
	Method    string
	// Params are the inner MCP params, a JSON object, or nil for none.
	Params json.RawMessage
	// Meta is the envelope's _meta (not the inner params' _meta), or nil.
	Meta json.RawMessage
}

// Outcome is the inner result of one MCP request: exactly one of Result
// (which may be the JSON null) or Error.
type Outcome struct {
	// Result is the inner MCP result; nil when Error is set.
	Result json.RawMessage
	// Error is the inner MCP error; nil when Result is set.
	Error *MCPError
	// Meta is the carrier's _meta, or nil.
	Meta json.RawMessage
}

// MCPError is an inner MCP error. A [Handler] returns one (as its error) to
// answer with it in the response's "error" carrier.
type MCPError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error returns the code and message.
func (e *MCPError) Error() string {
	return "mcp error " + strconv.FormatInt(e.Code, 10) + ": " + e.Message
}

// Error is an outer ACP error of the binding, such as [CodeServerUnavailable].
type Error struct {
	Code    int64
	Message string
	// Data is the error's data, or nil.
	Data json.RawMessage
}

// Error returns the code and message.
func (e *Error) Error() string {
	return "mcp over acp: " + e.Message + " (" + strconv.FormatInt(e.Code, 10) + ")"
}

// newError returns an outer error whose data is data encoded, if not nil.
func newError(code int64, message string, data any) *Error {
	e := &Error{Code: code, Message: message}
	if data != nil {
		e.Data, _ = json.Marshal(data)
	}
	return e
}

// ErrInvalidCarrier is wrapped by the error of a response carrier that holds
// neither a result nor a valid MCP error.
var ErrInvalidCarrier = errors.New("invalid MCP-over-ACP response carrier")

// ParseOutcome decodes a received response carrier: {"result": …} or
// {"error": {"code", "message", "data"?}}, with an optional "_meta". When
// both are present the result wins; a _meta that is not an object is
// ignored, as the binding says.
func ParseOutcome(data []byte) (Outcome, error) {
	var carrier map[string]json.RawMessage
	if err := json.Unmarshal(data, &carrier); err != nil || carrier == nil {
		return Outcome{}, fmt.Errorf("%w: not a JSON object", ErrInvalidCarrier)
	}
	var out Outcome
	if m := carrier["_meta"]; isObject(m) {
		out.Meta = m
	}
	if r, ok := carrier["result"]; ok {
		out.Result = r
		return out, nil
	}
	e, err := parseMCPError(carrier["error"])
	if err != nil {
		return Outcome{}, err
	}
	out.Error = e
	return out, nil
}

// parseMCPError decodes an inner error: an object with an integer code and
// a string message.
func parseMCPError(raw json.RawMessage) (*MCPError, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("%w: neither a result nor an error object", ErrInvalidCarrier)
	}
	var e MCPError
	if err := decodeInteger(fields["code"], &e.Code); err != nil {
		return nil, fmt.Errorf("%w: error.code: %v", ErrInvalidCarrier, err)
	}
	if err := json.Unmarshal(fields["message"], &e.Message); err != nil || !bytes.HasPrefix(bytes.TrimSpace(fields["message"]), []byte(`"`)) {
		return nil, fmt.Errorf("%w: error.message is not a string", ErrInvalidCarrier)
	}
	e.Data = fields["data"]
	return &e, nil
}

// decodeInteger decodes an integral JSON number (1.0 included, as
// JavaScript's Number.isInteger takes it) into n.
func decodeInteger(raw json.RawMessage, n *int64) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return errors.New("not a number")
	}
	var f json.Number
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&f); err != nil {
		return errors.New("not a number")
	}
	if i, err := f.Int64(); err == nil {
		*n = i
		return nil
	}
	v, err := f.Float64()
	if err != nil || v != float64(int64(v)) {
		return errors.New("not an integer")
	}
	*n = int64(v)
	return nil
}

// MarshalCarrier encodes o as a response carrier.
func (o Outcome) MarshalCarrier() ([]byte, error) {
	type carrier struct {
		Result json.RawMessage `json:"result,omitempty"`
		Error  *MCPError       `json:"error,omitempty"`
		Meta   json.RawMessage `json:"_meta,omitempty"`
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	return json.Marshal(carrier{Result: o.Result, Error: o.Error, Meta: o.Meta})
}

// check reports whether o holds exactly one outcome, as a sender must.
func (o Outcome) check() error {
	if (o.Result == nil) == (o.Error == nil) {
		return errors.New("expected exactly one of a result or an error")
	}
	if o.Result != nil && !json.Valid(o.Result) {
		return errors.New("the result is not valid JSON")
	}
	return nil
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}

// objectOf decodes raw as a JSON object; nil or null is the empty object,
// ok is false for anything else.
func objectOf(raw json.RawMessage) (m map[string]json.RawMessage, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return map[string]json.RawMessage{}, true
	}
	if raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	return m, true
}

// CallerMeta is what a caller puts in every request's inner _meta.
type CallerMeta struct {
	// ClientInfo is the caller's MCP client info (name, version…), or nil.
	ClientInfo any
	// ClientCapabilities are the caller's MCP client capabilities; nil
	// means none ({}).
	ClientCapabilities any
}

// WithRequestMeta returns params (a JSON object or nil) with the MCP
// 2026-07-28 keys added to its _meta, keeping any value already there.
func WithRequestMeta(params json.RawMessage, meta CallerMeta) (json.RawMessage, error) {
	base, ok := objectOf(params)
	if !ok {
		return nil, errors.New("params must be a JSON object")
	}
	inner, ok := objectOf(base["_meta"])
	if !ok {
		inner = map[string]json.RawMessage{}
	}
	set := func(key string, v any) error {
		if _, ok := inner[key]; ok {
			return nil
		}
		b, err := json.Marshal(v)
		inner[key] = b
		return err
	}
	caps := meta.ClientCapabilities
	if caps == nil {
		caps = struct{}{}
	}
	if err := errors.Join(set(MetaProtocolVersion, ProtocolVersion), set(MetaClientCapabilities, caps)); err != nil {
		return nil, err
	}
	if meta.ClientInfo != nil {
		if err := set(MetaClientInfo, meta.ClientInfo); err != nil {
			return nil, err
		}
	}
	b, err := json.Marshal(inner)
	if err != nil {
		return nil, err
	}
	base["_meta"] = b
	return json.Marshal(base)
}
