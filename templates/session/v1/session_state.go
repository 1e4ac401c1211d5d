//go:build ignore

package acp

import "sync"

// SessionState is what a client knows of one session from the updates the
// agent sent: its plans, tool calls, config options, current mode,
// available commands, title and usage. Feed it every session update of
// the session with Apply (a SessionRouter does); it is safe for concurrent
// use, and what it hands out are copies that cannot change it.
type SessionState struct {
	mu            sync.Mutex
	id            SessionID
	plans         orderedMap[string, *PlanState]
	toolCalls     orderedMap[ToolCallID, *ToolCall]
	configOptions []SessionConfigOption
	mode          *SessionModeID
	commands      []AvailableCommand
	title         *string
	updatedAt     *string
	usage         *UsageUpdate
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
	ToolCalls []ToolCall
	// ConfigOptions is the last list of config options, nil until one came.
	ConfigOptions []SessionConfigOption
	// CurrentMode is the session's mode, nil until known.
	CurrentMode *SessionModeID
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
}

// NewSessionState returns the empty state of session id.
func NewSessionState(id SessionID) *SessionState { return &SessionState{id: id} }

// ID returns the id of the session.
func (s *SessionState) ID() SessionID { return s.id }

// Apply records one session update and says what it changed:
//
//   - "plan" replaces the plan PlanIDMain whole, with its entries;
//   - "tool_call" creates or replaces the tool call of its id;
//   - "tool_call_update" patches the tool call of its id: a member that is
//     absent leaves the call's as it was, one that is present replaces it
//     (a list replaces the whole list; v1 reads null as absent). An update
//     for an id never seen creates the call from what it carries, as v2
//     of the protocol says and the TypeScript SDK does (it tracks any id);
//   - "config_option_update", "available_commands_update",
//     "current_mode_update" and "usage_update" replace what they carry;
//   - "session_info_update" sets, clears (null) or leaves each of the
//     title and the update time;
//   - with unstable_plan_operations, "plan_update" replaces the content of
//     its plan, whatever its type (a content type this package does not
//     know is kept raw), and "plan_removed" removes its plan (an unknown id
//     is no error).
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
	case *SessionUpdatePlan:
		p := planFromItems(PlanIDMain, v.Entries, v.Meta)
		s.plans.put(PlanIDMain, &p)
		return SessionChange{Plans: []string{PlanIDMain}}
	case *SessionUpdateToolCall:
		c := *keepOrCopy(owned, &v.ToolCall)
		s.toolCalls.put(c.ToolCallID, &c)
		return SessionChange{ToolCalls: []ToolCallID{c.ToolCallID}}
	case *SessionUpdateToolCallUpdate:
		c, ok := s.toolCalls.get(v.ToolCallID)
		if !ok {
			c = new(ToolCall)
		}
		c.ToolCallID = v.ToolCallID
		patchToolCall(c, *keepOrCopy(owned, &v.ToolCallUpdate))
		s.toolCalls.put(c.ToolCallID, c)
		return SessionChange{ToolCalls: []ToolCallID{c.ToolCallID}}
	case *SessionUpdateConfigOptionUpdate:
		s.configOptions = *keepOrCopy(owned, &v.ConfigOptions)
		return SessionChange{ConfigOptions: true}
	case *SessionUpdateAvailableCommandsUpdate:
		s.commands = *keepOrCopy(owned, &v.AvailableCommands)
		return SessionChange{Commands: true}
	case *SessionUpdateCurrentModeUpdate:
		mode := v.CurrentModeID
		s.mode = &mode
		return SessionChange{Mode: true}
	case *SessionUpdateSessionInfoUpdate:
		s.title = patchString(s.title, v.Title)
		s.updatedAt = patchString(s.updatedAt, v.UpdatedAt)
		return SessionChange{Info: true}
	case *SessionUpdateUsageUpdate:
		usage := *keepOrCopy(owned, &v.UsageUpdate)
		s.usage = &usage
		return SessionChange{Usage: true}
	}
	return s.applyPlanOperations(u.Value)
}

// patchToolCall applies the members of u that are present to c.
func patchToolCall(c *ToolCall, u ToolCallUpdate) {
	if u.Kind != nil {
		c.Kind = u.Kind
	}
	if u.Status != nil {
		c.Status = u.Status
	}
	if u.Title != nil {
		c.Title = *u.Title
	}
	if u.Name != nil {
		c.Name = u.Name
	}
	if u.Content != nil {
		c.Content = u.Content
	}
	if u.Locations != nil {
		c.Locations = u.Locations
	}
	if u.RawInput != nil {
		c.RawInput = u.RawInput
	}
	if u.RawOutput != nil {
		c.RawOutput = u.RawOutput
	}
	if u.Meta != nil {
		c.Meta = u.Meta
	}
}

// patchString applies a nullable member: absent keeps old, null clears it.
func patchString(old *string, n Nullable[string]) *string {
	switch {
	case !n.Present:
		return old
	case n.Null:
		return nil
	}
	v := n.Value
	return &v
}

// SetConfigOptions replaces the config options with the whole list of a
// session/set_config_option result (or of a session/new, load or resume
// result), as a config_option_update does.
func (s *SessionState) SetConfigOptions(options []SessionConfigOption) SessionChange {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.configOptions = *deepCopy(&options)
	return SessionChange{ConfigOptions: true}
}

// opened records the modes and the config options of a session/new, load
// or resume result.
func (s *SessionState) opened(modes *SessionModeState, options []SessionConfigOption) {
	if modes != nil {
		s.mu.Lock()
		mode := modes.CurrentModeID
		s.mode = &mode
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
	snap := SessionSnapshot{
		SessionID:         s.id,
		Plans:             planList(&s.plans),
		ToolCalls:         s.toolCallList(),
		ConfigOptions:     *deepCopy(&s.configOptions),
		AvailableCommands: *deepCopy(&s.commands),
		CurrentMode:       *deepCopy(&s.mode),
		Title:             *deepCopy(&s.title),
		UpdatedAt:         *deepCopy(&s.updatedAt),
		Usage:             *deepCopy(&s.usage),
	}
	return snap
}

// ToolCall returns a copy of the tool call id, and whether the session has
// it.
func (s *SessionState) ToolCall(id ToolCallID) (ToolCall, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var c ToolCall
	kept, ok := s.toolCalls.get(id)
	if ok {
		c = *kept
	}
	return copyToolCall(c), ok
}

// ToolCallTitleStatus returns the title and status of the tool call id,
// and whether the session has it, without copying the rest of the call:
// status is ToolCallStatusPending while no update has set it, as v2's
// state has it.
func (s *SessionState) ToolCallTitleStatus(id ToolCallID) (title string, status ToolCallStatus, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.toolCalls.get(id)
	if !ok {
		return "", "", false
	}
	status = ToolCallStatusPending
	if c.Status != nil {
		status = *c.Status
	}
	return c.Title, status, true
}

// toolCallList returns copies of the tool calls in first-seen order.
func (s *SessionState) toolCallList() []ToolCall {
	out := make([]ToolCall, 0, len(s.toolCalls.keys))
	for _, k := range s.toolCalls.keys {
		out = append(out, copyToolCall(*s.toolCalls.values[k]))
	}
	return out
}

// copyToolCall returns a copy of c that shares no memory with it.
func copyToolCall(c ToolCall) ToolCall { return *deepCopy(&c) }

// changed returns copies of the plans and tool calls that change names,
// as the state has them.
func (s *SessionState) changed(change SessionChange) (plans []PlanState, calls []ToolCall) {
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
