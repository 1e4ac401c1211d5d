package pipeline

import (
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/schema"
)

// TestSessionFiles generates both versions with the plan operations left
// out, behind their tags, and baked, checks which session files each gets
// and with what build constraint, and vets the packages (with and without
// the umbrella tag) in a go 1.22 module.
func TestSessionFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		sel  ir.Selection
		// planOps and planOpsOff: the constraint of the file, "-" when absent.
		planOps, planOpsOff string
	}{
		{"none", ir.Selection{Features: []string{}}, "-", ""},
		{"tagged", ir.Selection{All: true}, "unstable_plan_operations || unstable", "!unstable_plan_operations && !unstable"},
		{"baked", ir.Selection{Features: []string{"unstable_plan_operations"}, Bake: true}, "", "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel := tc.sel
			out, err := GenerateWith(schema.FS, Options{Versions: []string{"v1", "v2"}, Select: &sel})
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{}
			for _, pkg := range []string{"acpv1", "acpv2"} {
				for _, name := range []string{"session.go", "session_state.go", "session_conn.go", "session_router.go"} {
					if out.Files[pkg+"/"+name] == nil {
						t.Errorf("%s/%s not generated", pkg, name)
					}
				}
				for name, want := range map[string]string{"session_plan_ops.go": tc.planOps, "session_plan_ops_off.go": tc.planOpsOff} {
					if got := constraintOf(out.Files[pkg+"/"+name]); got != want {
						t.Errorf("%s/%s: constraint %q, want %q", pkg, name, got, want)
					}
				}
				for name, data := range out.Files {
					if strings.HasPrefix(name, pkg+"/") && !strings.HasSuffix(name, "_test.go") {
						files[name] = data
					}
				}
			}
			vetModule(t, files, "")
			vetModule(t, files, "unstable")
		})
	}
}

// constraintOf returns the build constraint of a file, "" without one and
// "-" for no file.
func constraintOf(src []byte) string {
	if src == nil {
		return "-"
	}
	for _, line := range strings.Split(string(src), "\n") {
		if c, ok := strings.CutPrefix(line, "//go:build "); ok {
			return c
		}
		if strings.HasPrefix(line, "package ") {
			break
		}
	}
	return ""
}
