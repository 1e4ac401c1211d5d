package check

import "github.com/acpgen/acpgen/gen/ir"

// The session runtime files (templates/session*.go.tmpl) are written
// against the definitions below, by schema name. A package gets them when
// its schema has every one, stable, in the shape the files use; otherwise
// it is generated without them (older protocol revisions, a schema that
// reshapes a session update).
//
// The requirements are in the language of needs.gate, each met stable.
// ToolCallUpdate, a patch, lists every member ("Type.*"): one that a new
// member would escape is refused rather than generated incomplete.
var sessionNeeds = map[string][]string{
	ir.V1: {
		"initialize", "session/new", "session/load", "session/resume", "session/prompt",
		"session/set_config_option", "session/update",
		"SessionNotification.sessionId!", "SessionNotification.update!",
		"SessionUpdate:plan", "SessionUpdate:tool_call", "SessionUpdate:tool_call_update",
		"SessionUpdate:config_option_update", "SessionUpdate:available_commands_update",
		"SessionUpdate:current_mode_update", "SessionUpdate:session_info_update", "SessionUpdate:usage_update",
		"Plan.entries!", "Plan._meta", "PlanEntry",
		"ToolCall.toolCallId!", "ToolCall.title!", "ToolCall.name", "ToolCall.kind", "ToolCall.status",
		"ToolCall.content", "ToolCall.locations", "ToolCall.rawInput", "ToolCall.rawOutput", "ToolCall._meta",
		"ToolCallUpdate.* toolCallId! kind status title name content locations rawInput rawOutput _meta",
		"ConfigOptionUpdate.configOptions!", "AvailableCommandsUpdate.availableCommands!",
		"CurrentModeUpdate.currentModeId!", "SessionInfoUpdate.title~", "SessionInfoUpdate.updatedAt~", "UsageUpdate",
		"NewSessionResponse.sessionId!", "NewSessionResponse.modes", "NewSessionResponse.configOptions",
		"LoadSessionRequest.sessionId!", "LoadSessionResponse.modes", "LoadSessionResponse.configOptions",
		"ResumeSessionRequest.sessionId!", "ResumeSessionResponse.modes", "ResumeSessionResponse.configOptions",
		"SessionModeState.currentModeId!", "SetSessionConfigOptionRequest.sessionId!",
		"SetSessionConfigOptionResponse.configOptions!", "InitializeRequest.clientCapabilities",
		"PromptRequest.sessionId!", "PromptRequest.prompt!",
	},
	ir.V2: {
		"initialize", "session/new", "session/resume", "session/prompt", "session/set_config_option", "session/update",
		"UpdateSessionNotification.sessionId!", "UpdateSessionNotification.update!",
		"SessionUpdate:plan_update", "SessionUpdate:tool_call_update", "SessionUpdate:tool_call_content_chunk",
		"SessionUpdate:config_option_update", "SessionUpdate:available_commands_update",
		"SessionUpdate:session_info_update", "SessionUpdate:usage_update", "SessionUpdate:state_update",
		"PlanUpdate.plan!", "PlanUpdateContent:items", "PlanUpdateContent.planId!",
		"PlanItems.planId!", "PlanItems.entries!", "PlanItems._meta", "PlanEntry",
		"ToolCallUpdate.* toolCallId! name~ title~ kind~ status~ content~ locations~ rawInput~ rawOutput~ capabilities~ _meta~",
		"ToolKind=other", "ToolCallStatus=pending",
		"ToolCallContentChunk.toolCallId!", "ToolCallContentChunk.content!",
		"ConfigOptionUpdate.configOptions!", "AvailableCommandsUpdate.availableCommands!",
		"SessionInfoUpdate.title~", "SessionInfoUpdate.updatedAt~", "UsageUpdate",
		"StateUpdate:idle", "StateUpdate:running", "StateUpdate:requires_action",
		"IdleStateUpdate.background", "RunningStateUpdate.background", "RequiresActionStateUpdate.background",
		"NewSessionResponse.sessionId!", "NewSessionResponse.configOptions", "NewSessionResponse.availableCommands",
		"ResumeSessionRequest.sessionId!", "ResumeSessionResponse.configOptions", "ResumeSessionResponse.availableCommands",
		"SetSessionConfigOptionRequest.sessionId!", "SetSessionConfigOptionResponse.configOptions!",
		"PromptRequest.sessionId!", "PromptRequest.prompt!",
	},
}

// sessionPlanOps are the variants of the plan operations that the session
// files handle behind one gate.
var sessionPlanOps = map[string][]string{
	ir.V1: {"SessionUpdate:plan_update", "SessionUpdate:plan_removed", "PlanUpdateContent:items",
		"PlanUpdateContent:markdown", "PlanUpdateContent:file", "ClientCapabilities.plan"},
	ir.V2: {"SessionUpdate:plan_removed", "PlanUpdateContent:markdown", "PlanUpdateContent:file"},
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

// turnNeeds are what the turn runtime files (templates/turn_*.go.tmpl)
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
