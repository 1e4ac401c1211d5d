package acpinspect

import (
	"github.com/acpgen/acpgen/acpcheck"
)

// A Finding is a protocol rule that observed traffic broke, linked to the
// message that broke it. Its rule is one of acpcheck's requirements.
type Finding struct {
	// Rule is the acpcheck requirement's id ("agent.rpc.id-integer").
	Rule string `json:"rule"`
	// Tier is MUST, SHOULD, CAPABILITY or INFO.
	Tier string `json:"tier"`
	// Text is the requirement.
	Text string `json:"text"`
	// URL is the page of the protocol it comes from.
	URL string `json:"url"`
	// Seq is the message that broke it.
	Seq int64 `json:"seq"`
	// Conn is the message's connection.
	Conn int64 `json:"conn"`
	// Detail says what was seen.
	Detail string `json:"detail"`
}

// passiveRules are the acpcheck requirements an Inspector judges from
// observed traffic alone.
var passiveRules = []string{
	"agent.stdio.framing",
	"client.stdio.framing",
	"client.init.first",
	"agent.init.version-echo",
	"agent.schema.decodes",
	"client.schema.decodes",
	"agent.rpc.id-integer",
	"agent.rpc.id-string",
	"client.rpc.id-integer",
	"client.rpc.id-string",
	"agent.prompt.v1-updates-in-turn",
	"agent.cancel.stop-reason",
	"agent.cancel.no-late-update",
	"client.permission.answer",
	"client.permission.cancelled",
	"agent.plan.v1-fallback",
	"agent.plan.v2-no-v1-plan",
}

// PassiveRules returns the ids of the acpcheck requirements an Inspector
// judges.
func PassiveRules() []string { return append([]string(nil), passiveRules...) }

// newFinding makes the finding of rule at message seq.
func newFinding(rule string, conn, seq int64, detail string) Finding {
	f := Finding{Rule: rule, Seq: seq, Conn: conn, Detail: detail}
	if id, ok := acpcheck.ParseID(rule); ok {
		r, _ := acpcheck.Lookup(id)
		f.Tier, f.Text, f.URL = string(r.Tier), r.Text, r.URL
	}
	return f
}

// side is the prefix of a rule about what s sends.
func side(s Sender) string {
	if s == FromClient {
		return "client"
	}
	return "agent"
}
