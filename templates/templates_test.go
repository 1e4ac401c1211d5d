package templates

import (
	"os"
	"strings"
	"testing"
)

// TestDecoderRequirement keeps the decoder module that generated code is
// checked with the one this repository builds and tests it with.
func TestDecoderRequirement(t *testing.T) {
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if want := DecoderModule + " " + DecoderVersion; !strings.Contains(string(gomod), want) {
		t.Errorf("go.mod does not require %s", want)
	}
	gosum, err := os.ReadFile("../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.SplitAfter(DecoderSum, "\n") {
		if line != "" && !strings.Contains(string(gosum), line) {
			t.Errorf("go.sum lacks %q", line)
		}
	}
	mod, sum := Module("example.com/m", "1.22")
	if !strings.Contains(string(mod), "\ngo 1.22\n") || !strings.Contains(string(mod), "require "+DecoderModule+" "+DecoderVersion) {
		t.Errorf("Module go.mod =\n%s", mod)
	}
	if string(sum) != DecoderSum {
		t.Errorf("Module go.sum = %q", sum)
	}
}
