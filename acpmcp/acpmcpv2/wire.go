//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"encoding/json"
	"errors"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// wire converts between the binding's values and acpv2's "mcp/message"
// types; the rest of the binding is package acpmcp's.
var wire = acpmcp.Wire[acpv2.MessageMCPRequest, acpv2.MessageMCPResponse, acpv2.MessageMCPNotification]{
	Request: func(m acpmcp.Message) *acpv2.MessageMCPRequest {
		req := acpv2.NewMessageMCPRequest(acpv2.MCPServerACPID(m.ServerID), acpv2.MCPRequestID(m.RequestID), m.Method)
		req.Params, req.Meta = m.Params, m.Meta
		return req
	},
	FromRequest: func(r *acpv2.MessageMCPRequest) acpmcp.Message {
		return acpmcp.Message{ServerID: string(r.ServerID), RequestID: string(r.RequestID), Method: r.Method, Params: r.Params, Meta: r.Meta}
	},
	ToError: func(e *acpmcp.Error) error {
		out := &acpv2.Error{Code: acpv2.ErrorCode(e.Code), Message: e.Message}
		if e.Data != nil {
			out.Data = &acpv2.ErrorData{Value: &acpv2.ErrorDataOther{Raw: e.Data}}
		}
		return out
	},
	FromError: func(err error) (*acpmcp.Error, bool) {
		var e *acpv2.Error
		if !errors.As(err, &e) {
			return nil, false
		}
		out := &acpmcp.Error{Code: int64(e.Code), Message: e.Message}
		if e.Data != nil {
			out.Data, _ = json.Marshal(e.Data)
		}
		return out, true
	},
	Notification: func(m acpmcp.Message) *acpv2.MessageMCPNotification {
		n := acpv2.NewMessageMCPNotification(acpv2.MCPServerACPID(m.ServerID), acpv2.MCPRequestID(m.RequestID), m.Method)
		n.Params = m.Params
		return n
	},
	FromNote: func(n *acpv2.MessageMCPNotification) acpmcp.Message {
		return acpmcp.Message{ServerID: string(n.ServerID), RequestID: string(n.RequestID), Method: n.Method, Params: n.Params, Meta: n.Meta}
	},
	Response: func(out acpmcp.Outcome) *acpv2.MessageMCPResponse {
		if out.Error != nil {
			resp := acpv2.NewMessageMCPResponseError(acpv2.MCPError{Code: int32(out.Error.Code), Message: out.Error.Message, Data: out.Error.Data})
			return &resp
		}
		resp := acpv2.NewMessageMCPResponseResult(out.Result)
		return &resp
	},
	Outcome: func(resp *acpv2.MessageMCPResponse) (acpmcp.Outcome, bool) {
		switch v := resp.Value.(type) {
		case *acpv2.MessageMCPResponseResult:
			return acpmcp.Outcome{Result: v.Result, Meta: v.Meta}, true
		case *acpv2.MessageMCPResponseError:
			return acpmcp.Outcome{Error: &acpmcp.MCPError{Code: int64(v.Error.Code), Message: v.Error.Message, Data: v.Error.Data}, Meta: v.Meta}, true
		}
		return acpmcp.Outcome{}, false
	},
}
