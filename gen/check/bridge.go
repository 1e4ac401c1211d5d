package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/acpgen/acpgen/gen/ir"
)

// The bridge files of the convert package (templates/convert/bridge*.go,
// negotiate.go and initialize.go) are written against the definitions
// below, by schema name. The convert package gets
// them when both schemas have every one, stable, in the shape the files use;
// otherwise it is generated without them, and Bridge says why.
//
// The requirements are in the language of needs.gate, each met stable.
var bridgeNeeds = map[string][]string{
	ir.V1: {
		"initialize", "session/new", "session/resume", "session/prompt", "session/cancel",
		"session/set_config_option", "session/close", "session/delete", "session/list",
		"session/update", "session/request_permission", "elicitation/create", "elicitation/complete",
		"InitializeRequest.protocolVersion!", "InitializeRequest.clientCapabilities?", "InitializeRequest.clientInfo?",
		"InitializeRequest._meta?", "InitializeResponse.agentInfo?", "InitializeResponse.authMethods?",
		"InitializeResponse.agentCapabilities?", "InitializeResponse._meta?", "AuthMethod",
		"ClientCapabilities.auth?", "ClientCapabilities.elicitation?", "ClientCapabilities._meta?",
		"AuthCapabilities.terminal?", "AgentAuthCapabilities",
		"AgentCapabilities.promptCapabilities?", "AgentCapabilities.mcpCapabilities?",
		"AgentCapabilities.sessionCapabilities?", "AgentCapabilities.auth?", "AgentCapabilities._meta?",
		"PromptCapabilities.image?", "PromptCapabilities.audio?", "PromptCapabilities.embeddedContext?",
		"PromptCapabilities._meta?", "McpCapabilities.http?", "McpCapabilities._meta?", "SessionCapabilities",
		"SessionNotification.sessionId!", "SessionNotification.update!",
		"SessionUpdate:plan", "SessionUpdate:tool_call", "SessionUpdate:tool_call_update",
		"ToolCall.toolCallId!", "ToolCall.title!", "ToolCall.kind?", "ToolCall.status?", "ToolCall.name?",
		"ToolCall.content?", "ToolCall.locations?", "ToolCall.rawInput?", "ToolCall.rawOutput?", "ToolCall._meta?",
		"ToolCallUpdate.toolCallId!", "ToolCallUpdate.title?", "ToolCallUpdate.kind?", "ToolCallUpdate.status?",
		"ToolCallUpdate.name?", "ToolCallUpdate.content?", "ToolCallUpdate.locations?", "ToolCallUpdate.rawInput?",
		"ToolCallUpdate.rawOutput?", "ToolCallUpdate._meta?",
		"RequestPermissionRequest.sessionId!", "RequestPermissionRequest.toolCall!",
		"RequestPermissionRequest.options!", "RequestPermissionRequest._meta?", "PermissionOption",
		"PromptResponse.stopReason!", "StopReason=end_turn", "StopReason=cancelled", "StopReason=max_tokens",
		"StopReason=max_turn_requests", "StopReason=refusal",
		"SetSessionConfigOptionRequest.sessionId!", "SetSessionConfigOptionRequest.configId!",
		"SetSessionConfigOptionRequest._meta?", "SetSessionConfigOptionRequest:boolean",
		"NewSessionResponse", "ResumeSessionResponse", "ListSessionsResponse", "CreateElicitationRequest",
		"InitializeResponse(protocolVersion)", "PromptResponse(stopReason)", "SessionNotification(sessionId update)",
	},
	ir.V2: {
		"initialize", "session/new", "session/resume", "session/prompt", "session/cancel",
		"session/set_config_option", "session/close", "session/delete", "session/list",
		"session/update", "session/request_permission", "elicitation/create", "elicitation/complete",
		"InitializeRequest.protocolVersion!", "InitializeRequest.info!", "InitializeRequest.capabilities?",
		"InitializeRequest._meta?", "InitializeResponse.info!", "InitializeResponse.authMethods?",
		"InitializeResponse.capabilities?", "InitializeResponse._meta?",
		"ClientCapabilities.auth?", "ClientCapabilities.elicitation?", "ClientCapabilities._meta?",
		"ClientAuthCapabilities.terminal?", "ClientAuthCapabilities._meta?", "TerminalAuthCapabilities",
		"AgentCapabilities.auth?", "AgentCapabilities.session?", "AgentCapabilities._meta?",
		"SessionCapabilities.prompt?", "SessionCapabilities.mcp?",
		"PromptCapabilities.image?", "PromptCapabilities.audio?", "PromptCapabilities.embeddedContext?",
		"PromptCapabilities._meta?", "McpCapabilities.http?", "McpCapabilities._meta?",
		"NewSessionResponse.sessionId!", "NewSessionResponse.availableCommands?",
		"ResumeSessionRequest.sessionId!", "ResumeSessionResponse.availableCommands?",
		"PromptRequest.sessionId!", "UpdateSessionNotification.sessionId!", "UpdateSessionNotification.update!",
		"SessionUpdate:plan_update", "SessionUpdate:tool_call_update", "SessionUpdate:state_update",
		"SessionUpdate:available_commands_update", "StateUpdate:idle",
		"IdleStateUpdate:end_turn", "IdleStateUpdate:", "IdleStateUpdate:cancelled",
		"IdleStateUpdate:max_tokens", "IdleStateUpdate:max_turn_requests", "IdleStateUpdate:refusal",
		"IdleStateUpdate:error", "PlanUpdateContent:items", "ToolCallUpdate.toolCallId!",
		"RequestPermissionRequest.sessionId!", "RequestPermissionRequest.title!",
		"RequestPermissionRequest.subject?", "RequestPermissionRequest.options!", "RequestPermissionRequest._meta?",
		"RequestPermissionSubject:tool_call",
		"SetSessionConfigOptionRequest.sessionId!", "SetSessionConfigOptionRequest.configId!",
		"SetSessionConfigOptionRequest._meta?", "SetSessionConfigOptionRequest:id",
		"SetSessionConfigOptionRequest:boolean", "CancelSessionNotification", "CreateElicitationResponse",
		"InitializeRequest(protocolVersion info)", "SetSessionConfigOptionRequest(sessionId configId *)",
		"UpdateSessionNotification(sessionId update)", "SessionUpdate:available_commands_update(availableCommands)",
	},
}

// bridgeServes are the methods the bridge implements, by the side that
// receives them: the v1 agent's (the client's calls it serves) and the v2
// client's (the agent's calls). A method its side requires that is not
// here would leave the bridge short of the side's interface.
var bridgeServes = map[string][]string{
	ir.V1: {"initialize", "session/new", "session/resume", "session/prompt", "session/cancel",
		"session/set_config_option", "session/close", "session/delete", "session/list"},
	ir.V2: {"session/update", "session/request_permission", "elicitation/create", "elicitation/complete"},
}

// bridgeSide is the side whose interface the bridge implements in each
// version.
var bridgeSide = map[string]string{ir.V1: "agent", ir.V2: "client"}

// bridgePlanOps are the definitions of the plan operations the bridge
// handles behind the gate of the convert package's plan operations.
var bridgePlanOps = map[string][]string{
	ir.V1: {"ClientCapabilities.plan?"},
	ir.V2: {"SessionUpdate:plan_removed"},
}

// Bridge reports why the convert package of v1 and v2 cannot have the
// bridge files, or nil when it can. planOps is the gate of the convert
// package's plan operations (nil when it has none): the bridge's plan
// operations must be behind the same one.
func Bridge(v1, v2 *ir.Package, planOps *ir.Gate) error {
	for _, p := range []*ir.Package{v1, v2} {
		version := map[*ir.Package]string{v1: ir.V1, v2: ir.V2}[p]
		file := p.StableFile
		if file == "" {
			file = p.UnstableFile
		}
		index := needsOf(p)
		for _, need := range bridgeNeeds[version] {
			if g := index.gate(need); g == nil || g.Unstable {
				return fmt.Errorf("%s: the bridge needs %s, stable", file, need)
			}
		}
		serves := map[string]bool{}
		for _, m := range bridgeServes[version] {
			serves[m] = true
		}
		var missing []string
		for _, m := range p.Methods {
			if m.Side == bridgeSide[version] && m.Required && !serves[m.Name] {
				missing = append(missing, m.Name)
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			return fmt.Errorf("%s: every %s must handle %s, which the bridge does not",
				file, bridgeSide[version], strings.Join(missing, ", "))
		}
		for _, need := range bridgePlanOps[version] {
			g := index.gate(need)
			switch {
			case planOps == nil && g != nil:
				return fmt.Errorf("%s: %s without the plan operations", file, need)
			case planOps != nil && (g == nil || g.Key() != planOps.Key()):
				return fmt.Errorf("%s: %s is not behind the plan operations' build tags", file, need)
			}
		}
	}
	return nil
}
