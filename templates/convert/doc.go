//go:build ignore

// Package convert translates plan session updates between Agent Client
// Protocol v1 (package acpv1) and v2 (package acpv2), following the
// "v2 Plan Variants" RFD, and the types whose shape both versions share.
//
// # Stable mapping
//
// ACP v1 has a single, anonymous plan per session, sent as the "plan"
// session update. ACP v2 has any number of plans, each with an ID, sent as
// "plan_update" session updates whose content is, among others, a list of
// entries (content type "items"). The v1 plan is the v2 plan whose ID is
// [MainPlanID]:
//
//	v1 {"sessionUpdate":"plan","entries":[…]}
//	v2 {"sessionUpdate":"plan_update","plan":{"type":"items","planId":"main","entries":[…]}}
//
// Converting a v1 plan to v2 always succeeds. Converting a v2 plan to v1
// drops the plan ID and fails with a [*NotRepresentableError] for everything v1
// cannot express: plan contents other than "items" (for example "file",
// "markdown" or a custom type), session updates v1 does not have (for
// example "plan_removed"), and entry priorities or statuses outside v1's
// closed enums (for example the v2 status "cancelled").
//
// Session updates that are not about plans (agent messages, tool calls, …)
// are outside the scope of this package: the conversion functions return an
// [*UnsupportedError] for them, so that callers can tell "convert this some
// other way" from "this cannot be expressed in the other version".
//
// # Plan operations
//
// When package acpv1 has the draft "plan_update" and "plan_removed" session
// updates (the unstable_plan_operations feature: behind the
// unstable_plan_operations or unstable build tag, or compiled in when acpgen
// ran with -bake), [SessionUpdateToV2] and [SessionUpdateToV1] convert them
// one to one: items, file, markdown and unknown plan contents keep their
// kind and plan ID, and an unknown content keeps its JSON object byte for
// byte. In that build a v2 "items" plan whose ID is not [MainPlanID] becomes
// a v1 "plan_update" instead of a v1 "plan"; the plan with ID [MainPlanID]
// is still converted to the stable v1 "plan". A v1 peer only accepts
// "plan_update" and "plan_removed" when its client advertised the plan
// capability (ClientCapabilities.Plan); for other peers use [PlanToV1],
// which always yields the stable v1 plan.
//
// Without them (without the build tag, or when acpgen left the feature
// out), v1 "plan_update" and "plan_removed" updates are unknown to package
// acpv1 (they decode as *acpv1.SessionUpdateOther) and [SessionUpdateToV2]
// reports them as not representable.
//
// # Types of the same shape
//
// Every object type whose shape is the same in both versions (the same
// members, required alike, of types of the same shape, see
// ir.CompareTypes), and whose members are all stable, named and free of
// unions, converts member by member both ways: ImplementationToV2 and
// ImplementationToV1, and so on for each (types.go, generated from the
// schemas). These conversions cannot fail.
//
// # Both versions on one endpoint
//
// When both schemas have the definitions they are written against (acpgen
// checks them, and leaves these files out with a warning otherwise), the
// package also joins the two versions' connections: InitializeForV1 and
// InitializeForV2 are the Initialize of a version router's routes (package
// acprouter of acpgen, which takes them as they are); Negotiate offers an
// agent v2 and continues on v1 when the agent speaks only v1; and
// NewBridge serves a v1 client with an agent written against v2
// (acpv2.Agent), converting each call both ways.
//
// # Aliasing
//
// Results share no memory with their inputs: slices, pointers and raw JSON
// values are copied.
package convert
