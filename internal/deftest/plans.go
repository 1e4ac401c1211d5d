package deftest

import "github.com/acpgen/acpgen/internal/jsontest"

// PlanOps are the cases of the plan operations (unstable_plan_operations)
// that both versions decode alike, for session/update params: markdown
// plan content (p1, with _meta on the content and the params), file plan
// content (p2) and the removal of plan p1, each re-encoded as received.
func PlanOps(markdown, file, removed string) []jsontest.DefCase {
	return []jsontest.DefCase{{
		Name: "markdown",
		In:   markdown,
		Want: some{"Meta": `{"trace":"t1"}`, "Update": is("SessionUpdatePlanUpdate", some{"Plan": is("PlanUpdateContentMarkdown", some{
			"PlanID": "p1", "Content": "# Plan\n- [ ] write tests", "Meta": `{"n":9007199254740993}`,
		})})},
		Valid: true,
	}, {
		Name:  "file",
		In:    file,
		Want:  some{"Update": is("SessionUpdatePlanUpdate", some{"Plan": is("PlanUpdateContentFile", some{"PlanID": "p2", "URI": "file:///home/user/project/PLAN.md"})})},
		Valid: true,
	}, {
		Name:  "removed",
		In:    removed,
		Want:  some{"Update": is("SessionUpdatePlanRemoved", some{"PlanID": "p1", "Meta": `{"why":"done"}`})},
		Valid: true,
	}}
}
