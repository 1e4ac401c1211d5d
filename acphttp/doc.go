// Package acphttp carries ACP over the network: the Streamable HTTP and
// WebSocket profiles of ACP's remote transport, server and client, as the
// TypeScript SDK 2.4.0 speaks them on the wire.
//
// A Server is the http.Handler of an ACP endpoint (conventionally /acp)
// that serves both profiles on one path. For each client's connection it
// calls a ConnectFunc, which starts an agent's connection of a generated
// package over the writer and reader it is given:
//
//	acp := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
//		return acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
//			return &agent{conn: c}
//		}, out, in), nil
//	}, nil)
//	http.Handle("/acp", acp)
//
// A ConnectFunc runs before the server delivers the client's initialize,
// so it must not wait for it. To serve both protocol versions, it starts
// an acprouter.Router with Start, which returns at once:
//
//	acp := acphttp.NewServer(func(_ *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
//		return router.Start(out, in), nil
//	}, nil)
//
// The server routes each message of the agent to the stream the
// TypeScript SDK routes it to, holds each connection to its Limits, and
// closes every connection on Shutdown.
//
// A server on localhost is safe from the web pages open in the user's
// browser by default: it refuses with 403 a request that arrived on a
// loopback address with a Host that is not a loopback name (DNS
// rebinding) and a request whose Origin is a web page other than a
// loopback one of its own port. Options.AllowedHosts and
// Options.OriginPatterns name the hosts and pages to accept besides, and
// Options.DisableHostCheck and Options.DisableOriginCheck turn each check
// off. A server that other machines can reach needs authentication as
// well: its ConnectFunc checks the request's credential and refuses with
// a StatusError.
//
// Dial connects to an endpoint as a client, over Streamable HTTP or
// WebSocket as the URL's scheme says, and returns a Transport, the reader
// and writer of a generated client connection:
//
//	t, err := acphttp.Dial(ctx, "http://127.0.0.1:8080/acp", nil)
//	…
//	conn := acpv1.NewClientSideConnection(client, t, t)
//
// Options.Resumable and ClientOptions.Reconnect make streams survive a
// drop, after the draft RFD "Durable & Resumable HTTP/WS Transport": the
// server numbers each stream's messages with cursors and replays them
// after a client's cursor, and the client reconnects, resumes, and takes
// its sessions back on a new connection when the server cannot resume.
//
// The package is schema-independent: it reads no more of a message than
// the members it routes by (id, method, params.sessionId and
// result.sessionId), so it serves every protocol version's connections.
//
// The manual's page [The network] shows a server and its clients whole,
// with shutdown, HTTP/2, the limits, reconnecting and affinity behind a
// load balancer.
//
// [The network]: https://github.com/acpgen/acpgen/blob/main/docs/network.md
package acphttp
