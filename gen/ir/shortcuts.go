package ir

// Shortcut is a helper for a message every agent sends, that nests union
// constructors in one call: AgentMessageText(messageID, text) is
// NewSessionUpdateAgentMessageChunk(messageID, NewContentBlockText(text)).
// Its parameters are those of its steps, each step's last one (the value
// the next step builds) left out.
type Shortcut struct {
	Name string // the Go name, fixed by the table below
	Doc  string // what it builds, after its name
	// Steps are the constructors it calls, outermost first.
	Steps []*Constructor
	// Sets: the last step takes its payload whole (a tool call), and the
	// shortcut fills these members of it, from a parameter each or with a
	// constant; the payload's other members are left unset.
	Sets []*ShortcutSet
	// ParamNames are the Go parameter names, filled by package names.
	ParamNames []string
}

// ShortcutSet is one member a shortcut sets in a payload it builds.
type ShortcutSet struct {
	Field *Field
	// Const is the enum constant the member gets; nil: a parameter of
	// the member's type gives it.
	Const *EnumValue
}

// Gate is the gate of the shortcut: that of its one unstable step, if any.
func (s *Shortcut) Gate() Gate {
	for _, c := range s.Steps {
		if g := c.Gate(); g.Unstable {
			return g
		}
	}
	return Gate{}
}

// shortcutStep names a constructor by its union's schema name and its
// variant's tag.
type shortcutStep struct{ union, tag string }

// shortcutSet names a member of a payload taken whole by its JSON name,
// and the enum value it gets ("" for a parameter).
type shortcutSet struct{ member, value string }

// shortcutTable lists the shortcuts a package gets when its schema has
// every step: the constructors decide the parameters, so v1's
// AgentMessageText takes the text and v2's a message id too.
var shortcutTable = []struct {
	name, doc string
	steps     []shortcutStep
	sets      []shortcutSet
}{
	{"AgentMessageText", "a chunk of the agent's message made of text",
		[]shortcutStep{{"SessionUpdate", "agent_message_chunk"}, {"ContentBlock", "text"}}, nil},
	{"AgentThoughtText", "a chunk of the agent's thought made of text",
		[]shortcutStep{{"SessionUpdate", "agent_thought_chunk"}, {"ContentBlock", "text"}}, nil},
	{"UserMessageText", "a chunk of the user's message made of text",
		[]shortcutStep{{"SessionUpdate", "user_message_chunk"}, {"ContentBlock", "text"}}, nil},
	{"UpdatePlan", "the agent's plan made of entries",
		[]shortcutStep{{"SessionUpdate", "plan"}}, nil},
	{"UpdatePlan", "the agent's plan made of entries",
		[]shortcutStep{{"SessionUpdate", "plan_update"}, {"PlanUpdateContent", "items"}}, nil},
	{"EndTurn", "the state update that ends a turn: idle, because the turn ended",
		[]shortcutStep{{"SessionUpdate", "state_update"}, {"StateUpdate", "idle"}, {"IdleStateUpdate", "end_turn"}}, nil},
	// v1 reports a new tool call with tool_call, v2 with its first
	// tool_call_update.
	{"StartToolCall", "a new tool call, pending, with its title and kind",
		[]shortcutStep{{"SessionUpdate", "tool_call"}},
		[]shortcutSet{{"toolCallId", ""}, {"title", ""}, {"kind", ""}, {"status", "pending"}}},
	{"StartToolCall", "a new tool call, pending, with its title and kind",
		[]shortcutStep{{"SessionUpdate", "tool_call_update"}},
		[]shortcutSet{{"toolCallId", ""}, {"title", ""}, {"kind", ""}, {"status", "pending"}}},
	{"FinishToolCall", "the update that completes a tool call, with its content (a diff, text, a terminal)",
		[]shortcutStep{{"SessionUpdate", "tool_call_update"}},
		[]shortcutSet{{"toolCallId", ""}, {"status", "completed"}, {"content", ""}}},
}

// Shortcuts returns the shortcuts whose steps p's constructors (set in
// p.Constructors) all have, each step's last parameter of the type the
// next step returns, with at most one set of build tags among them.
func Shortcuts(p *Package) []*Shortcut {
	byStep := map[shortcutStep]*Constructor{}
	for _, c := range p.Constructors {
		byStep[shortcutStep{c.Union.Name, c.Variant.Tag}] = c
	}
	var out []*Shortcut
	taken := map[string]bool{}
	for _, row := range shortcutTable {
		if taken[row.name] {
			continue
		}
		s := &Shortcut{Name: row.name, Doc: row.doc}
		for _, step := range row.steps {
			c := byStep[step]
			if c == nil {
				s = nil
				break
			}
			s.Steps = append(s.Steps, c)
		}
		if s != nil && row.sets != nil && !s.setMembers(row.sets) {
			s = nil
		}
		if s != nil && s.chained() {
			taken[row.name] = true
			out = append(out, s)
		}
	}
	return out
}

// chained reports whether each step but the last takes the next one's
// union as its last parameter, and the steps need one set of tags at most.
func (s *Shortcut) chained() bool {
	key := ""
	for i, c := range s.Steps {
		if k := c.Gate().Key(); k != "" {
			if key != "" && k != key {
				return false
			}
			key = k
		}
		if i == len(s.Steps)-1 {
			break
		}
		next := s.Steps[i+1].Union
		switch {
		case c.Whole && len(c.Shared) == 0:
			if c.Source != next {
				return false
			}
		case !c.Whole && !c.Value && len(c.Params) > 0:
			last := c.Params[len(c.Params)-1]
			if last.Type.Kind != RefNamed || last.Type.Type != next {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// setMembers fills s.Sets from the members of the last step's payload,
// which it must take whole; it reports false when a member or an enum
// value is missing, or is not declared with the payload in every build.
func (s *Shortcut) setMembers(sets []shortcutSet) bool {
	c := s.Steps[len(s.Steps)-1]
	if !c.Whole || len(c.Shared) > 0 {
		return false
	}
	src := c.Source
	for src.Kind == Named && src.Underlying.Kind == RefNamed {
		src = src.Underlying.Type
	}
	if src.Kind != Struct {
		return false
	}
	for _, want := range sets {
		var f *Field
		for _, g := range src.Fields {
			if g.JSONName == want.member && !g.Unstable {
				f = g
			}
		}
		if f == nil {
			return false
		}
		set := &ShortcutSet{Field: f}
		if want.value != "" {
			if f.Type.Kind != RefNamed || f.Type.Type.Kind != Enum {
				return false
			}
			for _, v := range f.Type.Type.Enum.Values {
				if v.String == want.value && !v.Unstable {
					set.Const = v
				}
			}
			if set.Const == nil {
				return false
			}
		}
		s.Sets = append(s.Sets, set)
	}
	return true
}
