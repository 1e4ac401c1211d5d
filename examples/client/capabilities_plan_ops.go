//go:build unstable_plan_operations || unstable

package main

import "github.com/acpgen/acpgen/generated/acpv1"

// initializeRequest is the client's initialize: protocol version 1, with
// the capabilities of what duties serves (files and terminals) and the
// plan client capability, so that the agent may send plan_update and
// plan_removed.
func initializeRequest() *acpv1.InitializeRequest {
	r := acpv1.NewInitializeRequest(1)
	r.ClientCapabilities = duties.V1().Capabilities()
	r.ClientCapabilities.Plan = &acpv1.PlanCapabilities{}
	return r
}
