package acpcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// startTimeout is how much longer than other answers the answer to
// initialize may take: the agent's process is starting (node takes seconds
// on a busy machine).
const startTimeout = 10 * time.Second

// agentConn is the kit's client side of one connection to the agent.
type agentConn struct {
	rep        *Report
	ctx        context.Context
	target     Target
	conn       Conn
	p          *peer
	opts       AgentOptions
	version    int // the version checked on this connection, 0 while unknown
	negotiated int
	val        *validator
	initResult json.RawMessage

	updates        []*msg   // session/update notifications, in order
	strays         []*msg   // responses to no request of ours
	schemaProblems []string // messages not valid under the schema
	decodeProblems []string
	unstable       []string // messages valid only under the unstable schema
	validated      int
	authRequired   bool // session/new answered that authentication is required

	// onRequest, when set, handles the agent's requests before the default
	// answers do; it returns false to leave a request to them.
	onRequest func(m *msg) bool
	// onNotification, when set, sees every notification.
	onNotification func(m *msg)
}

func newAgentConn(ctx context.Context, rep *Report, target Target, conn Conn, version int, opts AgentOptions) *agentConn {
	c := &agentConn{rep: rep, ctx: ctx, target: target, conn: conn, p: newPeer(conn, conn), opts: opts, version: version}
	if version != 0 {
		c.val = newValidator(version)
	}
	return c
}

func (c *agentConn) verdict(id ID, st Status, format string, args ...any) {
	c.rep.add(id, c.version, st, c.transcript(), format, args...)
}
func (c *agentConn) pass(id ID, format string, args ...any) { c.verdict(id, Pass, format, args...) }
func (c *agentConn) fail(id ID, format string, args ...any) { c.verdict(id, Fail, format, args...) }
func (c *agentConn) note(format string, args ...any)        { c.p.Note(format, args...) }

// transcript returns the connection's transcript, with the tail of the
// agent's stderr when it wrote any.
func (c *agentConn) transcript() []Line {
	t := c.p.Transcript()
	if s := strings.TrimSpace(c.conn.Stderr()); s != "" {
		if len(s) > 2000 {
			s = "…" + s[len(s)-2000:]
		}
		t = append(t, Line{Dir: "#", At: time.Since(c.p.start), Text: "stderr: " + s})
	}
	return t
}

// initialize sends initialize asking for version, with the client
// capabilities given (nil: none), and waits for its answer.
func (c *agentConn) initialize(version int, caps map[string]any) (*msg, bool) {
	if caps == nil {
		caps = map[string]any{}
	}
	params := map[string]any{"protocolVersion": version}
	info := map[string]any{"name": "acpcheck", "version": "1.0.0"}
	if version >= 2 {
		params["capabilities"] = caps
		params["info"] = info
	} else {
		params["clientCapabilities"] = caps
		params["clientInfo"] = info
	}
	// The answer is validated once its version is known: an agent may
	// answer with another version than the one asked.
	c.val = nil
	id, err := c.p.request("initialize", params)
	var res *msg
	if err == nil {
		res, err = c.await(id, startTimeout+c.opts.Timeout)
	}
	if res != nil && res.Result != nil {
		var v struct {
			ProtocolVersion int `json:"protocolVersion"`
		}
		_ = json.Unmarshal(res.Result, &v)
		if v.ProtocolVersion == 1 || v.ProtocolVersion == 2 {
			c.val = newValidator(v.ProtocolVersion)
			c.validate(res, "initialize", "Response")
		}
	}
	if err != nil {
		c.rep.add(AgentInitAnswer, version, Fail, c.transcript(), "initialize: %v%s", err, c.stderrHint())
		return nil, false
	}
	if res.Error != nil {
		if version < 999 && res.Error.Code == codeUnsupportedVersion {
			// The version negotiation of an agent that does not offer
			// this version, as the TypeScript SDK's agents answer.
			c.rep.add(AgentInitAnswer, version, NotApplicable, c.transcript(), "the agent does not offer version %d: initialize answered %d %q", version, res.Error.Code, res.Error.Message)
			return nil, false
		}
		if version < 999 {
			c.rep.add(AgentInitAnswer, version, Fail, c.transcript(), "initialize answered error %d %q", res.Error.Code, res.Error.Message)
			return nil, false
		}
	}
	return res, true
}

// codeUnsupportedVersion is the JSON-RPC error code of an initialize that
// asks for a protocol version the agent does not offer (the TypeScript
// SDK's, and acprouter's, -32022).
const codeUnsupportedVersion = -32022

// call sends a request and waits for its answer, handling what the agent
// sends meanwhile.
func (c *agentConn) call(method string, params any) (*msg, error) {
	id, err := c.p.request(method, params)
	if err != nil {
		return nil, err
	}
	return c.await(id, c.opts.Timeout)
}

// await waits for the response with the id (JSON text), handling what the
// agent sends meanwhile.
func (c *agentConn) await(id string, timeout time.Duration) (*msg, error) {
	var found *msg
	err := c.pump(timeout, func(m *msg) bool {
		if m.isResponse() && string(compactJSON(m.ID)) == id {
			found = m
			return true
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	return found, nil
}

// pump handles messages until stop returns true for one, or timeout.
func (c *agentConn) pump(timeout time.Duration, stop func(m *msg) bool) error {
	deadline := time.Now().Add(timeout)
	for {
		m, err := c.p.next(deadline, c.ctx.Done())
		if err != nil {
			return err
		}
		c.inspect(m)
		if m.isNotification() && c.onNotification != nil {
			c.onNotification(m)
		}
		if stop(m) {
			return nil
		}
		if m.isRequest() {
			c.answer(m)
		}
	}
}

// drain handles whatever arrives for d.
func (c *agentConn) drain(d time.Duration) {
	_ = c.pump(d, func(*msg) bool { return false })
}

// inspect validates a message and files it.
func (c *agentConn) inspect(m *msg) {
	switch {
	case m.isResponse():
		method, ok := c.p.methodOf(m.ID)
		if !ok {
			c.strays = append(c.strays, m)
			return
		}
		c.validate(m, method, "Response")
	case m.isRequest():
		c.validate(m, m.Method, "Request")
	default:
		if m.Method == "session/update" {
			c.updates = append(c.updates, m)
		}
		c.validate(m, m.Method, "Notification")
	}
}

func (c *agentConn) validate(m *msg, method, kind string) {
	if c.val == nil {
		return
	}
	r := c.val.check(m, method, kind)
	switch {
	case r.skipped:
		return
	case strings.HasPrefix(r.problem, "the generated types"):
		c.decodeProblems = append(c.decodeProblems, fmt.Sprintf("%s %s: %s", method, strings.ToLower(kind), r.problem))
	case r.problem != "":
		c.schemaProblems = append(c.schemaProblems, fmt.Sprintf("%s %s %s", method, strings.ToLower(kind), r.problem))
	case r.unstable:
		c.unstable = append(c.unstable, strings.TrimSpace(method+" "+describe(m)))
	}
	c.validated++
}

// describe names a session update's kind, for reports.
func describe(m *msg) string {
	if u := updateOf(m); u.Kind != "" {
		return u.Kind
	}
	return ""
}

// answer gives the default answer to a request of the agent: a
// permission request gets its first allow option (or its first option);
// anything else -32601, as the kit advertised no file system or terminal.
func (c *agentConn) answer(m *msg) {
	if c.onRequest != nil && c.onRequest(m) {
		return
	}
	if m.Method == "session/request_permission" {
		_ = c.p.respond(m.ID, map[string]any{"outcome": selectOption(m.Params)})
		return
	}
	_ = c.p.respondError(m.ID, -32601, "method not found: "+m.Method)
}

// selectOption picks the answer to a permission request: its first allow
// option, or its first option, or cancelled when it offers none.
func selectOption(params json.RawMessage) map[string]any {
	var p struct {
		Options []struct {
			OptionID string `json:"optionId"`
			Kind     string `json:"kind"`
		} `json:"options"`
	}
	_ = json.Unmarshal(params, &p)
	for _, o := range p.Options {
		if strings.HasPrefix(o.Kind, "allow") {
			return map[string]any{"outcome": "selected", "optionId": o.OptionID}
		}
	}
	if len(p.Options) > 0 {
		return map[string]any{"outcome": "selected", "optionId": p.Options[0].OptionID}
	}
	return map[string]any{"outcome": "cancelled"}
}

// An update is the parts of a session/update the checks read.
type update struct {
	SessionID string
	Kind      string          // sessionUpdate
	Body      json.RawMessage // the update object
}

func updateOf(m *msg) update {
	if m.Method != "session/update" {
		return update{}
	}
	var p struct {
		SessionID string          `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
	}
	_ = json.Unmarshal(m.Params, &p)
	var k struct {
		Kind string `json:"sessionUpdate"`
	}
	_ = json.Unmarshal(p.Update, &k)
	return update{SessionID: p.SessionID, Kind: k.Kind, Body: p.Update}
}

// updatesFor returns the updates of a session from index from on.
func (c *agentConn) updatesFor(sid string, from int) []update {
	var out []update
	for _, m := range c.updates[min(from, len(c.updates)):] {
		if u := updateOf(m); u.SessionID == sid {
			out = append(out, u)
		}
	}
	return out
}

// reopen opens another connection to the same target, for the same
// version, not yet initialized.
func (c *agentConn) reopen() (*agentConn, error) {
	conn, err := c.target.Open(c.ctx)
	if err != nil {
		return nil, err
	}
	return newAgentConn(c.ctx, c.rep, c.target, conn, c.version, c.opts), nil
}

// finishQuiet ends a connection without judging it.
func (c *agentConn) finishQuiet() {
	_ = c.conn.CloseInput()
	c.conn.Stop()
}

// stderrHint returns the last line the agent wrote to stderr, for the
// detail of a failed start.
func (c *agentConn) stderrHint() string {
	var kept []string
	for _, l := range strings.Split(c.conn.Stderr(), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			kept = append(kept, l)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	last := strings.Join(kept[max(0, len(kept)-3):], " | ")
	for _, l := range kept {
		if strings.Contains(strings.ToLower(l), "error") {
			last = l // the line that says what went wrong, as most runtimes print it
			break
		}
	}
	if len(last) > 300 {
		last = "…" + last[len(last)-300:]
	}
	return " (stderr: " + last + ")"
}
