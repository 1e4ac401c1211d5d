//go:build unstable_mcp_over_acp || unstable

package acpmcp

import (
	"encoding/json"
	"errors"
)

// metaSubscriptionID is the inner _meta key MCP uses to correlate
// subscription events and results.
const metaSubscriptionID = "io.modelcontextprotocol/subscriptionId"

// projectOutcome returns the JSON-RPC response of an outcome, and its HTTP
// status when it is not streamed.
func projectOutcome(out Outcome, err error, req httpRequest, requestID string) (map[string]any, int) {
	if err != nil {
		code, message := int64(CodeBackendFailed), "MCP binding failure"
		var e *Error
		if errors.As(err, &e) {
			message = e.Message
			switch e.Code {
			case CodeResourceLimitExceeded, CodeServerUnavailable, CodeBackendFailed, CodeRequestCancelled:
				code = e.Code
			}
		}
		return jsonRPCError(req.id, code, message, nil), 200
	}
	if out.Error != nil {
		status := 200
		switch out.Error.Code {
		case -32020, -32021, -32022, -32602:
			status = 400
		case -32601:
			status = 404
		}
		return map[string]any{"jsonrpc": "2.0", "id": req.id, "error": out.Error}, status
	}
	result := out.Result
	if req.method == "tools/list" {
		result = stripHeaderAnnotations(result)
	}
	result = rewriteSubscriptionID(result, requestID, req.id)
	return map[string]any{"jsonrpc": "2.0", "id": req.id, "result": result}, 200
}

// rewriteSubscriptionID replaces a subscription ID that names the ACP
// request with the HTTP request's ID.
func rewriteSubscriptionID(payload json.RawMessage, requestID string, httpID json.RawMessage) json.RawMessage {
	fields, ok := objectOf(payload)
	if !ok || payload == nil {
		return payload
	}
	meta, ok := objectOf(fields["_meta"])
	var id string
	if !ok || !isString(meta[metaSubscriptionID]) || json.Unmarshal(meta[metaSubscriptionID], &id) != nil || id != requestID {
		return payload
	}
	meta[metaSubscriptionID] = httpID
	fields["_meta"], _ = json.Marshal(meta)
	b, _ := json.Marshal(fields)
	return b
}

// The schema positions that hold subschemas, by how they hold them.
var (
	schemaMaps   = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
	schemaValues = []string{"additionalItems", "additionalProperties", "unevaluatedItems", "unevaluatedProperties",
		"contains", "contentSchema", "not", "if", "then", "else", "propertyNames", "items"}
	schemaArrays = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

// stripHeaderAnnotations removes the transport-only x-mcp-header
// annotations from each listed tool's inputSchema, leaving instance data
// (property names, defaults, enums, examples) alone.
func stripHeaderAnnotations(result json.RawMessage) json.RawMessage {
	var r map[string]json.RawMessage
	var tools []json.RawMessage
	if json.Unmarshal(result, &r) != nil || r == nil || json.Unmarshal(r["tools"], &tools) != nil {
		return result
	}
	for i, raw := range tools {
		var tool map[string]json.RawMessage
		if json.Unmarshal(raw, &tool) == nil && tool != nil && tool["inputSchema"] != nil {
			tool["inputSchema"] = stripSchema(tool["inputSchema"])
			tools[i], _ = json.Marshal(tool)
		}
	}
	r["tools"], _ = json.Marshal(tools)
	b, _ := json.Marshal(r)
	return b
}

// stripSchema removes x-mcp-header from a schema and its subschemas.
func stripSchema(raw json.RawMessage) json.RawMessage {
	var s map[string]json.RawMessage
	if json.Unmarshal(raw, &s) != nil || s == nil {
		return raw
	}
	delete(s, "x-mcp-header")
	for _, k := range schemaMaps {
		var children map[string]json.RawMessage
		if json.Unmarshal(s[k], &children) == nil && children != nil {
			for name, child := range children {
				children[name] = stripSchema(child)
			}
			s[k], _ = json.Marshal(children)
		}
	}
	for _, k := range schemaValues {
		if isObject(s[k]) {
			s[k] = stripSchema(s[k])
		}
	}
	for _, k := range schemaArrays {
		var items []json.RawMessage
		if json.Unmarshal(s[k], &items) == nil && items != nil {
			for i, item := range items {
				items[i] = stripSchema(item)
			}
			s[k], _ = json.Marshal(items)
		}
	}
	b, _ := json.Marshal(s)
	return b
}
