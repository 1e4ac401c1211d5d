//go:build unstable_mcp_over_acp || unstable

package acpconductor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/acpgen/acpgen/acpmcp"
)

// mcpBridge bridges the MCP servers with "acp" transport that the client
// or a proxy declares for an agent that does not advertise them: the
// session requests reach the agent with each such server as an "http"
// server at a loopback URL (package acpmcp's Bridge), and each MCP
// request the agent makes there goes up the chain as the "mcp/message"
// request the agent would have sent, to the component before it, which
// serves it or forwards it toward the component that declared the server.
// An agent that advertises "acp" servers gets every message unchanged.
//
// Its fields are guarded by the chain's mutex.
type mcpBridge struct {
	c      *chain
	caller *acpmcp.Caller
	bridge *acpmcp.Bridge
	self   *peer  // the bridge as the origin of its requests
	takes  bool   // the agent advertised "acp" MCP servers
	via    string // the transport the agent is offered a bridged server on: "http", "stdio" or "" (none it takes)
	initID int64  // the id of the agent's initialize, 0 before it
}

// bridgesMCP tells whether the conductor bridges "acp" MCP servers.
const bridgesMCP = true

func newMCPBridge(c *chain) *mcpBridge {
	b := &mcpBridge{c: c, self: &peer{name: "MCP bridge", index: -1, sent: map[string]target{}}}
	b.caller = acpmcp.NewCaller(b.request, nil)
	b.bridge = acpmcp.NewBridge(b.caller, nil)
	return b
}

// close closes the bridge's listener and its connections, cancelling the
// requests they forward.
func (b *mcpBridge) close() { b.bridge.Close() }

// initialized reads the agent's answer to initialize: in v1
// agentCapabilities.mcpCapabilities.acp true, in v2
// capabilities.session.mcp.acp an object, say it takes "acp" servers;
// otherwise a bridged server is offered on "http" where the agent
// advertises it (v1 mcpCapabilities.http true, v2 session.mcp.http an
// object), else on "stdio", which every v1 agent takes and a v2 agent
// advertises (session.mcp.stdio).
func (b *mcpBridge) initialized(result []byte) {
	var r struct {
		ProtocolVersion   json.RawMessage `json:"protocolVersion"`
		AgentCapabilities struct {
			MCPCapabilities struct {
				ACP  bool `json:"acp"`
				HTTP bool `json:"http"`
			} `json:"mcpCapabilities"`
		} `json:"agentCapabilities"`
		Capabilities struct {
			Session struct {
				MCP struct {
					ACP   json.RawMessage `json:"acp"`
					HTTP  json.RawMessage `json:"http"`
					Stdio json.RawMessage `json:"stdio"`
				} `json:"mcp"`
			} `json:"session"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(result, &r) // a member of another type reads as absent
	v2 := r.Capabilities.Session.MCP
	if version, err := strconv.Atoi(string(r.ProtocolVersion)); err == nil && version >= 2 {
		b.takes = isObject(v2.ACP)
		switch {
		case isObject(v2.HTTP):
			b.via = "http"
		case isObject(v2.Stdio):
			b.via = "stdio"
		}
		return
	}
	v1 := r.AgentCapabilities.MCPCapabilities
	b.takes, b.via = v1.ACP, "stdio"
	if v1.HTTP {
		b.via = "http"
	}
}

// isObject reports whether raw is a JSON object.
func isObject(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// adapt returns the params of a session request for the agent with each
// "acp" entry of mcpServers replaced by an "http" entry the bridge serves
// (its name and _meta kept, the other entries' bytes too), and whether it
// changed them.
func (b *mcpBridge) adapt(method string, params []byte) ([]byte, bool) {
	switch method {
	case "session/new", "session/load", "session/resume", "session/fork":
	default:
		return params, false
	}
	if b.takes || params == nil {
		return params, false
	}
	var list span
	if members(params, func(name string, s span) {
		if name == "mcpServers" {
			list = s
		}
	}) != nil || !list.ok() {
		return params, false
	}
	raw := params[list.start:list.end]
	items, err := elements(raw)
	if err != nil {
		return params, false
	}
	out := []byte{'['}
	changed := false
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		entry := raw[it.start:it.end]
		if http, ok := b.declare(entry); ok {
			entry, changed = http, true
		}
		out = append(out, entry...)
	}
	if !changed {
		return params, false
	}
	return splice(params, []span{list}, [][]byte{append(out, ']')}), true
}

// declare returns the entry that serves entry, when it is an "acp" one
// and the agent takes a transport the bridge serves: "http", or "stdio"
// (see stdioEntry).
func (b *mcpBridge) declare(entry []byte) ([]byte, bool) {
	var typ, name, id, meta []byte
	if members(entry, func(k string, s span) {
		switch v := entry[s.start:s.end]; k {
		case "type":
			typ = v
		case "name":
			name = v
		case "serverId":
			id = v
		case "_meta":
			meta = v
		}
	}) != nil || string(typ) != `"acp"` || name == nil || id == nil {
		return nil, false
	}
	serverID, err1 := unquote(id)
	text, err2 := unquote(name)
	if err1 != nil || err2 != nil {
		return nil, false
	}
	command := b.c.opts.MCPStdioCommand
	switch {
	case b.via == "":
		fmt.Fprintf(b.c.opts.Stderr, "acpconductor: MCP server %s: the agent advertises neither acp, http nor stdio MCP servers: passed on as it is\n", name)
		return nil, false
	case b.via == "stdio" && len(command) == 0:
		fmt.Fprintf(b.c.opts.Stderr, "acpconductor: MCP server %s: the agent takes stdio MCP servers only, and no command serves the bridge on stdio (Options.MCPStdioCommand): passed on as it is\n", name)
		return nil, false
	}
	d, err := b.bridge.Declare(serverID, text)
	if err != nil {
		fmt.Fprintf(b.c.opts.Stderr, "acpconductor: bridging MCP server %s for the agent: %v: passed on as it is\n", name, err)
		return nil, false
	}
	if b.via == "stdio" {
		return stdioEntry(command, name, meta, d), true
	}
	out := append([]byte(`{"type":"http","name":`), name...)
	out = append(out, `,"url":`...)
	out = strconv.AppendQuote(out, d.URL)
	out = append(out, `,"headers":[{"name":"Authorization","value":`...)
	out = strconv.AppendQuote(out, d.Authorization)
	out = append(out, "}]"...)
	if meta != nil {
		out = append(append(out, `,"_meta":`...), meta...)
	}
	return append(out, '}'), true
}

// note hands an "mcp/message" notification on its way to an agent that
// does not take "acp" servers to the request of the bridge it belongs to,
// and tells whether it did.
func (b *mcpBridge) note(params []byte) bool {
	if b.takes {
		return false
	}
	var n envelope
	if json.Unmarshal(params, &n) != nil {
		return false
	}
	b.caller.HandleNotification(acpmcp.Message{ServerID: n.ServerID, RequestID: n.RequestID, Method: n.Method, Params: n.Params, Meta: n.Meta})
	return true
}

// envelope is the params of "mcp/message".
type envelope struct {
	ServerID  string          `json:"serverId"`
	RequestID string          `json:"requestId"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params,omitempty"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

var mcpMethod = []byte(`"` + acpmcp.Method + `"`)

// request sends m up the chain from the agent's place, as "mcp/message",
// and waits for its answer; when ctx ends first it cancels the request.
func (b *mcpBridge) request(ctx context.Context, m acpmcp.Message) (acpmcp.Outcome, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(envelope{m.ServerID, m.RequestID, m.Method, m.Params, m.Meta}); err != nil {
		return acpmcp.Outcome{}, &acpmcp.Error{Code: acpmcp.CodeInvalidParams, Message: "invalid MCP params"}
	}
	params := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	c := b.c
	reply := make(chan *message, 1)
	c.mu.Lock()
	if c.closing.Load() {
		c.mu.Unlock()
		return acpmcp.Outcome{}, &acpmcp.Error{Code: acpmcp.CodeServerUnavailable, Message: "the chain has ended"}
	}
	to := len(c.peers) - 2 // the component before the agent, or the client
	dst := c.peers[to]
	dst.nextID++
	n := dst.nextID
	dst.pending[n] = origin{from: b.self, reply: reply}
	id := strconv.AppendInt(nil, n, 10)
	if to > 0 {
		dst.out.put(wrap(id, mcpMethod, params))
	} else {
		dst.out.put(build(id, mcpMethod, params))
	}
	c.mu.Unlock()
	select {
	case r := <-reply:
		return outcomeOf(r)
	case <-ctx.Done():
		c.mu.Lock()
		if _, ok := dst.pending[n]; ok {
			delete(dst.pending, n)
			dst.out.put(build(nil, []byte(`"$/cancel_request"`), append(append([]byte(`{"requestId":`), id...), '}')))
		}
		c.mu.Unlock()
		return acpmcp.Outcome{}, ctx.Err()
	}
}

// outcomeOf reads the answer to an "mcp/message" request.
func outcomeOf(m *message) (acpmcp.Outcome, error) {
	if m.result.ok() {
		return acpmcp.ParseOutcome(m.get(m.result))
	}
	var e struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if json.Unmarshal(m.getOr(m.errv), &e) != nil {
		return acpmcp.Outcome{}, &acpmcp.Error{Code: acpmcp.CodeBackendFailed, Message: "invalid error response"}
	}
	return acpmcp.Outcome{}, &acpmcp.Error{Code: e.Code, Message: e.Message, Data: e.Data}
}

// offer returns the agent's initialize result with "acp" MCP servers
// advertised where it advertises its MCP capabilities (v1
// agentCapabilities.mcpCapabilities, v2 capabilities.session.mcp), since
// the bridge serves them: the proxies and the client may declare them.
// An agent that takes them, or advertises no MCP capabilities, keeps its
// result.
func (b *mcpBridge) offer(result []byte) ([]byte, bool) {
	if b.takes || result == nil {
		return result, false
	}
	changed := false
	for _, o := range []struct {
		path  []string
		value string
	}{
		{[]string{"agentCapabilities", "mcpCapabilities"}, "true"},
		{[]string{"capabilities", "session", "mcp"}, "{}"},
	} {
		s, ok := objectAt(result, o.path)
		if !ok {
			continue
		}
		obj := setMember(result[s.start:s.end], "acp", o.value)
		result, changed = splice(result, []span{s}, [][]byte{obj}), true
	}
	return result, changed
}

// objectAt finds the object at path in the JSON object raw.
func objectAt(raw []byte, path []string) (span, bool) {
	s := span{0, len(raw)}
	for _, name := range path {
		var next span
		if members(raw[s.start:s.end], func(k string, v span) {
			if k == name {
				next = v
			}
		}) != nil || !next.ok() {
			return span{}, false
		}
		s = span{s.start + next.start, s.start + next.end}
	}
	return s, raw[s.start] == '{'
}

// setMember returns the JSON object obj with the member name set to
// value, added first when absent.
func setMember(obj []byte, name, value string) []byte {
	var at span
	n := 0
	members(obj, func(k string, v span) {
		n++
		if k == name {
			at = v
		}
	})
	switch {
	case at.ok():
		return splice(obj, []span{at}, [][]byte{[]byte(value)})
	case n == 0:
		return []byte(`{"` + name + `":` + value + `}`)
	}
	return splice(obj, []span{{1, 1}}, [][]byte{[]byte(`"` + name + `":` + value + `,`)})
}
