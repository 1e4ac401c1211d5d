package acpcheck

// The requirements an agent is checked against (acpcheck agent).
func init() {
	define(
		// Transport.
		Requirement{AgentStdioFraming, Must, "Every line the agent writes to stdout is exactly one JSON-RPC message (no other output, no embedded newlines).", pageTransports},
		Requirement{AgentStdioUTF8, Must, "Every message the agent writes is UTF-8.", pageTransports},
		Requirement{AgentStdioEOFExit, Should, "The agent exits within 1 s after its stdin reaches EOF, so that a client's supervisor need not signal it.", pageTransports},

		// Initialization and versions.
		Requirement{AgentInitAnswer, Must, "The agent answers initialize with a result carrying the protocolVersion it chose.", pageInit},
		Requirement{AgentInitVersionEcho, Must, "When the client asks for a version the agent supports, the agent answers with that same version.", pageInit},
		Requirement{AgentInitVersionUnsupported, Must, "When the client asks for a version the agent does not support, the agent answers with the latest version it supports.", pageInit},
		Requirement{AgentInitInfo, Should, "The agent names itself in its initialize result (v1 agentInfo, v2 info).", pageInitV2},

		// JSON-RPC hygiene.
		Requirement{AgentRPCIDInteger, Must, "A response carries the integer id of the request it answers, unchanged.", pageJSONRPC},
		Requirement{AgentRPCIDString, Must, "A response carries the string id of the request it answers, unchanged.", pageJSONRPC},
		Requirement{AgentRPCNotificationSilent, Must, "The agent sends no response to a notification, known or unknown, not even an error.", pageJSONRPC},
		Requirement{AgentRPCMethodNotFound, Must, "A request for a method the agent does not implement is answered with error -32601.", pageJSONRPC},
		Requirement{AgentRPCParseError, Must, "A line that is not JSON is answered with error -32700 and a null id.", pageJSONRPC},
		Requirement{AgentRPCInvalidRequest, Should, "A JSON value that is not a JSON-RPC request (here an object without method or a bad jsonrpc member) is answered with error -32600.", pageJSONRPC},
		Requirement{AgentRPCInvalidParams, Should, "A known method whose params do not fit its type is answered with error -32602.", pageJSONRPC},
		Requirement{AgentRPCUsableAfterError, Must, "After each of those errors the connection still answers requests.", pageOverview},
		Requirement{AgentRPCCustomMethod, Should, "An unknown method whose name begins with an underscore (an extension) is answered with -32601, not ignored.", pageExtensibility},

		// Messages.
		Requirement{AgentSchemaValid, Must, "Every message the agent sends is valid under the schema of the version negotiated (the stable file, or the unstable file for messages of an unstable feature).", pageSchemaV1},
		Requirement{AgentSchemaDecodes, Must, "Every message the agent sends decodes into the generated types of the version negotiated.", pageSchemaV2},
		Requirement{AgentSchemaUnstable, Informational, "Messages the agent sent that are valid only under the unstable schema.", pageSchemaV1},

		// Sessions.
		Requirement{AgentSessionNew, Must, "session/new is answered with a sessionId.", pageSessionSetup},
		Requirement{AgentSessionUnknown, Should, "A request naming a session the agent does not know is answered with an error.", pageSessionSetup},
		Requirement{AgentSessionLoadReplay, PerCapability, "An agent that advertises loadSession replays the whole conversation of a session it loads as session/update notifications (the prompt as user_message_chunk, its own agent_message_chunk) before it answers session/load.", pageSessionSetup},
		Requirement{AgentSessionLoad, PerCapability, "An agent that advertises loadSession answers session/load of a session it created with a result, after any replay.", pageSessionSetup},
		Requirement{AgentSessionList, PerCapability, "An agent that advertises session listing answers session/list with the sessions it knows, the new one among them.", pageSessionSetup},
		Requirement{AgentSessionResume, PerCapability, "An agent that advertises session resume answers session/resume of a session it created with a result.", pageSessionSetup},
		Requirement{AgentSessionClose, PerCapability, "An agent that advertises session close answers session/close with a result.", pageSessionSetup},
		Requirement{AgentSessionDelete, PerCapability, "An agent that advertises session delete answers session/delete of a session it created with a result.", pageSessionSetup},
		Requirement{AgentSessionModes, PerCapability, "An agent that offers session modes accepts session/set_mode to each mode it listed.", pageSessionSetup},
		Requirement{AgentSessionConfig, PerCapability, "An agent that offers config options accepts session/set_config_option with a value it listed.", pageSessionSetup},
		Requirement{AgentSessionV2ResumeState, Must, "A v2 agent's successful session/resume sends the session's current state (a state_update) before its answer.", pageSessionV2},
		Requirement{AgentSessionV2Required, Must, "A v2 agent whose initialize result has capabilities.session implements session/list, session/resume and session/close.", pageRequiredV2},

		// Prompt turns.
		Requirement{AgentPromptV1StopReason, Must, "A v1 session/prompt is answered with a stopReason, one of the protocol's stop reasons.", pagePromptTurn},
		Requirement{AgentPromptV1UpdatesInTurn, Should, "The agent sends no session/update for the session after it answered the turn's session/prompt.", pagePromptTurn},
		Requirement{AgentPromptV2MessageID, Must, "A v2 session/prompt is answered as soon as the prompt is accepted, with the user message's messageId.", pagePromptV2},
		Requirement{AgentPromptV2UserMessage, Must, "A v2 agent reports the accepted prompt as user_message (or user_message_chunk) carrying the answered messageId.", pagePromptV2},
		Requirement{AgentPromptV2RunningIdle, Must, "A v2 turn sends state_update running before its work and ends with state_update idle carrying a stopReason.", pagePromptV2},
		Requirement{AgentPromptV2RequiresAction, Should, "A v2 agent reports state_update requires_action while it waits on a permission request.", pagePromptV2},
		Requirement{AgentCancelStopReason, Must, "A turn cancelled with session/cancel ends with stopReason cancelled.", pagePromptTurn},
		Requirement{AgentCancelPermission, Must, "A turn whose pending permission request the client answers cancelled after session/cancel ends with stopReason cancelled.", pagePromptTurn},
		Requirement{AgentCancelNoLateUpdate, Should, "After a cancelled turn has ended the agent sends no more updates for it.", pagePromptTurn},

		// Plans.
		Requirement{AgentPlanV1Fallback, Must, "A v1 agent sends plan_update and plan_removed only to a client that advertised the plan capability; to others it sends plan.", pagePlanOperations},
		Requirement{AgentPlanV1Operations, Informational, "Whether a v1 agent uses plan_update with a client that advertised the plan capability.", pagePlanOperations},
		Requirement{AgentPlanV2ID, Must, "Every v2 plan_update carries the plan's id.", pagePlanV2},
		Requirement{AgentPlanV2NoV1Plan, Must, "A v2 agent never sends the v1 plan update (sessionUpdate plan).", pagePlanV2},
		Requirement{AgentPlanEntriesComplete, Should, "Each items plan update carries the complete list of entries, each with content, priority and status.", pagePlan},
	)
}
