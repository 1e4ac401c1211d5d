//go:build unstable_mcp_over_acp || unstable

package acpmcpv1

import (
	"errors"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// wire converts between the binding's values and acpv1's "mcp/message"
// types; the rest of the binding is package acpmcp's.
var wire = acpmcp.Wire[acpv1.MessageMCPRequest, acpv1.MessageMCPResponse, acpv1.MessageMCPNotification]{
	Request: func(m acpmcp.Message) *acpv1.MessageMCPRequest {
		req := acpv1.NewMessageMCPRequest(acpv1.MCPServerACPID(m.ServerID), acpv1.MCPRequestID(m.RequestID), m.Method)
		req.Params, req.Meta = m.Params, m.Meta
		return req
	},
	FromRequest: func(r *acpv1.MessageMCPRequest) acpmcp.Message {
		return acpmcp.Message{ServerID: string(r.ServerID), RequestID: string(r.RequestID), Method: r.Method, Params: r.Params, Meta: r.Meta}
	},
	ToError: func(e *acpmcp.Error) error {
		return &acpv1.Error{Code: acpv1.ErrorCode(e.Code), Message: e.Message, Data: e.Data}
	},
	FromError: func(err error) (*acpmcp.Error, bool) {
		var e *acpv1.Error
		if !errors.As(err, &e) {
			return nil, false
		}
		return &acpmcp.Error{Code: int64(e.Code), Message: e.Message, Data: e.Data}, true
	},
	Notification: func(m acpmcp.Message) *acpv1.MessageMCPNotification {
		n := acpv1.NewMessageMCPNotification(acpv1.MCPServerACPID(m.ServerID), acpv1.MCPRequestID(m.RequestID), m.Method)
		n.Params = m.Params
		return n
	},
	FromNote: func(n *acpv1.MessageMCPNotification) acpmcp.Message {
		return acpmcp.Message{ServerID: string(n.ServerID), RequestID: string(n.RequestID), Method: n.Method, Params: n.Params, Meta: n.Meta}
	},
	Response: func(out acpmcp.Outcome) *acpv1.MessageMCPResponse {
		if out.Error != nil {
			resp := acpv1.NewMessageMCPResponseError(acpv1.MCPError{Code: int32(out.Error.Code), Message: out.Error.Message, Data: out.Error.Data})
			return &resp
		}
		resp := acpv1.NewMessageMCPResponseResult(out.Result)
		return &resp
	},
	Outcome: func(resp *acpv1.MessageMCPResponse) (acpmcp.Outcome, bool) {
		switch v := resp.Value.(type) {
		case *acpv1.MessageMCPResponseResult:
			return acpmcp.Outcome{Result: v.Result, Meta: v.Meta}, true
		case *acpv1.MessageMCPResponseError:
			return acpmcp.Outcome{Error: &acpmcp.MCPError{Code: int64(v.Error.Code), Message: v.Error.Message, Data: v.Error.Data}, Meta: v.Meta}, true
		}
		return acpmcp.Outcome{}, false
	},
}
