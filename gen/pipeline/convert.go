package pipeline

import (
	"fmt"
	"path"
	"strings"

	"github.com/acpgen/acpgen/gen/check"
	"github.com/acpgen/acpgen/gen/emit"
	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/templates"
)

// convertFiles returns the files of the convert package, which translates
// plan session updates between the v1 and v2 packages, keyed by their path
// in the output ("convert/plan.go"). The package is made when both versions
// are generated, each in its own package below an output directory whose
// import path is known, and their schemas have the plan updates it converts
// (the stable v1 "plan" and v2 "plan_update" with "items" contents). The
// plan operations part follows the gate of the v1 "plan_update" variant:
// behind its build tags, compiled in when baked, or left out (only the
// file that converts nothing) when the selection drops it. A warning says
// why the package is not made when the schemas have plans but not in the
// shape the conversion knows.
func convertFiles(o *Options, v1, v2 *ir.Package) (files map[string][]byte, warning string, err error) {
	if o.ImportPath == "" || o.single() || v1 == nil || v2 == nil {
		return nil, "", nil
	}
	stable := []*ir.Gate{
		variant(v1, "SessionUpdate", "plan"),
		variant(v2, "SessionUpdate", "plan_update"),
		variant(v2, "PlanUpdateContent", "items"),
	}
	for _, v := range stable {
		if v == nil || v.Unstable {
			return nil, "the schemas have no stable v1 plan and v2 plan_update with items: the convert package is not generated", nil
		}
	}
	ops := []*ir.Gate{
		variant(v1, "SessionUpdate", "plan_update"),
		variant(v1, "SessionUpdate", "plan_removed"),
		variant(v2, "SessionUpdate", "plan_removed"),
		variant(v1, "PlanUpdateContent", "file"),
		variant(v1, "PlanUpdateContent", "markdown"),
		variant(v2, "PlanUpdateContent", "file"),
		variant(v2, "PlanUpdateContent", "markdown"),
	}
	var present int
	for _, v := range ops {
		if v != nil {
			present++
		}
	}
	parts := map[string]string{} // file → build constraint
	var planOps *ir.Gate
	switch {
	case present == 0:
		parts["plan_ops_off.go"] = ""
	case present < len(ops) || !sameGate(ops):
		return nil, "the plan operations of v1 and v2 differ in what they have or in their build tags: the convert package is not generated", nil
	case !ops[0].Unstable:
		parts["plan_ops.go"], planOps = "", ops[0]
	default:
		tags := ops[0].Tags()
		parts["plan_ops.go"], planOps = strings.Join(tags, " || "), ops[0]
		parts["plan_ops_off.go"] = "!" + strings.Join(tags, " && !")
	}
	parts["doc.go"], parts["plan.go"] = "", ""
	if err := bridgeable(v1, v2, planOps); err != nil {
		warning = "the convert package is generated without the bridge: " + err.Error()
	} else {
		for _, name := range bridgeFiles {
			parts[name] = ""
		}
		for plan, ops := range map[string]string{"plan_ops.go": "bridge_plan_ops.go", "plan_ops_off.go": "bridge_plan_ops_off.go"} {
			if constraint, ok := parts[plan]; ok {
				parts[ops] = constraint
			}
		}
		mcpOverACPParts(v1, v2, parts)
	}
	header := emit.Header(mergeLines(v1.Source, v2.Source))
	files = map[string][]byte{}
	for name, constraint := range parts {
		src, err := templates.Convert(name, header, constraint, path.Join(o.ImportPath, v1.Name), path.Join(o.ImportPath, v2.Name))
		if err != nil {
			return nil, "", fmt.Errorf("convert: %w", err)
		}
		files["convert/"+name] = src
	}
	// The member-by-member conversions of the types of the same shape.
	types, err := emit.Render("convert", func(yield func(emit.File) bool) {
		yield(emit.Conversions(v1, v2, header, path.Join(o.ImportPath, v1.Name), path.Join(o.ImportPath, v2.Name)))
	})
	if err != nil {
		return nil, "", fmt.Errorf("convert: %w", err)
	}
	for name, src := range types {
		files["convert/"+name] = src
	}
	return files, warning, nil
}

// bridgeFiles are the files of the bridge, the version router's initialize
// of each version and the client negotiation in the convert package, beside
// the two of the bridge's plan operations, which follow the gate of the
// package's.
var bridgeFiles = []string{"bridge.go", "bridge_agent.go", "bridge_client.go", "initialize.go", "negotiate.go"}

// mcpOverACPParts adds the bridge's MCP over ACP files ("mcp/message" both
// ways, mcpCapabilities.acp in initialize) to parts, following the gate of
// the "acp" MCP server variant when both versions have it with the same
// one; otherwise only the file that leaves the capability out.
func mcpOverACPParts(v1, v2 *ir.Package, parts map[string]string) {
	gates := []*ir.Gate{variant(v1, "McpServer", "acp"), variant(v2, "McpServer", "acp")}
	switch {
	case gates[0] == nil || gates[1] == nil || !sameGate(gates):
		parts["bridge_mcp_over_acp_off.go"] = ""
	case !gates[0].Unstable:
		parts["bridge_mcp_over_acp.go"] = ""
	default:
		tags := gates[0].Tags()
		parts["bridge_mcp_over_acp.go"] = strings.Join(tags, " || ")
		parts["bridge_mcp_over_acp_off.go"] = "!" + strings.Join(tags, " && !")
	}
}

// bridgeable reports why the convert package of v1 and v2 cannot have the
// bridge files: the definitions they are written against (check.Bridge),
// and the member-by-member conversions they call.
func bridgeable(v1, v2 *ir.Package, planOps *ir.Gate) error {
	if err := check.Bridge(v1, v2, planOps); err != nil {
		return err
	}
	converted := emit.Converted(v1, v2)
	for _, name := range bridgeConversions {
		if !converted[name] {
			return fmt.Errorf("the bridge converts %s member by member, which is not the same shape in both schemas", name)
		}
	}
	return nil
}

// bridgeConversions are the types, by schema name, whose member-by-member
// conversions the bridge calls.
var bridgeConversions = []string{"CloseSessionRequest", "CloseSessionResponse", "CompleteElicitationNotification",
	"DeleteSessionRequest", "DeleteSessionResponse", "ElicitationCapabilities", "Implementation"}

// variant returns the gate of the variant of union typ in p with tag: its
// own, or, for a variant of an unstable union, the union's. It returns nil
// when p has no such variant.
func variant(p *ir.Package, typ, tag string) *ir.Gate {
	for _, t := range p.Types {
		if t.Name != typ || t.Union == nil {
			continue
		}
		for _, v := range t.Union.Variants {
			if v.Tag != tag {
				continue
			}
			if v.Unstable {
				return &v.Gate
			}
			return &t.Gate
		}
	}
	return nil
}

func sameGate(gs []*ir.Gate) bool {
	for _, g := range gs {
		if g.Key() != gs[0].Key() {
			return false
		}
	}
	return true
}

// mergeLines returns the lines of a, then those of b that a does not have.
func mergeLines(a, b string) string {
	seen := map[string]bool{}
	var out []string
	for _, l := range append(strings.Split(a, "\n"), strings.Split(b, "\n")...) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
