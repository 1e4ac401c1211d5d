package check

import (
	"strings"

	"github.com/acpgen/acpgen/gen/ir"
)

// The session runtime files (templates/session*.go.tmpl) are written
// against the definitions below, by schema name. A package gets them when
// its schema has every one, stable, in the shape the files use; otherwise
// it is generated without them (older protocol revisions, a schema that
// reshapes a session update).
//
// A requirement is "Type.member" (a stable member), "Type.member!" (a
// required one), "Type.member~" (an optional one whose null means
// something: a Nullable in Go), "Type:tag" (a stable variant of a tagged
// union), "Type=value" (a value of an enum), "Type" (a stable definition)
// or "method/name" (a stable method). "Type.*" lists every member of
// Type: a patch that a new member would escape is refused rather than
// generated incomplete.
var sessionNeeds = map[string][]string{
	"v1": {
		"initialize", "session/new", "session/load", "session/resume", "session/prompt",
		"session/set_config_option", "session/update",
		"SessionNotification.sessionId!", "SessionNotification.update!",
		"SessionUpdate:plan", "SessionUpdate:tool_call", "SessionUpdate:tool_call_update",
		"SessionUpdate:config_option_update", "SessionUpdate:available_commands_update",
		"SessionUpdate:current_mode_update", "SessionUpdate:session_info_update", "SessionUpdate:usage_update",
		"Plan.entries!", "Plan._meta", "PlanEntry",
		"ToolCall.toolCallId!", "ToolCall.title!", "ToolCall.name", "ToolCall.kind", "ToolCall.status",
		"ToolCall.content", "ToolCall.locations", "ToolCall.rawInput", "ToolCall.rawOutput", "ToolCall._meta",
		"ToolCallUpdate.* toolCallId! kind status title name content locations rawInput rawOutput _meta",
		"ConfigOptionUpdate.configOptions!", "AvailableCommandsUpdate.availableCommands!",
		"CurrentModeUpdate.currentModeId!", "SessionInfoUpdate.title~", "SessionInfoUpdate.updatedAt~", "UsageUpdate",
		"NewSessionResponse.sessionId!", "NewSessionResponse.modes", "NewSessionResponse.configOptions",
		"LoadSessionRequest.sessionId!", "LoadSessionResponse.modes", "LoadSessionResponse.configOptions",
		"ResumeSessionRequest.sessionId!", "ResumeSessionResponse.modes", "ResumeSessionResponse.configOptions",
		"SessionModeState.currentModeId!", "SetSessionConfigOptionRequest.sessionId!",
		"SetSessionConfigOptionResponse.configOptions!", "InitializeRequest.clientCapabilities",
		"PromptRequest.sessionId!", "PromptRequest.prompt!",
	},
	"v2": {
		"initialize", "session/new", "session/resume", "session/prompt", "session/set_config_option", "session/update",
		"UpdateSessionNotification.sessionId!", "UpdateSessionNotification.update!",
		"SessionUpdate:plan_update", "SessionUpdate:tool_call_update", "SessionUpdate:tool_call_content_chunk",
		"SessionUpdate:config_option_update", "SessionUpdate:available_commands_update",
		"SessionUpdate:session_info_update", "SessionUpdate:usage_update", "SessionUpdate:state_update",
		"PlanUpdate.plan!", "PlanUpdateContent:items", "PlanUpdateContent.planId!",
		"PlanItems.planId!", "PlanItems.entries!", "PlanItems._meta", "PlanEntry",
		"ToolCallUpdate.* toolCallId! name~ title~ kind~ status~ content~ locations~ rawInput~ rawOutput~ capabilities~ _meta~",
		"ToolKind=other", "ToolCallStatus=pending",
		"ToolCallContentChunk.toolCallId!", "ToolCallContentChunk.content!",
		"ConfigOptionUpdate.configOptions!", "AvailableCommandsUpdate.availableCommands!",
		"SessionInfoUpdate.title~", "SessionInfoUpdate.updatedAt~", "UsageUpdate",
		"StateUpdate:idle", "StateUpdate:running", "StateUpdate:requires_action",
		"IdleStateUpdate.background", "RunningStateUpdate.background", "RequiresActionStateUpdate.background",
		"NewSessionResponse.sessionId!", "NewSessionResponse.configOptions", "NewSessionResponse.availableCommands",
		"ResumeSessionRequest.sessionId!", "ResumeSessionResponse.configOptions", "ResumeSessionResponse.availableCommands",
		"SetSessionConfigOptionRequest.sessionId!", "SetSessionConfigOptionResponse.configOptions!",
		"PromptRequest.sessionId!", "PromptRequest.prompt!",
	},
}

// sessionPlanOps are the variants of the plan operations that the session
// files handle behind one gate.
var sessionPlanOps = map[string][]string{
	"v1": {"SessionUpdate:plan_update", "SessionUpdate:plan_removed", "PlanUpdateContent:items",
		"PlanUpdateContent:markdown", "PlanUpdateContent:file", "ClientCapabilities.plan"},
	"v2": {"SessionUpdate:plan_removed", "PlanUpdateContent:markdown", "PlanUpdateContent:file"},
}

// sessions decides whether p gets the session files and, if so, the gate
// of their plan operations (nil when p has none, or not all of them
// behind one gate: those files then handle none).
func sessions(p *ir.Package) (bool, *ir.Gate) {
	needs, ok := sessionNeeds[p.Version]
	if !ok || !p.Conn {
		return false, nil
	}
	types := map[string]*ir.Type{}
	for _, t := range p.Types {
		types[t.Name] = t
	}
	methods := map[string]*ir.Method{}
	for _, m := range p.Methods {
		methods[m.Name] = m
	}
	for _, need := range needs {
		if g := sessionItem(types, methods, need); g == nil || g.Unstable {
			return false, nil
		}
	}
	var gate *ir.Gate
	for _, need := range sessionPlanOps[p.Version] {
		g := sessionItem(types, methods, need)
		if g == nil || gate != nil && g.Key() != gate.Key() {
			return true, nil
		}
		gate = g
	}
	return true, gate
}

// sessionItem returns the gate of one requirement (see sessionNeeds), or
// nil when p does not meet it.
func sessionItem(types map[string]*ir.Type, methods map[string]*ir.Method, need string) *ir.Gate {
	if m, ok := methods[need]; ok {
		return &m.Gate
	}
	if name, tag, ok := strings.Cut(need, ":"); ok {
		t := types[name]
		if t == nil || t.Union == nil {
			return nil
		}
		for _, v := range t.Union.Variants {
			if v.Tag == tag {
				if v.Unstable {
					return &v.Gate
				}
				return &t.Gate
			}
		}
		return nil
	}
	if name, value, ok := strings.Cut(need, "="); ok {
		t := types[name]
		if t == nil || t.Enum == nil {
			return nil
		}
		for _, v := range t.Enum.Values {
			if v.Name == value {
				return &t.Gate
			}
		}
		return nil
	}
	name, members, _ := strings.Cut(need, ".")
	t := types[name]
	if t == nil {
		return nil
	}
	if members == "" {
		return &t.Gate
	}
	if list, ok := strings.CutPrefix(members, "* "); ok {
		return sessionMembers(t, strings.Fields(list))
	}
	return sessionMember(t, members)
}

// sessionMembers checks that t has exactly the members listed.
func sessionMembers(t *ir.Type, members []string) *ir.Gate {
	if len(t.Fields) != len(members) {
		return nil
	}
	for _, m := range members {
		if g := sessionMember(t, m); g == nil || g.Unstable {
			return nil
		}
	}
	return &t.Gate
}

// sessionMember checks one member of t: "name", "name!" or "name~". The
// members of a union are those its variants share and, when it has one,
// those its unknown variant keeps.
func sessionMember(t *ir.Type, member string) *ir.Gate {
	name := strings.TrimRight(member, "!~")
	fields := t.Fields
	if t.Union != nil && t.Union.Fallback != nil {
		fields = append(fields[:len(fields):len(fields)], t.Union.Fallback.Fields...)
	}
	for _, f := range fields {
		if f.JSONName != name {
			continue
		}
		switch {
		case strings.HasSuffix(member, "!") && !f.Required,
			strings.HasSuffix(member, "~") && !f.NullMeans,
			!strings.HasSuffix(member, "~") && f.NullMeans:
			return nil
		}
		if f.Unstable {
			return &f.Gate
		}
		return &t.Gate
	}
	return nil
}
