package pipeline

import (
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/schema"
)

// TestConvertFiles checks when the convert package is made and how its
// plan operations and MCP over ACP parts are gated.
func TestConvertFiles(t *testing.T) {
	const mod = "example.com/m/acp"
	for _, tc := range []struct {
		name string
		opts Options
		want map[string]string // file → its build constraint line, "" for none
	}{
		{"both versions", Options{ImportPath: mod}, withBridge(map[string]string{
			"convert/plan_ops.go":                "//go:build unstable_plan_operations || unstable",
			"convert/plan_ops_off.go":            "//go:build !unstable_plan_operations && !unstable",
			"convert/bridge_plan_ops.go":         "//go:build unstable_plan_operations || unstable",
			"convert/bridge_plan_ops_off.go":     "//go:build !unstable_plan_operations && !unstable",
			"convert/bridge_mcp_over_acp.go":     "//go:build unstable_mcp_over_acp || unstable",
			"convert/bridge_mcp_over_acp_off.go": "//go:build !unstable_mcp_over_acp && !unstable",
		})},
		{"plan operations left out", Options{ImportPath: mod, Select: &ir.Selection{Features: []string{"unstable_session_fork"}}}, withBridge(map[string]string{
			"convert/plan_ops_off.go": "", "convert/bridge_plan_ops_off.go": "", "convert/bridge_mcp_over_acp_off.go": "",
		})},
		{"plan operations baked", Options{ImportPath: mod, Select: &ir.Selection{Features: []string{"unstable_plan_operations"}, Bake: true}}, withBridge(map[string]string{
			"convert/plan_ops.go": "", "convert/bridge_plan_ops.go": "", "convert/bridge_mcp_over_acp_off.go": "",
		})},
		{"MCP over ACP baked", Options{ImportPath: mod, Select: &ir.Selection{Features: []string{"unstable_mcp_over_acp"}, Bake: true}}, withBridge(map[string]string{
			"convert/plan_ops_off.go": "", "convert/bridge_plan_ops_off.go": "", "convert/bridge_mcp_over_acp.go": "",
		})},
		{"import path unknown", Options{}, nil},
		{"one version", Options{ImportPath: mod, Versions: []string{"v2"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := GenerateWith(schema.FS, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range out.Warnings {
				t.Errorf("warning: %s", w)
			}
			got := map[string]string{}
			for name, data := range out.Files {
				if !strings.HasPrefix(name, "convert/") {
					continue
				}
				src := string(data)
				got[name] = ""
				if i := strings.Index(src, "\n//go:build "); i >= 0 {
					got[name] = strings.SplitN(src[i+1:], "\n", 2)[0]
				}
				if !strings.Contains(src, `"`+mod+`/acpv1"`) && name != "convert/doc.go" {
					t.Errorf("%s does not import %s/acpv1", name, mod)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("convert files %v, want %v", got, tc.want)
			}
			for name, c := range tc.want {
				if g, ok := got[name]; !ok || g != c {
					t.Errorf("%s: constraint %q (present %v), want %q", name, g, ok, c)
				}
			}
		})
	}
}

// withBridge adds to the files of a convert package the ones every convert
// package with the bridge has, without build constraints.
func withBridge(files map[string]string) map[string]string {
	for _, name := range append([]string{"doc.go", "plan.go", "types.go"}, bridgeFiles...) {
		files["convert/"+name] = ""
	}
	return files
}
