package acpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// OverV1 lets a client written once, against acpv2, speak to a v1 agent
// too: the v2 client's connection leads to an adapter that turns its calls
// into v1 and the agent's v1 session updates and permission requests into
// v2. It is the other direction of OverV2.
//
// The turn is v2's: session/prompt is answered at once with a message id,
// the prompt's user_message and a state_update running follow, and the v1
// answer's stop reason becomes the state_update idle that ends the turn (a
// prompt that fails ends with the stop reason "_error"). Updates convert
// wherever both versions have them: message and thought chunks (given a
// message id per run of chunks when they have none), plan (as the
// plan_update of plan "main"), config options, session info and usage
// cross as they are; tool_call becomes tool_call_update, which creates the
// call in v2, and each available command is v2's "command". A v1 update
// that v2 does not have (current_mode_update, a vendor's) reaches the
// client as acpv2.SessionUpdateOther with its JSON; one whose shape does
// not fit v2 goes to Undeliverable. A permission request is about the
// tool call it names, titled as that call is.
//
// Make one, give its V1Client to the v1 connection to the agent (or to
// convert.Negotiate's Offer, or acplaunch.Start's), then call Connect
// with that connection and the agent's initialize result.
type OverV1 struct {
	client acpv2.Client
	remote atomic.Pointer[acpv1.ClientSideConnection]
	local  atomic.Pointer[acpv2.AgentSideConnection]
	init   *acpv1.InitializeResponse
	next   atomic.Int64 // the last message id given

	mu     sync.Mutex
	chunks map[acpv1.SessionID]chunkRun // each session's last chunk

	// Undeliverable, if not nil, is called with each session update of
	// the agent that cannot reach the v2 client, and why.
	Undeliverable func(n *acpv1.SessionNotification, err error)
}

// NewOverV1 returns the adapter of client.
func NewOverV1(client acpv2.Client) *OverV1 { return &OverV1{client: client} }

// V1Client returns the v1 client to serve the agent's connection with: it
// hands the agent's session updates and permission requests to the v2
// client, converted. It serves no file system or terminal method (v2 has
// none), and the v1 initialize it sends advertises none.
func (o *OverV1) V1Client() acpv1.Client { return v1Client{o} }

// Connect connects the v2 client to the agent at the other end of agent,
// a connection made with V1Client; initialized is the agent's initialize
// result when agent has been initialized, or nil. It returns the v2
// connection the client uses, which ends with agent: call its Initialize
// and go on as with a v2 agent. opts are the v2 connection's.
func (o *OverV1) Connect(agent *acpv1.ClientSideConnection, initialized *acpv1.InitializeResponse, opts ...acpv2.ConnOption) *acpv2.ClientSideConnection {
	o.remote.Store(agent)
	o.init = initialized
	toLocal, clientW := io.Pipe()
	clientR, fromLocal := io.Pipe()
	local := acpv2.NewAgentSideConnection(v1Agent{o}, fromLocal, toLocal)
	o.local.Store(local)
	conn := acpv2.NewClientSideConnection(o.client, clientW, clientR, opts...)
	go func() {
		// Either end ends the other.
		select {
		case <-agent.Done():
		case <-conn.Done():
		}
		conn.Close()
		agent.Close()
		local.Close()
	}()
	return conn
}

// v1Agent serves the v2 client's calls by calling the v1 agent.
type v1Agent struct{ o *OverV1 }

func (a v1Agent) r() *acpv1.ClientSideConnection { return a.o.remote.Load() }

func (a v1Agent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	res := a.o.init
	if res == nil {
		req := acpv1.NewInitializeRequest(1)
		info := convert.ImplementationToV1(p.Info)
		req.ClientInfo, req.Meta = &info, p.Meta
		var err error
		if res, err = a.r().Initialize(ctx, req); err != nil {
			return nil, errorToV2(err)
		}
	}
	info := acpv2.Implementation{Name: "unknown", Version: "unknown"}
	if res.AgentInfo != nil {
		info = convert.ImplementationToV2(*res.AgentInfo)
	}
	out := acpv2.NewInitializeResponse(2, info)
	out.Meta = res.Meta
	session := &acpv2.SessionCapabilities{}
	if c := res.AgentCapabilities; c != nil {
		if c.PromptCapabilities != nil {
			session.Prompt, _ = wire[acpv2.PromptCapabilities](c.PromptCapabilities)
		}
		if c.MCPCapabilities != nil {
			session.MCP, _ = wire[acpv2.MCPCapabilities](c.MCPCapabilities)
		}
	}
	out.Capabilities = &acpv2.AgentCapabilities{Session: session}
	return out, nil
}

func (a v1Agent) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	return a.r().Cancel(ctx, acpv1.NewCancelNotification(acpv1.SessionID(p.SessionID)))
}

func (a v1Agent) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	servers := []acpv1.MCPServer{}
	for _, m := range p.MCPServers {
		s, err := wire[acpv1.MCPServer](&m)
		if err != nil {
			return nil, acpv2.NewInvalidParamsError(map[string]string{"details": err.Error()})
		}
		servers = append(servers, *s)
	}
	req := acpv1.NewNewSessionRequest(string(p.Cwd), servers)
	req.Meta = p.Meta
	res, err := a.r().NewSession(ctx, req)
	if err != nil {
		return nil, errorToV2(err)
	}
	return wire[acpv2.NewSessionResponse](res, configToV2)
}

// Prompt answers at once with a new message id and runs the v1 turn in the
// background: the prompt echoed as user_message and running before it,
// idle with its stop reason after.
func (a v1Agent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	req, err := wire[acpv1.PromptRequest](p)
	if err != nil {
		return nil, acpv2.NewInvalidParamsError(map[string]string{"details": err.Error()})
	}
	id := acpv2.MessageID(fmt.Sprintf("msg_%d", a.o.next.Add(1)))
	local := a.o.local.Load()
	bg := context.WithoutCancel(ctx)
	echo := acpv2.SessionUpdate{Value: &acpv2.SessionUpdateUserMessage{UserMessage: acpv2.UserMessage{MessageID: id,
		Content: acpv2.Nullable[[]acpv2.ContentBlock]{Present: true, Value: p.Prompt}}}}
	if err := local.UpdateSession(bg, acpv2.NewUpdateSessionNotification(p.SessionID, echo)); err != nil {
		return nil, err
	}
	if err := a.state(bg, local, p.SessionID, `{"state":"running"}`); err != nil {
		return nil, err
	}
	go func() {
		stop := "_error"
		if res, err := a.r().Prompt(bg, req); err == nil {
			stop = string(res.StopReason)
		}
		_ = a.state(bg, local, p.SessionID, fmt.Sprintf(`{"state":"idle","stopReason":%q}`, stop))
	}()
	return acpv2.NewPromptResponse(id), nil
}

// state sends the client the state update whose JSON is state.
func (a v1Agent) state(ctx context.Context, local *acpv2.AgentSideConnection, id acpv2.SessionID, state string) error {
	var u acpv2.StateUpdate
	if err := u.UnmarshalJSON([]byte(state)); err != nil {
		return err
	}
	return local.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(id, acpv2.NewSessionUpdateStateUpdate(u)))
}

func (a v1Agent) ListSessions(ctx context.Context, p *acpv2.ListSessionsRequest) (*acpv2.ListSessionsResponse, error) {
	return forwardV1[acpv1.ListSessionsRequest, acpv1.ListSessionsResponse, acpv2.ListSessionsResponse](ctx, p, a.r().ListSessions)
}

func (a v1Agent) ResumeSession(ctx context.Context, p *acpv2.ResumeSessionRequest) (*acpv2.ResumeSessionResponse, error) {
	return forwardV1[acpv1.ResumeSessionRequest, acpv1.ResumeSessionResponse, acpv2.ResumeSessionResponse](ctx, p, a.r().ResumeSession)
}

func (a v1Agent) CloseSession(ctx context.Context, p *acpv2.CloseSessionRequest) (*acpv2.CloseSessionResponse, error) {
	return forwardV1[acpv1.CloseSessionRequest, acpv1.CloseSessionResponse, acpv2.CloseSessionResponse](ctx, p, a.r().CloseSession)
}

func (a v1Agent) SetSessionConfigOption(ctx context.Context, p *acpv2.SetSessionConfigOptionRequest) (*acpv2.SetSessionConfigOptionResponse, error) {
	return forwardV1[acpv1.SetSessionConfigOptionRequest, acpv1.SetSessionConfigOptionResponse, acpv2.SetSessionConfigOptionResponse](ctx, p, a.r().SetSessionConfigOption)
}

// forwardV1 calls the v1 agent with the v1 form of p and returns the v2
// form of its answer.
func forwardV1[P1, R1, R2 any, PP1 interface {
	*P1
	unmarshaler
}, PR2 interface {
	*R2
	unmarshaler
}](ctx context.Context, p marshaler, call func(context.Context, *P1) (*R1, error)) (*R2, error) {
	req, err := wire[P1, PP1](p)
	if err != nil {
		return nil, acpv2.NewInvalidParamsError(map[string]string{"details": err.Error()})
	}
	res, err := call(ctx, req)
	if err != nil {
		return nil, errorToV2(err)
	}
	m, ok := any(res).(marshaler)
	if !ok {
		return nil, acpv2.NewInternalError(nil)
	}
	return wire[R2, PR2](m, configToV2)
}

type marshaler interface{ MarshalJSON() ([]byte, error) }
type unmarshaler interface{ UnmarshalJSON([]byte) error }

// wire converts from to To through its JSON, as both versions write it,
// changed by fixes.
func wire[To any, PTo interface {
	*To
	unmarshaler
}](from marshaler, fixes ...func([]byte) []byte) (*To, error) {
	data, err := from.MarshalJSON()
	if err != nil {
		return nil, err
	}
	for _, fix := range fixes {
		data = fix(data)
	}
	out := PTo(new(To))
	if err := out.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("not representable in the other version: %w", err)
	}
	return (*To)(out), nil
}

// configToV2 gives the config options of data, an object with
// "configOptions", their v2 name: v1's "id" is v2's "configId". It returns
// data as it is when it has none.
func configToV2(data []byte) []byte {
	var obj map[string]json.RawMessage
	var options []map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil || obj["configOptions"] == nil || json.Unmarshal(obj["configOptions"], &options) != nil {
		return data
	}
	for _, o := range options {
		if id, ok := o["id"]; ok {
			o["configId"] = id
			delete(o, "id")
		}
	}
	list, err := json.Marshal(options)
	if err != nil {
		return data
	}
	obj["configOptions"] = list
	out, err := json.Marshal(obj)
	if err != nil {
		return data
	}
	return out
}

// errorToV2 keeps a v1 agent's JSON-RPC error as it is for the v2 client.
func errorToV2(err error) error {
	var e *acpv1.Error
	if errors.As(err, &e) {
		var out acpv2.Error
		if b, merr := json.Marshal(e); merr == nil && json.Unmarshal(b, &out) == nil {
			return &out
		}
	}
	return err
}

// v1Client serves the v1 agent's calls by calling the v2 client.
type v1Client struct{ o *OverV1 }

func (c v1Client) l() (*acpv2.AgentSideConnection, error) {
	if l := c.o.local.Load(); l != nil {
		return l, nil
	}
	return nil, acpv1.NewInternalError(map[string]string{"details": "the client is not connected yet"})
}

// SessionUpdate sends the client the v2 form of the agent's update.
func (c v1Client) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	l, err := c.l()
	if err != nil {
		return err
	}
	u, err := updateToV2(c.o.withMessageID(n.SessionID, n.Update))
	if err != nil {
		if c.o.Undeliverable != nil {
			c.o.Undeliverable(n, err)
		}
		return err
	}
	out := acpv2.NewUpdateSessionNotification(acpv2.SessionID(n.SessionID), *u)
	out.Meta = n.Meta
	return l.UpdateSession(ctx, out)
}

// chunkRun is the last chunk of a session: its kind and message id.
type chunkRun struct {
	kind string
	id   acpv1.MessageID
}

// withMessageID returns u, a chunk without a message id given one (v2
// requires it): the id of the chunk before when it is of the same kind,
// a new id otherwise. Any other update ends the run of chunks.
func (o *OverV1) withMessageID(session acpv1.SessionID, u acpv1.SessionUpdate) acpv1.SessionUpdate {
	var chunk *acpv1.ContentChunk
	switch v := u.Value.(type) {
	case *acpv1.SessionUpdateAgentMessageChunk:
		c := *v // a copy, given the id
		chunk, u = &c.ContentChunk, acpv1.SessionUpdate{Value: &c}
	case *acpv1.SessionUpdateAgentThoughtChunk:
		c := *v // a copy, given the id
		chunk, u = &c.ContentChunk, acpv1.SessionUpdate{Value: &c}
	case *acpv1.SessionUpdateUserMessageChunk:
		c := *v // a copy, given the id
		chunk, u = &c.ContentChunk, acpv1.SessionUpdate{Value: &c}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.chunks == nil {
		o.chunks = map[acpv1.SessionID]chunkRun{}
	}
	if chunk == nil {
		delete(o.chunks, session)
		return u
	}
	run := o.chunks[session]
	if chunk.MessageID != nil {
		run = chunkRun{u.Tag(), *chunk.MessageID}
	} else if run.kind != u.Tag() {
		run = chunkRun{u.Tag(), acpv1.MessageID(fmt.Sprintf("msg_%d", o.next.Add(1)))}
	}
	if chunk.MessageID == nil {
		chunk.MessageID = &run.id
	}
	o.chunks[session] = run
	return u
}

// updateToV2 converts a v1 session update: plan by convert's rules,
// tool_call as the tool_call_update that creates the call, any other by
// its JSON (an update v2 does not have is kept as SessionUpdateOther).
func updateToV2(u acpv1.SessionUpdate) (*acpv2.SessionUpdate, error) {
	switch v := u.Value.(type) {
	case *acpv1.SessionUpdatePlan:
		out, err := convert.SessionUpdateToV2(u)
		return &out, err
	case *acpv1.SessionUpdateToolCall:
		call, err := wire[acpv2.ToolCallUpdate](&v.ToolCall)
		if err != nil {
			return nil, err
		}
		out := acpv2.NewSessionUpdateToolCallUpdate(*call)
		return &out, nil
	case *acpv1.SessionUpdateAvailableCommandsUpdate:
		return commandsToV2(v)
	}
	return wire[acpv2.SessionUpdate](u, configToV2)
}

// commandsToV2 converts available commands: each is v2's "command".
func commandsToV2(v *acpv1.SessionUpdateAvailableCommandsUpdate) (*acpv2.SessionUpdate, error) {
	update := acpv2.AvailableCommandsUpdate{AvailableCommands: []acpv2.AvailableCommand{}, Meta: v.Meta}
	for _, c := range v.AvailableCommands {
		command, err := wire[acpv2.Command](&c)
		if err != nil {
			return nil, err
		}
		update.AvailableCommands = append(update.AvailableCommands, acpv2.AvailableCommand{Value: &acpv2.AvailableCommandData{Command: *command}})
	}
	return &acpv2.SessionUpdate{Value: &acpv2.SessionUpdateAvailableCommandsUpdate{AvailableCommandsUpdate: update}}, nil
}

// RequestPermission asks the v2 client, whose request is about the tool
// call the v1 request names, titled as it is.
func (c v1Client) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	call, err := wire[acpv2.ToolCallUpdate](&p.ToolCall)
	if err != nil {
		return nil, acpv1.NewInvalidParamsError(map[string]string{"details": err.Error()})
	}
	title := "Permission"
	if p.ToolCall.Title != nil && *p.ToolCall.Title != "" {
		title = *p.ToolCall.Title
	}
	req := &acpv2.RequestPermissionRequest{SessionID: acpv2.SessionID(p.SessionID), Title: title, Meta: p.Meta,
		Options: []acpv2.PermissionOption{}}
	subject := acpv2.NewRequestPermissionSubjectToolCall(*call)
	req.Subject = &subject
	for _, o := range p.Options {
		opt, err := wire[acpv2.PermissionOption](&o)
		if err != nil {
			return nil, acpv1.NewInvalidParamsError(map[string]string{"details": err.Error()})
		}
		req.Options = append(req.Options, *opt)
	}
	l, err := c.l()
	if err != nil {
		return nil, err
	}
	res, err := l.RequestPermission(ctx, req)
	if err != nil {
		return nil, err
	}
	return wire[acpv1.RequestPermissionResponse](res)
}
