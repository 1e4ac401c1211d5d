package acpcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// AgentOptions tunes CheckAgent.
type AgentOptions struct {
	// Versions are the protocol versions to check the agent in; nil means
	// 1 and 2. A version the agent does not take is reported, not checked.
	Versions []int
	// NoPrompt skips every check that sends session/prompt. Set it for an
	// agent whose prompts would reach a language model.
	NoPrompt bool
	// Prompt is the text blocks of the prompts the kit sends; nil means
	// "/plan check; report" and "plan", which make acpgen's example agent
	// send a plan.
	Prompt []string
	// Timeout bounds each wait for an answer; 0 means 3 s.
	Timeout time.Duration
	// Cwd is the working directory given to session/new; "" means the
	// system's temporary directory.
	Cwd string
}

func (o *AgentOptions) fill() {
	if o.Versions == nil {
		o.Versions = []int{1, 2}
	}
	if o.Prompt == nil {
		o.Prompt = []string{"/plan check; report", "plan"}
	}
	if o.Timeout == 0 {
		o.Timeout = 3 * time.Second
	}
	if o.Cwd == "" {
		o.Cwd = os.TempDir()
	}
}

// CheckAgent plays a client against the agent in each protocol version it
// takes and returns the verdicts. It never returns nil; a target that
// cannot be reached fails agent.init.answer.
func CheckAgent(ctx context.Context, target Target, opts AgentOptions) *Report {
	opts.fill()
	rep := &Report{Mode: "agent", Target: target.String(), Started: time.Now()}
	defer func() {
		rep.Duration = time.Since(rep.Started)
		rep.sortVerdicts()
	}()
	supported := map[int]bool{}
	for _, v := range opts.Versions {
		if ctx.Err() != nil {
			break
		}
		c := dialAgent(ctx, rep, target, v, opts)
		if c == nil {
			continue
		}
		if c.negotiated == v {
			supported[v] = true
			c.checkVersion()
		}
		c.finish()
	}
	checkUnsupported(ctx, rep, target, opts, supported)
	return rep
}

// dialAgent opens a connection and initializes it asking for version.
// It returns nil, with verdicts, when the agent did not answer.
func dialAgent(ctx context.Context, rep *Report, target Target, version int, opts AgentOptions) *agentConn {
	conn, err := target.Open(ctx)
	if err != nil {
		rep.add(AgentInitAnswer, version, Fail, nil, "%v", err)
		return nil
	}
	c := newAgentConn(ctx, rep, target, conn, version, opts)
	res, ok := c.initialize(version, nil)
	if !ok {
		c.version = 0 // a connection that never began is not judged further
		c.finish()
		return nil
	}
	var got struct {
		ProtocolVersion *int            `json:"protocolVersion"`
		AgentInfo       json.RawMessage `json:"agentInfo"`
		Info            json.RawMessage `json:"info"`
	}
	if json.Unmarshal(res.Result, &got) != nil || got.ProtocolVersion == nil {
		c.fail(AgentInitAnswer, "the initialize result has no integer protocolVersion")
		c.version = 0
		c.finish()
		return nil
	}
	c.pass(AgentInitAnswer, "protocolVersion %d", *got.ProtocolVersion)
	c.negotiated = *got.ProtocolVersion
	if c.negotiated == version {
		c.pass(AgentInitVersionEcho, "asked %d, got %d", version, c.negotiated)
		if got.AgentInfo != nil || got.Info != nil {
			c.pass(AgentInitInfo, "the agent names itself")
		} else {
			c.fail(AgentInitInfo, "the initialize result names no agent")
		}
		c.initResult = res.Result
		return c
	}
	if c.negotiated > version {
		// The spec's negotiation: an agent that does not offer the version
		// asked answers with the latest it supports.
		c.note("asked %d, the agent chose %d: version %d is not checked", version, c.negotiated, version)
		c.rep.add(AgentInitVersionEcho, version, NotApplicable, nil, "the agent does not offer version %d (it answered %d, the latest it supports)", version, c.negotiated)
	} else {
		c.note("asked %d, the agent chose %d: version %d is not checked", version, c.negotiated, version)
		c.rep.add(AgentInitVersionEcho, version, NotApplicable, nil, "the agent does not speak version %d (it answered %d)", version, c.negotiated)
	}
	c.version = 0 // nothing more is judged on this connection
	return c
}

// checkUnsupported asks for a version no agent speaks and expects the
// latest version the agent took.
func checkUnsupported(ctx context.Context, rep *Report, target Target, opts AgentOptions, supported map[int]bool) {
	if len(supported) == 0 {
		rep.add(AgentInitVersionUnsupported, 0, NotExercised, nil, "the agent took none of the versions asked")
		return
	}
	latest := 0
	for v := range supported {
		latest = max(latest, v)
	}
	const asked = 999
	conn, err := target.Open(ctx)
	if err != nil {
		rep.add(AgentInitVersionUnsupported, 0, Fail, nil, "%v", err)
		return
	}
	c := newAgentConn(ctx, rep, target, conn, 0, opts)
	defer c.finish()
	res, ok := c.initialize(asked, nil)
	if !ok {
		return
	}
	var got struct {
		ProtocolVersion *int `json:"protocolVersion"`
	}
	switch {
	case res.Error != nil:
		c.fail(AgentInitVersionUnsupported, "asked %d: answered error %d %q instead of its latest version %d", asked, res.Error.Code, res.Error.Message, latest)
	case json.Unmarshal(res.Result, &got) != nil || got.ProtocolVersion == nil:
		c.fail(AgentInitVersionUnsupported, "asked %d: the result has no integer protocolVersion", asked)
	case *got.ProtocolVersion != 1 && *got.ProtocolVersion != 2:
		c.fail(AgentInitVersionUnsupported, "asked %d: answered %d, which is no protocol version", asked, *got.ProtocolVersion)
	case *got.ProtocolVersion < latest:
		c.fail(AgentInitVersionUnsupported, "asked %d: answered %d, but the agent took %d", asked, *got.ProtocolVersion, latest)
	default:
		c.pass(AgentInitVersionUnsupported, "asked %d, answered %d", asked, *got.ProtocolVersion)
	}
}

// checkVersion runs every check of a negotiated version on the connection.
func (c *agentConn) checkVersion() {
	c.checkRPC()
	sid := c.checkSessions()
	if sid == "" {
		reason := "no session could be created"
		if c.authRequired {
			reason = "the agent requires authentication before session/new"
		}
		for _, id := range append(sessionRequirements(c.version), promptRequirements(c.version)...) {
			c.verdict(id, NotExercised, "%s", reason)
		}
		return
	}
	c.checkCapabilities(sid)
	if c.opts.NoPrompt {
		for _, id := range promptRequirements(c.version) {
			if id == AgentSessionLoadReplay {
				c.verdict(id, NotExercised, "no prompt turn to replay (no-prompt mode)")
				continue
			}
			c.verdict(id, NotApplicable, "prompts were not sent (no-prompt mode)")
		}
		return
	}
	if c.version == 2 {
		c.checkPromptV2()
	} else {
		c.checkPromptV1()
		c.checkPlanOperationsV1()
	}
}

// promptRequirements lists the requirements judged through prompt turns.
func promptRequirements(version int) []ID {
	ids := []ID{AgentCancelStopReason, AgentCancelPermission, AgentCancelNoLateUpdate, AgentPlanEntriesComplete}
	if version == 2 {
		return append(ids, AgentPromptV2MessageID, AgentPromptV2UserMessage, AgentPromptV2RunningIdle,
			AgentPromptV2RequiresAction, AgentPlanV2ID, AgentPlanV2NoV1Plan, AgentSessionV2ReplayStart, AgentSessionV2ReplayCursor)
	}
	return append(ids, AgentSessionLoadReplay, AgentPromptV1StopReason, AgentPromptV1UpdatesInTurn, AgentPlanV1Fallback, AgentPlanV1Operations)
}

// finish judges what the whole connection showed (framing, schema), closes
// the agent's input and, for a process, checks that it exits in time.
func (c *agentConn) finish() {
	defer c.conn.Stop()
	c.drain(50 * time.Millisecond)
	framing, badUTF8 := c.p.hygiene()
	if c.version != 0 {
		c.judgeList(AgentStdioFraming, framing, "every line was one JSON-RPC message")
		c.judgeList(AgentStdioUTF8, badUTF8, "every line was UTF-8")
		c.judgeList(AgentSchemaValid, c.schemaProblems, fmt.Sprintf("%d messages valid", c.validated))
		c.judgeList(AgentSchemaDecodes, c.decodeProblems, "every message decoded")
		if len(c.unstable) > 0 {
			c.verdict(AgentSchemaUnstable, Pass, "valid only under the unstable schema: %s", strings.Join(uniq(c.unstable), ", "))
		} else {
			c.verdict(AgentSchemaUnstable, Pass, "every message valid under the stable schema")
		}
	}
	_ = c.conn.CloseInput()
	start := time.Now()
	exited, ok := c.conn.Exited(time.Second)
	if !ok || c.version == 0 {
		return
	}
	if exited {
		c.pass(AgentStdioEOFExit, "exited %.0f ms after stdin closed", float64(time.Since(start).Milliseconds()))
	} else if exited, _ := c.conn.Exited(3 * time.Second); exited {
		c.fail(AgentStdioEOFExit, "exited only %.0f ms after stdin closed", float64(time.Since(start).Milliseconds()))
	} else {
		c.fail(AgentStdioEOFExit, "still running 4 s after stdin closed")
	}
}

// judgeList passes a requirement when problems is empty, and fails it
// with the first few otherwise.
func (c *agentConn) judgeList(id ID, problems []string, ok string) {
	if len(problems) == 0 {
		c.pass(id, "%s", ok)
		return
	}
	shown := problems
	if len(shown) > 3 {
		shown = shown[:3]
	}
	c.fail(id, "%d problems: %s", len(problems), strings.Join(shown, "; "))
}

func uniq(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}
