package acpv1

import (
	"testing"

	"github.com/acpgen/acpgen/internal/deftest"
)

// The rule cases run here need definitions, the table of every schema
// definition that only a test inside the package sees; the other cases of
// the decoding rules are in internal/gentest/acpv1test (rules_test.go).

// TestRulesCommon runs the rule cases both versions share.
func TestRulesCommon(t *testing.T) {
	deftest.RunRules(t, definitions)
}
