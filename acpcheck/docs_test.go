package acpcheck

import (
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
		if !strings.Contains(doc, "| `"+r.ID+"` | "+string(r.Tier)+" |") {
			t.Errorf("docs/acpcheck.md does not list %s as %s", r.ID, r.Tier)
		}
	}
	for _, m := range regexp.MustCompile("\\| `((agent|client|remote)\\.[a-z0-9.-]+)` \\|").FindAllStringSubmatch(doc, -1) {
		if _, ok := Lookup(m[1]); !ok {
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
