package acpcheck

// The requirements a remote endpoint is checked against (acpcheck remote).
func init() {
	define(
		Requirement{RemoteHTTPInitialize, Must, "A POST of initialize without Acp-Connection-Id is answered 200 with the JSON result and an Acp-Connection-Id header.", pageRemote},
		Requirement{RemoteHTTPAccepted, Must, "A POST of any other message on the connection is answered 202 with an empty body.", pageRemote},
		Requirement{RemoteHTTPSSE, Must, "A GET with Accept text/event-stream and Acp-Connection-Id opens the connection's SSE stream (200, text/event-stream), which carries the answers to the connection's requests.", pageRemote},
		Requirement{RemoteHTTPSSEFraming, Must, "Each SSE event's data is exactly one JSON-RPC message.", pageRemote},
		Requirement{RemoteHTTPSessionStream, Should, "A GET with Acp-Session-Id of a session the connection created opens that session's stream.", pageRemote},
		Requirement{RemoteHTTPSSEEventIDs, Informational, "Whether the server gives SSE events ids, and whether they increase within the stream (informational: the RFD leaves event ids and Last-Event-ID resumption to future work).", pageRemote},
		Requirement{RemoteHTTPCookies, Informational, "Whether the server sets cookies on initialize (for load-balancer affinity, which clients must keep for the connection's life).", pageRemote},
		Requirement{RemoteHTTPMissingConnection, Must, "A POST of a message other than initialize without Acp-Connection-Id is answered 400.", pageRemote},
		Requirement{RemoteHTTPUnknownConnection, Must, "A request naming an Acp-Connection-Id the server does not know is answered 404.", pageRemote},
		Requirement{RemoteHTTPNotJSON, Must, "A POST whose body is not JSON is answered 400.", pageRemote},
		Requirement{RemoteHTTPContentType, Must, "A POST whose Content-Type is not application/json is answered 415.", pageRemote},
		Requirement{RemoteHTTPNotAcceptable, Must, "A GET that does not accept text/event-stream is answered 406.", pageRemote},
		Requirement{RemoteHTTPMethod, Must, "A method other than GET, POST and DELETE is answered 405.", pageRemote},
		Requirement{RemoteHTTPBatch, Should, "A POST of a JSON array (a batch) is answered 400 with a -32600 error.", pageRemote},
		Requirement{RemoteHTTPInitializeTwice, Should, "A POST of initialize on an existing connection is answered 400.", pageRemote},
		Requirement{RemoteHTTPDelete, Must, "DELETE with the Acp-Connection-Id ends the connection: later requests naming it are answered 404.", pageRemote},
		Requirement{RemoteHTTPBodyLimit, Should, "A POST body over the server's limit (here 17 MiB) is refused with 413 or 400, not read without bound.", pageRemote},
		Requirement{RemoteWSUpgrade, Must, "A GET with Upgrade: websocket is answered 101 with an Acp-Connection-Id, and initialize sent as a text frame is answered in a text frame.", pageRemote},
		Requirement{RemoteWSTextFrames, Must, "Every frame the server sends carries one JSON-RPC message in a text frame.", pageRemote},
		Requirement{RemoteWSBinaryIgnored, Should, "A binary frame is ignored: the connection goes on.", pageRemote},
		Requirement{RemoteWSSubprotocol, Should, "Offered a subprotocol the transport does not define, the server selects none (RFC 6455: a server selects one of the client's subprotocols or none; the RFD defines no subprotocol).", pageRemote},
		Requirement{RemoteWSClose, Should, "A close frame from the client (1000) is answered with a close frame.", pageRemote},
		Requirement{RemoteLocalHost, Should, "A loopback server refuses (403) a request whose Host is not a loopback name, against DNS rebinding.", pageRemote},
		Requirement{RemoteLocalOrigin, Should, "A loopback server refuses (403) a request whose Origin is a foreign site, for POST and for the WebSocket upgrade.", pageRemote},
		Requirement{RemoteHTTPSlowReader, Should, "While the kit reads none of one connection's SSE stream and makes the agent write many answers to it, the server goes on serving others: a new connection is initialized and its session/new answered on its stream within 5 s (the stalled stream may be kept or ended).", pageRemote},
		Requirement{RemoteWSSlowReader, Should, "While the kit reads none of one WebSocket and makes the agent write many answers to it, a new WebSocket is upgraded and its initialize answered within 5 s (the stalled one may be kept or closed).", pageRemote},
		Requirement{RemoteShutdownSSE, Should, "When the server shuts down, its open SSE streams end within 5 s (judged only with a shutdown hook, from go test).", pageRemote},
		Requirement{RemoteShutdownWS, Should, "When the server shuts down, its open WebSockets get a close frame, 1001 (going away) or 1000, within 5 s (judged only with a shutdown hook).", pageRemote},
		Requirement{RemoteShutdownRefuse, Should, "Once the server has shut down, a new initialize is refused with an error status or cannot connect (judged only with a shutdown hook).", pageRemote},
	)
}
