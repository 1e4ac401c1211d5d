// Package acpcheck is a conformance kit for the Agent Client Protocol: it
// plays a client against an agent (over stdio, Streamable HTTP or
// WebSocket), a scripted agent against a client, and a bare HTTP client
// against a remote endpoint, and judges what the program under test does
// against a list of requirements drawn from the protocol's pages.
//
// Each requirement has a stable id, a tier (MUST, SHOULD, per capability,
// informational), a sentence and the page it comes from. A run gives a
// Report: a verdict for every requirement, the transcript of every failure,
// a summary per tier and the run's duration. Report.OK is true when every
// MUST holds; the acpcheck command exits 0 exactly then.
//
// The same checks run from go test:
//
//	r := acpcheck.CheckAgent(ctx, acpcheck.Command("./myagent"), acpcheck.AgentOptions{})
//	if !r.OK() {
//		t.Fatal(r.Text())
//	}
package acpcheck

import (
	"fmt"
	"slices"
)

// A Tier says how much a requirement binds the program under test.
type Tier string

// The tiers. A MUST that fails fails the run; a SHOULD that fails is
// reported; a per-capability requirement binds only a program that
// advertised the capability, as a MUST, and is "not applicable" otherwise; an
// informational one describes what the program does without judging it.
const (
	Must          Tier = "MUST"
	Should        Tier = "SHOULD"
	PerCapability Tier = "CAPABILITY"
	Informational Tier = "INFO"
)

// Tiers lists the tiers in the order summaries print them.
var Tiers = []Tier{Must, Should, PerCapability, Informational}

// A Requirement is one rule of the protocol that a check judges.
type Requirement struct {
	ID   ID     `json:"id"`   // stable: never reused for another rule
	Tier Tier   `json:"tier"` // how much it binds
	Text string `json:"text"` // the rule, one sentence
	URL  string `json:"url"`  // the page of the protocol it comes from
}

// The pages requirements come from.
const (
	pageOverview       = "https://agentclientprotocol.com/protocol/"
	pageJSONRPC        = "https://www.jsonrpc.org/specification"
	pageTransports     = "https://agentclientprotocol.com/protocol/transports"
	pageInit           = "https://agentclientprotocol.com/protocol/initialization"
	pageInitV2         = "https://agentclientprotocol.com/protocol/v2/initialization"
	pageSessionSetup   = "https://agentclientprotocol.com/protocol/session-setup"
	pagePromptTurn     = "https://agentclientprotocol.com/protocol/prompt-turn"
	pagePromptV2       = "https://agentclientprotocol.com/protocol/v2/prompt-lifecycle"
	pageSessionV2      = "https://agentclientprotocol.com/protocol/v2/session-setup"
	pageRequiredV2     = "https://agentclientprotocol.com/rfds/v2/required-session-methods"
	pagePlan           = "https://agentclientprotocol.com/protocol/agent-plan"
	pagePlanV2         = "https://agentclientprotocol.com/protocol/v2/agent-plan"
	pagePlanOperations = "https://agentclientprotocol.com/rfds/plan-operations"
	pageExtensibility  = "https://agentclientprotocol.com/protocol/extensibility"
	pageSchemaV1       = "https://agentclientprotocol.com/protocol/schema"
	pageSchemaV2       = "https://agentclientprotocol.com/protocol/v2/schema"
	pageRemote         = "https://agentclientprotocol.com/rfds/streamable-http-websocket-transport"
	pageFileSystem     = "https://agentclientprotocol.com/protocol/file-system"
	pageTerminals      = "https://agentclientprotocol.com/protocol/terminals"
)

// registry holds every requirement by id; requirements.go files add theirs.
var registry = map[ID]Requirement{}

// define adds requirements to the registry; an id defined twice is a bug
// of the kit, caught by its tests at init.
func define(rs ...Requirement) {
	for _, r := range rs {
		if _, dup := registry[r.ID]; dup {
			panic(fmt.Sprintf("acpcheck: requirement %s defined twice", r.ID))
		}
		registry[r.ID] = r
	}
}

// Lookup returns the requirement with the id, and whether there is one.
func Lookup(id ID) (Requirement, bool) {
	r, ok := registry[id]
	return r, ok
}

// String returns the dotted id ("agent.init.answer").
func (id ID) String() string {
	if int(id) < len(idNames) && idNames[id] != "" {
		return idNames[id]
	}
	return fmt.Sprintf("ID(%d)", uint16(id))
}

// MarshalText gives the dotted id, so that JSON reports carry it.
func (id ID) MarshalText() ([]byte, error) {
	if int(id) >= len(idNames) || idNames[id] == "" {
		return nil, fmt.Errorf("acpcheck: no requirement %d", uint16(id))
	}
	return []byte(idNames[id]), nil
}

// UnmarshalText reads a dotted id, as a JSON report carries it.
func (id *ID) UnmarshalText(text []byte) error {
	v, ok := ParseID(string(text))
	if !ok {
		return fmt.Errorf("acpcheck: no requirement %q", text)
	}
	*id = v
	return nil
}

// ParseID returns the ID with the dotted name, and whether there is one.
func ParseID(s string) (ID, bool) {
	for i, n := range idNames {
		if n == s && n != "" {
			return ID(i), true
		}
	}
	return 0, false
}

// Requirements returns every requirement whose id begins with prefix
// ("" for all), sorted by id.
func Requirements(prefix string) []Requirement {
	var out []Requirement
	for id, r := range registry {
		if name := id.String(); len(name) >= len(prefix) && name[:len(prefix)] == prefix {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Requirement) int {
		switch {
		case a.ID.String() < b.ID.String():
			return -1
		case a.ID.String() > b.ID.String():
			return 1
		}
		return 0
	})
	return out
}
