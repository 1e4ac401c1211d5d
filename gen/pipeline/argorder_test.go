package pipeline

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestConstructorArgumentOrder checks the checked-in API of both versions,
// under every build tag: every constructor that takes a session id takes
// it first, and every one that takes a cwd and MCP servers takes the cwd
// first (ir.ArgumentLead).
func TestConstructorArgumentOrder(t *testing.T) {
	ctor := regexp.MustCompile(`func (New\w+)\(([^)]*)\)`)
	n := 0
	for _, v := range []string{"acpv1", "acpv2"} {
		data, err := os.ReadFile("../../generated/api/" + v + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ctor.FindAllStringSubmatch(string(data), -1) {
			var params []string
			for _, p := range strings.Split(m[2], ", ") {
				name, _, _ := strings.Cut(p, " ")
				params = append(params, name)
			}
			at := func(name string) int {
				for i, p := range params {
					if p == name {
						return i
					}
				}
				return -1
			}
			if i := at("sessionID"); i > 0 {
				t.Errorf("%s: %s(%s) takes sessionID at %d, not first", v, m[1], m[2], i+1)
			} else if i == 0 {
				n++
			}
			if c, s := at("cwd"), at("mcpServers"); c >= 0 && s >= 0 && c > s {
				t.Errorf("%s: %s(%s) takes mcpServers before cwd", v, m[1], m[2])
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d constructors take a session id: the API files were not read right", n)
	}
}
