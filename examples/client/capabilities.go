//go:build !unstable_plan_operations && !unstable

package main

import "github.com/acpgen/acpgen/generated/acpv1"

// initializeRequest is the client's initialize: protocol version 1, no
// capabilities.
func initializeRequest() *acpv1.InitializeRequest { return acpv1.NewInitializeRequest(1) }
