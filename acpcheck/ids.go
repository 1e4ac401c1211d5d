package acpcheck

// An ID names a requirement. Its values are the constants below, one a
// requirement, so that a check naming a requirement that does not exist does
// not compile; String gives the stable dotted id reports, JUnit files and
// docs/acpcheck.md show.
type ID uint16

// The requirements, in the order their files define them: an agent
// (agent.*), a client (client.*), a remote endpoint (remote.*).
const (
	AgentStdioFraming           ID = iota + 1 // agent.stdio.framing
	AgentStdioUTF8                            // agent.stdio.utf8
	AgentStdioEOFExit                         // agent.stdio.eof-exit
	AgentInitAnswer                           // agent.init.answer
	AgentInitVersionEcho                      // agent.init.version-echo
	AgentInitVersionUnsupported               // agent.init.version-unsupported
	AgentInitInfo                             // agent.init.info
	AgentRPCIDInteger                         // agent.rpc.id-integer
	AgentRPCIDString                          // agent.rpc.id-string
	AgentRPCNotificationSilent                // agent.rpc.notification-silent
	AgentRPCMethodNotFound                    // agent.rpc.method-not-found
	AgentRPCParseError                        // agent.rpc.parse-error
	AgentRPCInvalidRequest                    // agent.rpc.invalid-request
	AgentRPCInvalidParams                     // agent.rpc.invalid-params
	AgentRPCUsableAfterError                  // agent.rpc.usable-after-error
	AgentRPCCustomMethod                      // agent.rpc.custom-method
	AgentSchemaValid                          // agent.schema.valid
	AgentSchemaDecodes                        // agent.schema.decodes
	AgentSchemaUnstable                       // agent.schema.unstable
	AgentSessionNew                           // agent.session.new
	AgentSessionUnknown                       // agent.session.unknown
	AgentSessionLoadReplay                    // agent.session.load-replay
	AgentSessionLoad                          // agent.session.load
	AgentSessionList                          // agent.session.list
	AgentSessionResume                        // agent.session.resume
	AgentSessionClose                         // agent.session.close
	AgentSessionDelete                        // agent.session.delete
	AgentSessionModes                         // agent.session.modes
	AgentSessionConfig                        // agent.session.config
	AgentSessionV2ResumeState                 // agent.session.v2-resume-state
	AgentSessionV2Required                    // agent.session.v2-required
	AgentPromptV1StopReason                   // agent.prompt.v1-stop-reason
	AgentPromptV1UpdatesInTurn                // agent.prompt.v1-updates-in-turn
	AgentPromptV2MessageID                    // agent.prompt.v2-message-id
	AgentPromptV2UserMessage                  // agent.prompt.v2-user-message
	AgentPromptV2RunningIdle                  // agent.prompt.v2-running-idle
	AgentPromptV2RequiresAction               // agent.prompt.v2-requires-action
	AgentCancelStopReason                     // agent.cancel.stop-reason
	AgentCancelPermission                     // agent.cancel.permission
	AgentCancelNoLateUpdate                   // agent.cancel.no-late-update
	AgentPlanV1Fallback                       // agent.plan.v1-fallback
	AgentPlanV1Operations                     // agent.plan.v1-operations
	AgentPlanV2ID                             // agent.plan.v2-id
	AgentPlanV2NoV1Plan                       // agent.plan.v2-no-v1-plan
	AgentPlanEntriesComplete                  // agent.plan.entries-complete

	ClientInitFirst             // client.init.first
	ClientStdioFraming          // client.stdio.framing
	ClientSchemaValid           // client.schema.valid
	ClientSchemaDecodes         // client.schema.decodes
	ClientSessionCWD            // client.session.cwd
	ClientPromptContent         // client.prompt.content
	ClientRPCIDInteger          // client.rpc.id-integer
	ClientRPCIDString           // client.rpc.id-string
	ClientRPCMethodNotFound     // client.rpc.method-not-found
	ClientRPCNotificationSilent // client.rpc.notification-silent
	ClientUpdatesUnknownV1      // client.updates.unknown-v1
	ClientUpdatesUnknownV2      // client.updates.unknown-v2
	ClientPermissionAnswer      // client.permission.answer
	ClientPermissionCancelled   // client.permission.cancelled
	ClientFSRead                // client.fs.read
	ClientFSWrite               // client.fs.write
	ClientFSReadBack            // client.fs.read-back
	ClientFSOutside             // client.fs.outside
	ClientTerminal              // client.terminal

	RemoteHTTPInitialize        // remote.http.initialize
	RemoteHTTPAccepted          // remote.http.accepted
	RemoteHTTPSSE               // remote.http.sse
	RemoteHTTPSSEFraming        // remote.http.sse-framing
	RemoteHTTPSessionStream     // remote.http.session-stream
	RemoteHTTPSSEEventIDs       // remote.http.sse-event-ids
	RemoteHTTPCookies           // remote.http.cookies
	RemoteHTTPMissingConnection // remote.http.missing-connection
	RemoteHTTPUnknownConnection // remote.http.unknown-connection
	RemoteHTTPNotJSON           // remote.http.not-json
	RemoteHTTPContentType       // remote.http.content-type
	RemoteHTTPNotAcceptable     // remote.http.not-acceptable
	RemoteHTTPMethod            // remote.http.method
	RemoteHTTPBatch             // remote.http.batch
	RemoteHTTPInitializeTwice   // remote.http.initialize-twice
	RemoteHTTPDelete            // remote.http.delete
	RemoteHTTPBodyLimit         // remote.http.body-limit
	RemoteWSUpgrade             // remote.ws.upgrade
	RemoteWSTextFrames          // remote.ws.text-frames
	RemoteWSBinaryIgnored       // remote.ws.binary-ignored
	RemoteWSSubprotocol         // remote.ws.subprotocol
	RemoteWSClose               // remote.ws.close
	RemoteLocalHost             // remote.local.host
	RemoteLocalOrigin           // remote.local.origin
	RemoteHTTPSlowReader        // remote.http.slow-reader
	RemoteWSSlowReader          // remote.ws.slow-reader
	RemoteShutdownSSE           // remote.shutdown.sse
	RemoteShutdownWS            // remote.shutdown.ws
	RemoteShutdownRefuse        // remote.shutdown.refuse
	RemoteResumeAdvertised      // remote.resume.advertised
	RemoteResumeReplay          // remote.resume.replay
	RemoteResumeUnknownCursor   // remote.resume.unknown-cursor
	RemoteResumeCursors         // remote.resume.cursors
	RemoteResumeState           // remote.resume.state
	RemoteResumeKeepAlive       // remote.resume.keepalive
	AgentSessionV2ReplayStart   // agent.session.v2-replay-start
	AgentSessionV2ReplayCursor  // agent.session.v2-replay-cursor
)

// idNames holds the dotted id of every ID.
var idNames = [...]string{
	AgentStdioFraming:           "agent.stdio.framing",
	AgentStdioUTF8:              "agent.stdio.utf8",
	AgentStdioEOFExit:           "agent.stdio.eof-exit",
	AgentInitAnswer:             "agent.init.answer",
	AgentInitVersionEcho:        "agent.init.version-echo",
	AgentInitVersionUnsupported: "agent.init.version-unsupported",
	AgentInitInfo:               "agent.init.info",
	AgentRPCIDInteger:           "agent.rpc.id-integer",
	AgentRPCIDString:            "agent.rpc.id-string",
	AgentRPCNotificationSilent:  "agent.rpc.notification-silent",
	AgentRPCMethodNotFound:      "agent.rpc.method-not-found",
	AgentRPCParseError:          "agent.rpc.parse-error",
	AgentRPCInvalidRequest:      "agent.rpc.invalid-request",
	AgentRPCInvalidParams:       "agent.rpc.invalid-params",
	AgentRPCUsableAfterError:    "agent.rpc.usable-after-error",
	AgentRPCCustomMethod:        "agent.rpc.custom-method",
	AgentSchemaValid:            "agent.schema.valid",
	AgentSchemaDecodes:          "agent.schema.decodes",
	AgentSchemaUnstable:         "agent.schema.unstable",
	AgentSessionNew:             "agent.session.new",
	AgentSessionUnknown:         "agent.session.unknown",
	AgentSessionLoadReplay:      "agent.session.load-replay",
	AgentSessionLoad:            "agent.session.load",
	AgentSessionList:            "agent.session.list",
	AgentSessionResume:          "agent.session.resume",
	AgentSessionClose:           "agent.session.close",
	AgentSessionDelete:          "agent.session.delete",
	AgentSessionModes:           "agent.session.modes",
	AgentSessionConfig:          "agent.session.config",
	AgentSessionV2ResumeState:   "agent.session.v2-resume-state",
	AgentSessionV2Required:      "agent.session.v2-required",
	AgentPromptV1StopReason:     "agent.prompt.v1-stop-reason",
	AgentPromptV1UpdatesInTurn:  "agent.prompt.v1-updates-in-turn",
	AgentPromptV2MessageID:      "agent.prompt.v2-message-id",
	AgentPromptV2UserMessage:    "agent.prompt.v2-user-message",
	AgentPromptV2RunningIdle:    "agent.prompt.v2-running-idle",
	AgentPromptV2RequiresAction: "agent.prompt.v2-requires-action",
	AgentCancelStopReason:       "agent.cancel.stop-reason",
	AgentCancelPermission:       "agent.cancel.permission",
	AgentCancelNoLateUpdate:     "agent.cancel.no-late-update",
	AgentPlanV1Fallback:         "agent.plan.v1-fallback",
	AgentPlanV1Operations:       "agent.plan.v1-operations",
	AgentPlanV2ID:               "agent.plan.v2-id",
	AgentPlanV2NoV1Plan:         "agent.plan.v2-no-v1-plan",
	AgentPlanEntriesComplete:    "agent.plan.entries-complete",
	ClientInitFirst:             "client.init.first",
	ClientStdioFraming:          "client.stdio.framing",
	ClientSchemaValid:           "client.schema.valid",
	ClientSchemaDecodes:         "client.schema.decodes",
	ClientSessionCWD:            "client.session.cwd",
	ClientPromptContent:         "client.prompt.content",
	ClientRPCIDInteger:          "client.rpc.id-integer",
	ClientRPCIDString:           "client.rpc.id-string",
	ClientRPCMethodNotFound:     "client.rpc.method-not-found",
	ClientRPCNotificationSilent: "client.rpc.notification-silent",
	ClientUpdatesUnknownV1:      "client.updates.unknown-v1",
	ClientUpdatesUnknownV2:      "client.updates.unknown-v2",
	ClientPermissionAnswer:      "client.permission.answer",
	ClientPermissionCancelled:   "client.permission.cancelled",
	ClientFSRead:                "client.fs.read",
	ClientFSWrite:               "client.fs.write",
	ClientFSReadBack:            "client.fs.read-back",
	ClientFSOutside:             "client.fs.outside",
	ClientTerminal:              "client.terminal",
	RemoteHTTPInitialize:        "remote.http.initialize",
	RemoteHTTPAccepted:          "remote.http.accepted",
	RemoteHTTPSSE:               "remote.http.sse",
	RemoteHTTPSSEFraming:        "remote.http.sse-framing",
	RemoteHTTPSessionStream:     "remote.http.session-stream",
	RemoteHTTPSSEEventIDs:       "remote.http.sse-event-ids",
	RemoteHTTPCookies:           "remote.http.cookies",
	RemoteHTTPMissingConnection: "remote.http.missing-connection",
	RemoteHTTPUnknownConnection: "remote.http.unknown-connection",
	RemoteHTTPNotJSON:           "remote.http.not-json",
	RemoteHTTPContentType:       "remote.http.content-type",
	RemoteHTTPNotAcceptable:     "remote.http.not-acceptable",
	RemoteHTTPMethod:            "remote.http.method",
	RemoteHTTPBatch:             "remote.http.batch",
	RemoteHTTPInitializeTwice:   "remote.http.initialize-twice",
	RemoteHTTPDelete:            "remote.http.delete",
	RemoteHTTPBodyLimit:         "remote.http.body-limit",
	RemoteWSUpgrade:             "remote.ws.upgrade",
	RemoteWSTextFrames:          "remote.ws.text-frames",
	RemoteWSBinaryIgnored:       "remote.ws.binary-ignored",
	RemoteWSSubprotocol:         "remote.ws.subprotocol",
	RemoteWSClose:               "remote.ws.close",
	RemoteLocalHost:             "remote.local.host",
	RemoteLocalOrigin:           "remote.local.origin",
	RemoteHTTPSlowReader:        "remote.http.slow-reader",
	RemoteWSSlowReader:          "remote.ws.slow-reader",
	RemoteShutdownSSE:           "remote.shutdown.sse",
	RemoteShutdownWS:            "remote.shutdown.ws",
	RemoteShutdownRefuse:        "remote.shutdown.refuse",
	RemoteResumeAdvertised:      "remote.resume.advertised",
	RemoteResumeReplay:          "remote.resume.replay",
	RemoteResumeUnknownCursor:   "remote.resume.unknown-cursor",
	RemoteResumeCursors:         "remote.resume.cursors",
	RemoteResumeState:           "remote.resume.state",
	RemoteResumeKeepAlive:       "remote.resume.keepalive",
	AgentSessionV2ReplayStart:   "agent.session.v2-replay-start",
	AgentSessionV2ReplayCursor:  "agent.session.v2-replay-cursor",
}
