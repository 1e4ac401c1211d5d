package acpcheck

// The requirements an agent is checked against (acpcheck agent).
func init() {
	define(
		// Transport.
		Requirement{"agent.stdio.framing", Must, "Every line the agent writes to stdout is exactly one JSON-RPC message (no other output, no embedded newlines).", pageTransports},
		Requirement{"agent.stdio.utf8", Must, "Every message the agent writes is UTF-8.", pageTransports},
		Requirement{"agent.stdio.eof-exit", Should, "The agent exits within 1 s after its stdin reaches EOF, so that a client's supervisor need not signal it.", pageTransports},

		// Initialization and versions.
		Requirement{"agent.init.answer", Must, "The agent answers initialize with a result carrying the protocolVersion it chose.", pageInit},
		Requirement{"agent.init.version-echo", Must, "When the client asks for a version the agent supports, the agent answers with that same version.", pageInit},
		Requirement{"agent.init.version-unsupported", Must, "When the client asks for a version the agent does not support, the agent answers with the latest version it supports.", pageInit},
		Requirement{"agent.init.info", Should, "The agent names itself in its initialize result (v1 agentInfo, v2 info).", pageInitV2},

		// JSON-RPC hygiene.
		Requirement{"agent.rpc.id-integer", Must, "A response carries the integer id of the request it answers, unchanged.", pageJSONRPC},
		Requirement{"agent.rpc.id-string", Must, "A response carries the string id of the request it answers, unchanged.", pageJSONRPC},
		Requirement{"agent.rpc.notification-silent", Must, "The agent sends no response to a notification, known or unknown, not even an error.", pageJSONRPC},
		Requirement{"agent.rpc.method-not-found", Must, "A request for a method the agent does not implement is answered with error -32601.", pageJSONRPC},
		Requirement{"agent.rpc.parse-error", Must, "A line that is not JSON is answered with error -32700 and a null id.", pageJSONRPC},
		Requirement{"agent.rpc.invalid-request", Should, "A JSON value that is not a JSON-RPC request (here an object without method or a bad jsonrpc member) is answered with error -32600.", pageJSONRPC},
		Requirement{"agent.rpc.invalid-params", Should, "A known method whose params do not fit its type is answered with error -32602.", pageJSONRPC},
		Requirement{"agent.rpc.usable-after-error", Must, "After each of those errors the connection still answers requests.", pageOverview},
		Requirement{"agent.rpc.custom-method", Should, "An unknown method whose name begins with an underscore (an extension) is answered with -32601, not ignored.", pageExtensibility},

		// Messages.
		Requirement{"agent.schema.valid", Must, "Every message the agent sends is valid under the schema of the version negotiated (the stable file, or the unstable file for messages of an unstable feature).", pageSchemaV1},
		Requirement{"agent.schema.decodes", Must, "Every message the agent sends decodes into the generated types of the version negotiated.", pageSchemaV2},
		Requirement{"agent.schema.unstable", Informational, "Messages the agent sent that are valid only under the unstable schema.", pageSchemaV1},

		// Sessions.
		Requirement{"agent.session.new", Must, "session/new is answered with a sessionId.", pageSessionSetup},
		Requirement{"agent.session.unknown", Should, "A request naming a session the agent does not know is answered with an error.", pageSessionSetup},
		Requirement{"agent.session.load-replay", PerCapability, "An agent that advertises loadSession replays the whole conversation of a session it loads as session/update notifications (the prompt as user_message_chunk, its own agent_message_chunk) before it answers session/load.", pageSessionSetup},
		Requirement{"agent.session.load", PerCapability, "An agent that advertises loadSession answers session/load of a session it created with a result, after any replay.", pageSessionSetup},
		Requirement{"agent.session.list", PerCapability, "An agent that advertises session listing answers session/list with the sessions it knows, the new one among them.", pageSessionSetup},
		Requirement{"agent.session.resume", PerCapability, "An agent that advertises session resume answers session/resume of a session it created with a result.", pageSessionSetup},
		Requirement{"agent.session.close", PerCapability, "An agent that advertises session close answers session/close with a result.", pageSessionSetup},
		Requirement{"agent.session.delete", PerCapability, "An agent that advertises session delete answers session/delete of a session it created with a result.", pageSessionSetup},
		Requirement{"agent.session.modes", PerCapability, "An agent that offers session modes accepts session/set_mode to each mode it listed.", pageSessionSetup},
		Requirement{"agent.session.config", PerCapability, "An agent that offers config options accepts session/set_config_option with a value it listed.", pageSessionSetup},
		Requirement{"agent.session.v2-resume-state", Must, "A v2 agent's successful session/resume sends the session's current state (a state_update) before its answer.", pageSessionV2},
		Requirement{"agent.session.v2-replay-start", Must, "A v2 agent answers session/resume with replayFrom {\"type\": \"start\"} with a result, after replaying the history it retains (none, if it retains none).", pageSessionV2},
		Requirement{"agent.session.v2-replay-cursor", Must, "A v2 agent rejects a session/resume whose replayFrom cursor type it does not support with -32602 (Invalid params), rather than resuming without replay.", pageSessionV2},
		Requirement{"agent.session.v2-required", Must, "A v2 agent whose initialize result has capabilities.session implements session/list, session/resume and session/close.", pageRequiredV2},

		// Prompt turns.
		Requirement{"agent.prompt.v1-stop-reason", Must, "A v1 session/prompt is answered with a stopReason, one of the protocol's stop reasons.", pagePromptTurn},
		Requirement{"agent.prompt.v1-updates-in-turn", Should, "The agent sends no session/update for the session after it answered the turn's session/prompt.", pagePromptTurn},
		Requirement{"agent.prompt.v2-message-id", Must, "A v2 session/prompt is answered as soon as the prompt is accepted, with the user message's messageId.", pagePromptV2},
		Requirement{"agent.prompt.v2-user-message", Must, "A v2 agent reports the accepted prompt as user_message (or user_message_chunk) carrying the answered messageId.", pagePromptV2},
		Requirement{"agent.prompt.v2-running-idle", Must, "A v2 turn sends state_update running before its work and ends with state_update idle carrying a stopReason.", pagePromptV2},
		Requirement{"agent.prompt.v2-requires-action", Should, "A v2 agent reports state_update requires_action while it waits on a permission request.", pagePromptV2},
		Requirement{"agent.cancel.stop-reason", Must, "A turn cancelled with session/cancel ends with stopReason cancelled.", pagePromptTurn},
		Requirement{"agent.cancel.permission", Must, "A turn whose pending permission request the client answers cancelled after session/cancel ends with stopReason cancelled.", pagePromptTurn},
		Requirement{"agent.cancel.no-late-update", Should, "After a cancelled turn has ended the agent sends no more updates for it.", pagePromptTurn},

		// Plans.
		Requirement{"agent.plan.v1-fallback", Must, "A v1 agent sends plan_update and plan_removed only to a client that advertised the plan capability; to others it sends plan.", pagePlanOperations},
		Requirement{"agent.plan.v1-operations", Informational, "Whether a v1 agent uses plan_update with a client that advertised the plan capability.", pagePlanOperations},
		Requirement{"agent.plan.v2-id", Must, "Every v2 plan_update carries the plan's id.", pagePlanV2},
		Requirement{"agent.plan.v2-no-v1-plan", Must, "A v2 agent never sends the v1 plan update (sessionUpdate plan).", pagePlanV2},
		Requirement{"agent.plan.entries-complete", Should, "Each items plan update carries the complete list of entries, each with content, priority and status.", pagePlan},
	)
}
