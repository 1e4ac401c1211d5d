//go:build ignore

package acp

import (
	"encoding/json"
	"sync"
)

// SessionState is what a client knows of one session from the updates the
// agent sent: its plans, tool calls, config options, available commands,
// title, usage, and its state and background work. Feed it every session
// update of the session with Apply (a SessionRouter does); it is safe for
// concurrent use, and what it hands out are copies that cannot change it.
type SessionState struct {
	mu            sync.Mutex
	id            SessionID
	plans         orderedMap[string, *PlanState]
	toolCalls     orderedMap[ToolCallID, *ToolCallState]
	configOptions []SessionConfigOption
	commands      []AvailableCommand
	title         *string
	updatedAt     *string
	usage         *UsageUpdate
	state         *StateUpdate
	background    []BackgroundWork
}

// ToolCallState is a tool call as the tool_call_update patches left it.
type ToolCallState struct {
	// ToolCallID is the tool call's id.
	ToolCallID ToolCallID
	// Name is the name of the tool, nil when the call has none.
	Name *string
	// Title is the call's title, nil when it has none.
	Title *string
	// Kind is ToolKindOther until an update sets it, and again after one
	// sets it to null.
	Kind ToolKind
	// Status is ToolCallStatusPending until an update sets it, and again
	// after one sets it to null.
	Status ToolCallStatus
	// Content is what the call produced, nil when it has none.
	Content []ToolCallContent
	// Locations are the files the call affects, nil when it has none.
	Locations []ToolCallLocation
	// RawInput is the tool's raw input, nil when the call has none.
	RawInput json.RawMessage
	// RawOutput is the tool's raw output, nil when the call has none.
	RawOutput json.RawMessage
	// Capabilities is nil when the call advertises none.
	Capabilities *ToolCallCapabilities
	// Meta is the metadata, patched by top-level key.
	Meta json.RawMessage
}

// SessionSnapshot is a copy of a SessionState at one time; changing it
// changes nothing else.
type SessionSnapshot struct {
	// SessionID is the session's id.
	SessionID SessionID
	// Plans are the session's plans, in the order their ids were first seen.
	Plans []PlanState
	// ToolCalls are the session's tool calls, in the order their ids were
	// first seen.
	ToolCalls []ToolCallState
	// ConfigOptions is the last list of config options, nil until one came.
	ConfigOptions []SessionConfigOption
	// AvailableCommands is the last list of commands, nil until one came.
	AvailableCommands []AvailableCommand
	// Title is the session's title, nil until a session info update set it
	// (or after one cleared it).
	Title *string
	// UpdatedAt is the session's update time, nil until a session info
	// update set it (or after one cleared it).
	UpdatedAt *string
	// Usage is the last usage update, nil until one came.
	Usage *UsageUpdate
	// State is the last state update, nil until one came.
	State *StateUpdate
	// Background is the background work of the last state update: nil
	// while it is not reported (no state update yet, one without the list,
	// or a state this package does not know), empty when none runs.
	Background []BackgroundWork
}

// NewSessionState returns the empty state of session id.
func NewSessionState(id SessionID) *SessionState { return &SessionState{id: id} }

// ID returns the id of the session.
func (s *SessionState) ID() SessionID { return s.id }

// Apply records one session update and says what it changed:
//
//   - "plan_update" replaces the content of its plan, whatever its type (a
//     content type this package does not know, or whose build tag is off,
//     is kept raw); with unstable_plan_operations, "plan_removed" removes
//     its plan (an unknown id is no error);
//   - "tool_call_update" creates or patches the tool call of its id, as the
//     schema says: an absent member leaves the call's as it was, null
//     clears it (kind back to other, status to pending), a value replaces
//     it, a list replaces the whole list ([] clears it), and _meta patches
//     the stored metadata by top-level key; a new id starts from the
//     protocol defaults;
//   - "tool_call_content_chunk" appends its content to its tool call;
//   - "config_option_update", "available_commands_update" and
//     "usage_update" replace what they carry;
//   - "session_info_update" sets, clears (null) or leaves each of the
//     title and the update time;
//   - "state_update" replaces the state, and the background work with its
//     list (not reported when it has none or the state is unknown), as
//     the TypeScript SDK's ActiveSession does.
//
// Other updates change nothing and give a zero SessionChange.
func (s *SessionState) Apply(u SessionUpdate) SessionChange { return s.apply(u, false) }

// ApplyOwned is Apply for an update the caller hands over, as a decoder
// that made it for the state alone does: the state keeps the parts of u it
// needs instead of copies of them, so the caller must not use or change u,
// or anything it holds, again.
func (s *SessionState) ApplyOwned(u SessionUpdate) SessionChange { return s.apply(u, true) }

// apply applies u, keeping its parts when owned, copies of them when not.
func (s *SessionState) apply(u SessionUpdate, owned bool) SessionChange {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch v := u.Value.(type) {
	case *SessionUpdatePlanUpdate:
		p := planFromContent(v.Plan)
		s.plans.put(p.ID, &p)
		return SessionChange{Plans: []string{p.ID}}
	case *SessionUpdateToolCallUpdate:
		c, ok := s.toolCalls.get(v.ToolCallID)
		if !ok {
			c = &ToolCallState{ToolCallID: v.ToolCallID, Kind: ToolKindOther, Status: ToolCallStatusPending}
		}
		patchToolCall(c, *keepOrCopy(owned, &v.ToolCallUpdate))
		s.toolCalls.put(c.ToolCallID, c)
		return SessionChange{ToolCalls: []ToolCallID{c.ToolCallID}}
	case *SessionUpdateToolCallContentChunk:
		c, ok := s.toolCalls.get(v.ToolCallID)
		if !ok {
			c = &ToolCallState{ToolCallID: v.ToolCallID, Kind: ToolKindOther, Status: ToolCallStatusPending}
		}
		c.Content = append(c.Content[:len(c.Content):len(c.Content)], *keepOrCopy(owned, &v.Content))
		s.toolCalls.put(c.ToolCallID, c)
		return SessionChange{ToolCalls: []ToolCallID{c.ToolCallID}}
	case *SessionUpdateConfigOptionUpdate:
		s.configOptions = *keepOrCopy(owned, &v.ConfigOptions)
		return SessionChange{ConfigOptions: true}
	case *SessionUpdateAvailableCommandsUpdate:
		s.commands = *keepOrCopy(owned, &v.AvailableCommands)
		return SessionChange{Commands: true}
	case *SessionUpdateSessionInfoUpdate:
		s.title = patchNullable(s.title, v.Title)
		s.updatedAt = patchNullable(s.updatedAt, v.UpdatedAt)
		return SessionChange{Info: true}
	case *SessionUpdateUsageUpdate:
		usage := *keepOrCopy(owned, &v.UsageUpdate)
		s.usage = &usage
		return SessionChange{Usage: true}
	case *SessionUpdateStateUpdate:
		state := *keepOrCopy(owned, &v.StateUpdate)
		s.state = &state
		s.background = backgroundOf(state)
		return SessionChange{State: true}
	}
	return s.applyPlanOperations(u.Value)
}

// backgroundOf returns the background work a state update reports, nil
// when it does not.
func backgroundOf(u StateUpdate) []BackgroundWork {
	switch v := u.Value.(type) {
	case *StateUpdateIdle:
		return v.Background
	case *StateUpdateRunning:
		return v.Background
	case *StateUpdateRequiresAction:
		return v.Background
	}
	return nil
}

// patchToolCall applies the patch u to c.
func patchToolCall(c *ToolCallState, u ToolCallUpdate) {
	c.Name = patchNullable(c.Name, u.Name)
	c.Title = patchNullable(c.Title, u.Title)
	if u.Kind.Present {
		c.Kind = ToolKindOther
		if !u.Kind.Null {
			c.Kind = u.Kind.Value
		}
	}
	if u.Status.Present {
		c.Status = ToolCallStatusPending
		if !u.Status.Null {
			c.Status = u.Status.Value
		}
	}
	c.Content = patchList(c.Content, u.Content)
	c.Locations = patchList(c.Locations, u.Locations)
	if u.RawInput.Present {
		c.RawInput = u.RawInput.Value
	}
	if u.RawOutput.Present {
		c.RawOutput = u.RawOutput.Value
	}
	c.Capabilities = patchNullable(c.Capabilities, u.Capabilities)
	switch {
	case !u.Meta.Present:
	case u.Meta.Null:
		c.Meta = nil
	default:
		c.Meta = patchMeta(c.Meta, u.Meta.Value)
	}
}

// patchNullable applies a nullable member: absent keeps old, null clears
// it, a value replaces it.
func patchNullable[T any](old *T, n Nullable[T]) *T {
	switch {
	case !n.Present:
		return old
	case n.Null:
		return nil
	}
	v := n.Value
	return &v
}

// patchList applies a nullable list: absent keeps old, null and [] clear
// it, a list replaces it.
func patchList[T any](old []T, n Nullable[[]T]) []T {
	switch {
	case !n.Present:
		return old
	case n.Null || len(n.Value) == 0:
		return nil
	}
	return n.Value
}

// SetConfigOptions replaces the config options with the whole list of a
// session/set_config_option result (or of a session/new or resume
// result), as a config_option_update does.
func (s *SessionState) SetConfigOptions(options []SessionConfigOption) SessionChange {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.configOptions = *deepCopy(&options)
	return SessionChange{ConfigOptions: true}
}

// opened records the commands and the config options of a session/new or
// resume result.
func (s *SessionState) opened(commands []AvailableCommand, options []SessionConfigOption) {
	if commands != nil {
		s.mu.Lock()
		s.commands = *deepCopy(&commands)
		s.mu.Unlock()
	}
	if options != nil {
		s.SetConfigOptions(options)
	}
}

// Snapshot returns a copy of the whole state.
func (s *SessionState) Snapshot() SessionSnapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return SessionSnapshot{
		SessionID:         s.id,
		Plans:             planList(&s.plans),
		ToolCalls:         s.toolCallList(),
		ConfigOptions:     *deepCopy(&s.configOptions),
		AvailableCommands: *deepCopy(&s.commands),
		Title:             *deepCopy(&s.title),
		UpdatedAt:         *deepCopy(&s.updatedAt),
		Usage:             *deepCopy(&s.usage),
		State:             *deepCopy(&s.state),
		Background:        *deepCopy(&s.background),
	}
}

// ToolCall returns a copy of the tool call id, and whether the session has
// it.
func (s *SessionState) ToolCall(id ToolCallID) (ToolCallState, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var c ToolCallState
	kept, ok := s.toolCalls.get(id)
	if ok {
		c = *kept
	}
	return copyToolCall(c), ok
}

// ToolCallTitleStatus returns the title and status of the tool call id,
// and whether the session has it, without copying the rest of the call:
// title is "" when the call has none.
func (s *SessionState) ToolCallTitleStatus(id ToolCallID) (title string, status ToolCallStatus, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.toolCalls.get(id)
	if !ok {
		return "", "", false
	}
	if c.Title != nil {
		title = *c.Title
	}
	return title, c.Status, true
}

// toolCallList returns copies of the tool calls in first-seen order.
func (s *SessionState) toolCallList() []ToolCallState {
	out := make([]ToolCallState, 0, len(s.toolCalls.keys))
	for _, k := range s.toolCalls.keys {
		out = append(out, copyToolCall(*s.toolCalls.values[k]))
	}
	return out
}

// copyToolCall returns a copy of c that shares no memory with it.
func copyToolCall(c ToolCallState) ToolCallState {
	c.Name = *deepCopy(&c.Name)
	c.Title = *deepCopy(&c.Title)
	c.Content = *deepCopy(&c.Content)
	c.Locations = *deepCopy(&c.Locations)
	c.RawInput = copyRaw(c.RawInput)
	c.RawOutput = copyRaw(c.RawOutput)
	c.Capabilities = *deepCopy(&c.Capabilities)
	c.Meta = copyRaw(c.Meta)
	return c
}

// planFromContent is the state of a plan_update's plan.
func planFromContent(c PlanUpdateContent) PlanState {
	switch v := c.Value.(type) {
	case *PlanUpdateContentItems:
		return planFromItems(string(v.PlanID), v.Entries, v.Meta)
	case *PlanUpdateContentOther:
		return PlanState{ID: string(v.PlanID), Kind: PlanKind(v.Tag), Raw: copyRaw(v.Raw)}
	}
	return planFromTaggedContent(c.Value)
}

// changed returns copies of the plans and tool calls that change names,
// as the state has them.
func (s *SessionState) changed(change SessionChange) (plans []PlanState, calls []ToolCallState) {
	for _, id := range change.Plans {
		if p, ok := s.Plan(id); ok {
			plans = append(plans, p)
		}
	}
	for _, id := range change.ToolCalls {
		if c, ok := s.ToolCall(id); ok {
			calls = append(calls, c)
		}
	}
	return plans, calls
}
