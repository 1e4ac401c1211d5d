package check

import "github.com/acpgen/acpgen/gen/ir"

// The session runtime files (templates/session) are written
// against the definitions below, by schema name. A package gets them when
// its schema has every one, stable, in the shape the files use; otherwise
// it is generated without them (older protocol revisions, a schema that
// reshapes a session update).
//
// The requirements are in the language of needs.gate, each met stable.
// Beyond the members, the files rely on the kinds of some definitions (the
// session and tool call ids key maps: "SessionId#string"), on the type of
// members they compare or assign ("sessionId!@SessionId"), and on the
// parameters of the constructors they call ("PromptRequest(sessionId
// prompt)"), which follow the schema's property order.
// ToolCallUpdate, a patch, lists every member ("Type.*"): one that a new
// member would escape is refused rather than generated incomplete.
var sessionNeeds = map[string][]string{
	ir.V1: {
		"initialize", "session/new", "session/load", "session/resume", "session/prompt",
		"session/set_config_option", "session/update",
		"SessionNotification.sessionId!@SessionId", "SessionNotification.update!",
		"SessionUpdate:plan", "SessionUpdate:tool_call", "SessionUpdate:tool_call_update",
		"SessionUpdate:config_option_update", "SessionUpdate:available_commands_update",
		"SessionUpdate:current_mode_update", "SessionUpdate:session_info_update", "SessionUpdate:usage_update",
		"Plan.entries!", "Plan._meta", "PlanEntry",
		"ToolCall.toolCallId!@ToolCallId", "ToolCall.title!", "ToolCall.name", "ToolCall.kind", "ToolCall.status",
		"ToolCall.content", "ToolCall.locations", "ToolCall.rawInput", "ToolCall.rawOutput", "ToolCall._meta",
		"ToolCallUpdate.* toolCallId!@ToolCallId kind status title name content locations rawInput rawOutput _meta",
		"ConfigOptionUpdate.configOptions!", "AvailableCommandsUpdate.availableCommands!",
		"CurrentModeUpdate.currentModeId!@SessionModeId", "SessionInfoUpdate.title~", "SessionInfoUpdate.updatedAt~", "UsageUpdate",
		"NewSessionResponse.sessionId!@SessionId", "NewSessionResponse.modes", "NewSessionResponse.configOptions",
		"LoadSessionRequest.sessionId!@SessionId", "LoadSessionResponse.modes", "LoadSessionResponse.configOptions",
		"ResumeSessionRequest.sessionId!@SessionId", "ResumeSessionResponse.modes", "ResumeSessionResponse.configOptions",
		"SessionModeState.currentModeId!@SessionModeId", "SetSessionConfigOptionRequest.sessionId!@SessionId",
		"SetSessionConfigOptionResponse.configOptions!", "InitializeRequest.clientCapabilities",
		"PromptRequest.sessionId!@SessionId", "PromptRequest.prompt!",
		"SessionId#string", "ToolCallId#string",
		"PromptRequest(sessionId prompt)", "SessionNotification(sessionId update)", "SessionUpdate:plan(entries)",
	},
	ir.V2: {
		"initialize", "session/new", "session/resume", "session/prompt", "session/set_config_option", "session/update",
		"UpdateSessionNotification.sessionId!@SessionId", "UpdateSessionNotification.update!",
		"SessionUpdate:plan_update", "SessionUpdate:tool_call_update", "SessionUpdate:tool_call_content_chunk",
		"SessionUpdate:config_option_update", "SessionUpdate:available_commands_update",
		"SessionUpdate:session_info_update", "SessionUpdate:usage_update", "SessionUpdate:state_update",
		"PlanUpdate.plan!", "PlanUpdateContent:items", "PlanUpdateContent.planId!@PlanId",
		"PlanItems.planId!@PlanId", "PlanItems.entries!", "PlanItems._meta", "PlanEntry",
		"ToolCallUpdate.* toolCallId!@ToolCallId name~ title~ kind~ status~ content~ locations~ rawInput~ rawOutput~ capabilities~ _meta~",
		"ToolKind=other", "ToolCallStatus=pending",
		"ToolCallContentChunk.toolCallId!@ToolCallId", "ToolCallContentChunk.content!",
		"ConfigOptionUpdate.configOptions!", "AvailableCommandsUpdate.availableCommands!",
		"SessionInfoUpdate.title~", "SessionInfoUpdate.updatedAt~", "UsageUpdate",
		"StateUpdate:idle", "StateUpdate:running", "StateUpdate:requires_action",
		"IdleStateUpdate.background", "RunningStateUpdate.background", "RequiresActionStateUpdate.background",
		"NewSessionResponse.sessionId!@SessionId", "NewSessionResponse.configOptions", "NewSessionResponse.availableCommands",
		"ResumeSessionRequest.sessionId!@SessionId", "ResumeSessionResponse.configOptions", "ResumeSessionResponse.availableCommands",
		"SetSessionConfigOptionRequest.sessionId!@SessionId", "SetSessionConfigOptionResponse.configOptions!",
		"PromptRequest.sessionId!@SessionId", "PromptRequest.prompt!",
		"SessionId#string", "ToolCallId#string", "PlanId#string",
		"PromptRequest(sessionId prompt)", "UpdateSessionNotification(sessionId update)",
		"SessionUpdate:plan_update(plan)", "PlanUpdateContent:items(planId entries)",
	},
}

// sessionPlanOps are the variants of the plan operations that the session
// files handle behind one gate.
var sessionPlanOps = map[string][]string{
	ir.V1: {"SessionUpdate:plan_update", "SessionUpdate:plan_removed", "PlanUpdateContent:items",
		"PlanUpdateContent:markdown", "PlanUpdateContent:file", "ClientCapabilities.plan", "PlanId#string",
		"PlanUpdateContent:items(planId entries)", "PlanUpdateContent:markdown(planId content)",
		"PlanUpdateContent:file(planId uri)", "SessionUpdate:plan_update(plan)", "SessionUpdate:plan_removed(planId)"},
	ir.V2: {"SessionUpdate:plan_removed", "PlanUpdateContent:markdown", "PlanUpdateContent:file",
		"PlanUpdateContent:markdown(planId content)", "PlanUpdateContent:file(planId uri)", "SessionUpdate:plan_removed(planId)"},
}

// sessions decides whether p gets the session files and, if so, the gate
// of their plan operations (nil when p has none, or not all of them
// behind one gate: those files then handle none).
func sessions(p *ir.Package) (bool, *ir.Gate) {
	needs, ok := sessionNeeds[p.Version]
	if !ok || !p.Conn {
		return false, nil
	}
	index := needsOf(p)
	for _, need := range needs {
		if g := index.gate(need); g == nil || g.Unstable {
			return false, nil
		}
	}
	var gate *ir.Gate
	for _, need := range sessionPlanOps[p.Version] {
		g := index.gate(need)
		if g == nil || gate != nil && g.Key() != gate.Key() {
			return true, nil
		}
		gate = g
	}
	return true, gate
}

// turnNeeds are what the turn runtime files (templates/turn)
// use beyond the session files' needs: a version without an entry has no
// turn runtime.
var turnNeeds = map[string][]string{
	ir.V2: {
		"session/list", "session/close", "session/cancel", "session/request_permission", "elicitation/create",
		"InitializeResponse.capabilities", "AgentCapabilities.session",
		"NewSessionRequest.cwd!", "PromptResponse.messageId!", "CancelSessionNotification.sessionId!",
		"SessionUpdate:user_message", "UserMessage.content~", "SessionUpdate:agent_message_chunk",
		"ContentChunk.messageId!", "ContentChunk.content!", "ContentBlock:text",
		"IdleStateUpdate:", "IdleStateUpdate:end_turn", "IdleStateUpdate:cancelled", "IdleStateUpdate:error",
		"ErrorStopReason.error", "RequestPermissionOutcome:cancelled",
		"RequestPermissionRequest.sessionId!", "RequestPermissionRequest.subject",
		"RequestPermissionSubject:tool_call", "RequestPermissionSubject:command",
		"ToolCallPermissionSubject.toolCall!", "CommandPermissionSubject.toolCallId", "CommandPermissionSubject.terminalId",
		"BackgroundWork:tool_call", "BackgroundWork:terminal", "BackgroundToolCall.toolCallId!", "BackgroundTerminal.terminalId!",
		"CreateElicitationResponse:cancel",
		"ListSessionsRequest.cwd", "ListSessionsRequest.cursor", "ListSessionsResponse.sessions!", "ListSessionsResponse.nextCursor",
		"SessionInfo.sessionId!", "SessionInfo.cwd!", "SessionInfo.title", "SessionInfo.updatedAt",
		"ResumeSessionRequest.replayFrom", "CloseSessionRequest.sessionId!",
	},
}

// meets reports whether p meets every requirement of needs, stable; none
// is met when needs is empty.
func meets(p *ir.Package, needs []string) bool {
	if len(needs) == 0 {
		return false
	}
	index := needsOf(p)
	for _, need := range needs {
		if g := index.gate(need); g == nil || g.Unstable {
			return false
		}
	}
	return true
}
