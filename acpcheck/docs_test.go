package acpcheck

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocsListEveryRequirement: docs/acpcheck.md lists every requirement
// with its tier, and names none the kit does not have.
func TestDocsListEveryRequirement(t *testing.T) {
	data, err := os.ReadFile("../docs/acpcheck.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, r := range Requirements("") {
		if !strings.Contains(doc, "| `"+r.ID.String()+"` | "+string(r.Tier)+" |") {
			t.Errorf("docs/acpcheck.md does not list %s as %s", r.ID, r.Tier)
		}
	}
	for _, m := range regexp.MustCompile("\\| `((agent|client|remote)\\.[a-z0-9.-]+)` \\|").FindAllStringSubmatch(doc, -1) {
		if _, ok := ParseID(m[1]); !ok {
			t.Errorf("docs/acpcheck.md lists %s, which the kit does not have", m[1])
		}
	}
}

// TestRequirementsWellFormed: every requirement has a tier, a sentence and
// a page of the protocol's site or JSON-RPC's.
func TestRequirementsWellFormed(t *testing.T) {
	for _, r := range Requirements("") {
		if r.Text == "" || !strings.HasSuffix(r.Text, ".") {
			t.Errorf("%s: text %q", r.ID, r.Text)
		}
		if !strings.HasPrefix(r.URL, "https://agentclientprotocol.com/") && !strings.HasPrefix(r.URL, "https://www.jsonrpc.org/") {
			t.Errorf("%s: page %q", r.ID, r.URL)
		}
		switch r.Tier {
		case Must, Should, PerCapability, Informational:
		default:
			t.Errorf("%s: tier %q", r.ID, r.Tier)
		}
	}
}

// TestIDs: every ID constant names one defined requirement, its dotted
// name round-trips through ParseID and JSON, and no requirement is defined
// without a constant.
func TestIDs(t *testing.T) {
	if got, want := len(Requirements("")), len(idNames)-1; got != want {
		t.Errorf("%d requirements defined, %d ID constants", got, want)
	}
	for i := 1; i < len(idNames); i++ {
		id := ID(i)
		if _, ok := Lookup(id); !ok {
			t.Errorf("%s (%d) has no requirement", id, i)
		}
		if back, ok := ParseID(id.String()); !ok || back != id {
			t.Errorf("ParseID(%q) = %d, %v", id.String(), back, ok)
		}
		data, err := json.Marshal(Requirement{ID: id})
		var r Requirement
		if err != nil || json.Unmarshal(data, &r) != nil || r.ID != id || !strings.Contains(string(data), `"id":"`+id.String()+`"`) {
			t.Errorf("%s: JSON %s, %v, read back %s", id, data, err, r.ID)
		}
	}
	if _, err := json.Marshal(Requirement{ID: ID(len(idNames))}); err == nil {
		t.Error("an ID without a name marshals")
	}
	if _, ok := ParseID("agent.init.answr"); ok {
		t.Error(`ParseID("agent.init.answr") found a requirement`)
	}
}
