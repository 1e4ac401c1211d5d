package acpcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
)

// ClientOptions tunes CheckClient.
type ClientOptions struct {
	// Timeout bounds each wait for an answer of the client and, after the
	// turn, for its next message; 0 means 3 s.
	Timeout time.Duration
	// PermissionTimeout bounds the wait for the answer to a permission
	// request, which a person may give; 0 means 30 s.
	PermissionTimeout time.Duration
}

// clientRun is the kit playing a scripted agent against a client.
type clientRun struct {
	ctx  context.Context
	rep  *Report
	opts ClientOptions
	c    *agentConn // the message pump and validation, reused from the agent side

	version   int
	caps      map[string]json.RawMessage
	cwd       string // of the client's first session/new
	sessions  int
	prompts   int
	cancelled map[string]bool
	unknown   bool // the unknown updates were sent
}

// CheckClient is the agent a client under test launches: it reads the
// client's messages from r and writes its own to w (the agent's stdin and
// stdout), plays a scripted agent through the client's first prompt turn,
// and returns the verdicts once the client closes the connection or goes
// quiet. It never writes anything but protocol messages to w.
func CheckClient(ctx context.Context, w io.Writer, r io.Reader, opts ClientOptions) *Report {
	if opts.Timeout == 0 {
		opts.Timeout = 3 * time.Second
	}
	if opts.PermissionTimeout == 0 {
		opts.PermissionTimeout = 30 * time.Second
	}
	rep := &Report{Mode: "client", Target: "the client on stdin", Started: time.Now()}
	run := &clientRun{ctx: ctx, rep: rep, opts: opts, cancelled: map[string]bool{}}
	conn := &pipeConn{r: r, w: w}
	run.c = newAgentConn(ctx, rep, nil, conn, 0, AgentOptions{Timeout: opts.Timeout})
	run.c.onRequest = run.handle
	run.serve()
	rep.Duration = time.Since(rep.Started)
	rep.sortVerdicts()
	return rep
}

// serve answers the client until it closes the connection or is quiet.
func (r *clientRun) serve() {
	first, err := r.c.p.next(time.Now().Add(10*r.opts.Timeout), r.ctx.Done())
	if err != nil {
		r.verdict(ClientInitFirst, Fail, "no message: %v", err)
		return
	}
	if first.Method != "initialize" || !first.isRequest() {
		r.verdict(ClientInitFirst, Fail, "the first message is %s, not an initialize request", clip(first.Raw))
	} else {
		r.verdict(ClientInitFirst, Pass, "initialize first")
	}
	r.c.inspect(first)
	if first.isRequest() {
		r.c.answer(first)
	}
	for r.ctx.Err() == nil {
		idle := r.opts.Timeout
		if r.prompts == 0 {
			idle = 10 * r.opts.Timeout
		}
		if err := r.c.pump(idle, func(*msg) bool { return false }); err != nil {
			break
		}
	}
	r.finish()
}

func (r *clientRun) verdict(id ID, st Status, format string, args ...any) {
	r.rep.add(id, r.version, st, r.c.transcript(), format, args...)
}

// handle answers the client's requests; it is the pump's onRequest.
func (r *clientRun) handle(m *msg) bool {
	switch m.Method {
	case "initialize":
		r.initialize(m)
	case "session/new":
		r.newSession(m)
	case "session/prompt":
		r.prompt(m)
	default:
		_ = r.c.p.respondError(m.ID, -32601, "method not found: "+m.Method)
	}
	return true
}

func (r *clientRun) initialize(m *msg) {
	var p struct {
		ProtocolVersion    int                        `json:"protocolVersion"`
		ClientCapabilities map[string]json.RawMessage `json:"clientCapabilities"`
		Capabilities       map[string]json.RawMessage `json:"capabilities"`
	}
	_ = json.Unmarshal(m.Params, &p)
	r.version = 1
	r.caps = p.ClientCapabilities
	if p.ProtocolVersion >= 2 {
		r.version, r.caps = 2, p.Capabilities
	}
	r.c.version, r.c.val = r.version, newValidator(r.version)
	r.c.validate(m, "initialize", "Request")
	info := map[string]any{"name": "acpcheck", "version": "1.0.0"}
	if r.version == 2 {
		_ = r.c.p.respond(m.ID, map[string]any{"protocolVersion": 2, "info": info, "capabilities": map[string]any{}, "authMethods": []any{}})
		return
	}
	_ = r.c.p.respond(m.ID, map[string]any{"protocolVersion": 1, "agentInfo": info, "agentCapabilities": map[string]any{}, "authMethods": []any{}})
}

func (r *clientRun) newSession(m *msg) {
	var p struct {
		Cwd string `json:"cwd"`
	}
	_ = json.Unmarshal(m.Params, &p)
	if filepath.IsAbs(p.Cwd) || strings.HasPrefix(p.Cwd, "/") {
		r.verdict(ClientSessionCWD, Pass, "cwd %s", p.Cwd)
	} else {
		r.verdict(ClientSessionCWD, Fail, "cwd %q is not absolute", p.Cwd)
	}
	r.sessions++
	if r.cwd == "" {
		r.cwd = p.Cwd
	}
	_ = r.c.p.respond(m.ID, map[string]any{"sessionId": fmt.Sprintf("acpcheck_%d", r.sessions)})
}

// finish judges what the whole connection showed.
func (r *clientRun) finish() {
	c := r.c
	framing, badUTF8 := c.p.hygiene()
	c.judgeList(ClientStdioFraming, append(framing, badUTF8...), "every line one JSON-RPC message")
	c.judgeList(ClientSchemaValid, c.schemaProblems, fmt.Sprintf("%d messages valid", c.validated))
	c.judgeList(ClientSchemaDecodes, c.decodeProblems, "every message decoded")
	if len(c.strays) > 0 {
		c.fail(ClientRPCNotificationSilent, "%d responses to no request, first %s", len(c.strays), clip(c.strays[0].Raw))
	} else if r.unknown {
		c.pass(ClientRPCNotificationSilent, "no answer to any notification")
	}
	if r.prompts == 0 {
		for _, id := range []ID{ClientPromptContent, ClientRPCIDInteger, ClientRPCIDString, ClientRPCMethodNotFound,
			ClientUpdatesUnknownV1, ClientUpdatesUnknownV2, ClientPermissionAnswer} {
			r.verdict(id, NotExercised, "the client sent no prompt")
		}
	}
	if len(r.rep.Find(ClientPermissionCancelled)) == 0 {
		r.verdict(ClientPermissionCancelled, NotExercised, "the client did not cancel a turn while a permission request was pending")
	}
	if len(r.rep.Find(ClientFSRead)) == 0 {
		r.verdict(ClientFSRead, NotApplicable, "fs.readTextFile not advertised")
	}
	if len(r.rep.Find(ClientFSWrite)) == 0 {
		r.verdict(ClientFSWrite, NotApplicable, "fs.writeTextFile not advertised")
	}
	if len(r.rep.Find(ClientFSReadBack)) == 0 {
		r.verdict(ClientFSReadBack, NotApplicable, "fs.writeTextFile and fs.readTextFile not both advertised")
	}
	if len(r.rep.Find(ClientTerminal)) == 0 {
		r.verdict(ClientTerminal, NotApplicable, "terminal not advertised")
	}
	if len(r.rep.Find(ClientSessionCWD)) == 0 {
		r.verdict(ClientSessionCWD, NotExercised, "the client opened no session")
	}
}

// pipeConn is the Conn of the kit's own stdin and stdout.
type pipeConn struct {
	r io.Reader
	w io.Writer
}

func (p *pipeConn) Read(b []byte) (int, error)        { return p.r.Read(b) }
func (p *pipeConn) Write(b []byte) (int, error)       { return p.w.Write(b) }
func (p *pipeConn) CloseInput() error                 { return nil }
func (p *pipeConn) Exited(time.Duration) (bool, bool) { return false, false }
func (p *pipeConn) Stop()                             {}
func (p *pipeConn) Stderr() string                    { return "" }

// allowedBlocks are the content types every agent takes.
var allowedBlocks = []string{"text", "resource_link"}
