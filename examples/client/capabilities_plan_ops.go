//go:build unstable_plan_operations || unstable

package main

import "github.com/acpgen/acpgen/generated/acpv1"

// initializeRequest is the client's initialize: protocol version 1, with
// the plan client capability, so that the agent may send plan_update and
// plan_removed.
func initializeRequest() *acpv1.InitializeRequest {
	r := acpv1.NewInitializeRequest(1)
	r.ClientCapabilities = &acpv1.ClientCapabilities{}
	r.ClientCapabilities.Plan = &acpv1.PlanCapabilities{}
	return r
}
