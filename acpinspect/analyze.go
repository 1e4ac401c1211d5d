package acpinspect

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// connState is what an Inspector knows of one connection.
type connState struct {
	id       int64
	started  time.Time
	messages int
	dialect  dialect

	seenClient bool
	requested  int  // the protocolVersion the client asked for
	planCap    bool // the client advertised the plan capability (v1)
	clientName string
	agentName  string

	pending      map[pendingKey]*pendingRequest
	sessions     map[string]*session
	sessionOrder []string
}

// pendingKey identifies a request waiting for its response: who sent it
// and the JSON text of its id.
type pendingKey struct {
	from Sender
	id   string
}

type pendingRequest struct {
	method  string
	index   int // its entry
	time    time.Time
	session string
	params  json.RawMessage
}

func newConnState(id int64, t time.Time) *connState {
	return &connState{id: id, started: t, dialect: v1{}, pending: map[pendingKey]*pendingRequest{}, sessions: map[string]*session{}}
}

// session returns the session of id, made when new; nil for "".
func (c *connState) session(id string) *session {
	if id == "" {
		return nil
	}
	s := c.sessions[id]
	if s == nil {
		s = &session{id: id, conn: c.id, state: c.dialect.newSession(id), toolIdx: map[string]*ToolView{}}
		c.sessions[id] = s
		c.sessionOrder = append(c.sessionOrder, id)
	}
	return s
}

// analyze decodes the message of entry i and judges it.
func (in *Inspector) analyze(c *connState, f Frame, i int) {
	e := in.entries.at(i)
	env, u, ok := in.scan.readMessage(f.Data)
	var params []byte // to decode alone, when the envelope is plain
	if in.scan.plain {
		params = env.Params
	}
	if !ok {
		e.Kind, e.Verdict = "invalid", "invalid"
		e.Problem = "not a JSON-RPC message: " + preview(f.Data)
		switch {
		case f.Truncated:
			e.Problem = "cut short in the log: " + preview(f.Data)
		case utf8.Valid(f.Data) && json.Valid(f.Data):
			// JSON, but not a JSON-RPC message (a member of the wrong type).
			in.addFinding(i, side(f.From)+".schema.decodes", "JSON that is not a JSON-RPC message")
		default:
			in.addFinding(i, side(f.From)+".stdio.framing", "a line that is not one JSON value in UTF-8")
		}
		return
	}
	if env.ID != nil && string(env.ID) != "null" {
		e.ID = string(env.ID)
	}
	e.Session = u.SessionID
	if e.Session == "" && env.Result != nil {
		e.Session = env.session
	}
	first := f.From == FromClient && !c.seenClient
	if f.From == FromClient {
		c.seenClient = true
	}
	method := ""
	switch {
	case env.HasMethod && e.ID != "":
		e.Kind, e.Method, method = "request", env.Method, env.Method
		in.count(method).count++
		in.request(c, f, i, env)
	case env.HasMethod:
		e.Kind, e.Method, method = "notification", env.Method, env.Method
		in.count(method).count++
	default:
		e.Kind = "response"
		if env.Error != nil {
			e.Kind = "error"
			e.Error = fmt.Sprintf("%d %s", env.Error.Code, env.Error.Message)
		}
		method = in.response(c, f, i, env)
	}
	if first && method != "initialize" {
		in.addFinding(i, "client.init.first", "the client's first message is "+orKind(method, e.Kind))
	}
	in.decode(c, f, i, method, params)
	if e.Kind == "response" && method == "initialize" {
		in.initialized(c, i, env)
	}
	in.judge(c, f, i, env, &u, method)
}

// decode decodes the message with the connection's dialect: its params
// alone when they are given (the envelope is plain, its reading done),
// and the whole message when they are not or do not decode.
func (in *Inspector) decode(c *connState, f Frame, i int, method string, params []byte) {
	e := in.entries.at(i)
	if f.Truncated {
		e.Verdict = "unknown"
		e.Problem = "only part of this message was logged: not decoded"
		return
	}
	d, ok := decoded{}, false
	if params != nil {
		d, ok = c.dialect.decodeParams(params, method, e.Kind == "request")
	}
	if !ok {
		d = c.dialect.decode(f.Data, method)
	}
	if d.err != nil {
		e.Verdict, e.Problem, e.Path = "invalid", d.err.Error(), d.path
		in.addFinding(i, side(f.From)+".schema.decodes", fmt.Sprintf("%s (code %d)", d.err, d.code))
		e.Verdict = "invalid"
		return
	}
	e.Type = d.goType
	if strings.HasPrefix(method, "_") {
		e.Type = "extension: " + e.Type
	}
	if e.Unknown = in.walker.find(d.payload); len(e.Unknown) > 0 {
		e.Verdict = "unknown"
	}
	if e.Kind == "notification" && method == "session/update" && f.From == FromAgent {
		if s := c.session(e.Session); s != nil {
			s.state.apply(d.payload) // hands the payload over: nothing reads it after
		}
	}
}

// request tracks a request until its response.
func (in *Inspector) request(c *connState, f Frame, i int, env envelope) {
	e := in.entries.at(i)
	c.pending[pendingKey{f.From, e.ID}] = &pendingRequest{method: e.Method, index: i, time: f.Time, session: e.Session, params: env.Params}
	s := c.session(e.Session)
	switch e.Method {
	case "initialize":
		var p struct {
			ProtocolVersion    int             `json:"protocolVersion"`
			ClientCapabilities json.RawMessage `json:"clientCapabilities"`
			ClientInfo         *struct{ Name, Version string }
		}
		if json.Unmarshal(env.Params, &p) == nil {
			c.requested = p.ProtocolVersion
			c.dialect = dialectFor(p.ProtocolVersion)
			var caps struct {
				Plan json.RawMessage `json:"plan"`
			}
			c.planCap = json.Unmarshal(p.ClientCapabilities, &caps) == nil && caps.Plan != nil && string(caps.Plan) != "null"
			if p.ClientInfo != nil {
				c.clientName = strings.TrimSpace(p.ClientInfo.Name + " " + p.ClientInfo.Version)
			}
		}
	case "session/prompt":
		if s != nil {
			s.turnOpen, s.turnEnded, s.cancelled = true, false, false
			var p struct {
				Prompt []json.RawMessage `json:"prompt"`
			}
			// A v2 agent reports the prompt itself, as user_message.
			if c.dialect.version() == 1 && json.Unmarshal(env.Params, &p) == nil {
				for _, b := range p.Prompt {
					s.say("user", "prompt "+e.ID, contentText(b), e.Seq)
				}
			}
		}
	case "session/load":
		if s != nil {
			s.loading, s.turnEnded = true, false
		}
	case "session/request_permission":
		if s != nil {
			s.perms = append(s.perms, permissionOf(env.Params, e.Seq, e.ID))
			s.split = true
		}
	}
}

// dialectFor returns the dialect of a protocol version.
func dialectFor(version int) dialect {
	if version >= 2 {
		return v2{}
	}
	return v1{}
}

// initialized reads the negotiated version from initialize's result.
func (in *Inspector) initialized(c *connState, i int, env envelope) {
	var r struct {
		ProtocolVersion int `json:"protocolVersion"`
		AgentInfo       *struct{ Name, Version string }
		Info            *struct{ Name, Version string }
	}
	if json.Unmarshal(env.Result, &r) != nil {
		return
	}
	if info := r.AgentInfo; info != nil {
		c.agentName = strings.TrimSpace(info.Name + " " + info.Version)
	} else if info := r.Info; info != nil {
		c.agentName = strings.TrimSpace(info.Name + " " + info.Version)
	}
	if r.ProtocolVersion > 0 && r.ProtocolVersion != c.dialect.version() {
		c.dialect = dialectFor(r.ProtocolVersion)
		for _, s := range c.sessions {
			s.state = c.dialect.newSession(s.id)
		}
	}
	if c.requested > 0 && r.ProtocolVersion > c.requested {
		in.addFinding(i, "agent.init.version-echo", fmt.Sprintf(
			"the client asked for version %d and the agent answered %d: an agent that supports %d must answer %d, one that does not answers the latest it supports, which can be higher only if it supports no version up to %d",
			c.requested, r.ProtocolVersion, c.requested, c.requested, c.requested))
	}
}

// resultSession reads result.sessionId.
func resultSession(result json.RawMessage) string {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(result, &p)
	return p.SessionID
}

func preview(b []byte) string {
	const n = 80
	if len(b) > n {
		return fmt.Sprintf("%q…", b[:n])
	}
	return fmt.Sprintf("%q", b)
}

func orKind(method, kind string) string {
	if method == "" {
		return "a " + kind
	}
	return method
}
