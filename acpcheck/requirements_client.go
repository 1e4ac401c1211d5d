package acpcheck

// The requirements a client is checked against (acpcheck client).
func init() {
	define(
		Requirement{ClientInitFirst, Must, "The client's first message is an initialize request.", pageInit},
		Requirement{ClientStdioFraming, Must, "Every line the client writes to the agent's stdin is exactly one JSON-RPC message, in UTF-8.", pageTransports},
		Requirement{ClientSchemaValid, Must, "Every message the client sends is valid under the schema of the version negotiated.", pageSchemaV1},
		Requirement{ClientSchemaDecodes, Must, "Every message the client sends decodes into the generated types of the version negotiated.", pageSchemaV2},
		Requirement{ClientSessionCWD, Must, "session/new names an absolute working directory.", pageSessionSetup},
		Requirement{ClientPromptContent, Must, "A prompt holds only content the agent's prompt capabilities allow (the kit advertises none: text and resource links).", pagePromptTurn},
		Requirement{ClientRPCIDInteger, Must, "A response of the client carries the integer id of the agent's request, unchanged.", pageJSONRPC},
		Requirement{ClientRPCIDString, Must, "A response of the client carries the string id of the agent's request, unchanged.", pageJSONRPC},
		Requirement{ClientRPCMethodNotFound, Must, "A request for a method the client does not implement is answered with error -32601.", pageJSONRPC},
		Requirement{ClientRPCNotificationSilent, Must, "The client sends no response to a notification, known or unknown.", pageJSONRPC},
		Requirement{ClientUpdatesUnknownV1, Should, "A v1 client keeps the connection going after session updates of unknown and custom (_-prefixed) kinds and unknown members.", pageExtensibility},
		Requirement{ClientUpdatesUnknownV2, Must, "A v2 client keeps the connection going after session updates of unknown and custom (_-prefixed) kinds and unknown members.", pageExtensibility},
		Requirement{ClientPermissionAnswer, Must, "The client answers a permission request with one of the options offered, or cancelled.", pagePromptTurn},
		Requirement{ClientPermissionCancelled, Must, "A client that cancels a turn answers the turn's pending permission request with the cancelled outcome.", pagePromptTurn},
		Requirement{ClientFSRead, PerCapability, "A client that advertises fs.readTextFile answers fs/read_text_file (with the text or an error).", pageFileSystem},
		Requirement{ClientFSWrite, PerCapability, "A client that advertises fs.writeTextFile writes a new file in the session's cwd on fs/write_text_file (the kit writes one, acpcheck-RANDOM.txt); one that does not is sent none.", pageFileSystem},
		Requirement{ClientFSReadBack, PerCapability, "A client that advertises fs.writeTextFile and fs.readTextFile answers fs/read_text_file of the file just written with the content written.", pageFileSystem},
		Requirement{ClientTerminal, PerCapability, "A client that advertises terminal answers terminal/create with a terminalId, then terminal/wait_for_exit and terminal/release of it.", pageTerminals},
	)
}
