//go:build !linux

package acpconductor

import "os/exec"

// dieWithConductor does nothing where the system has no parent-death
// signal: a component ends when the conductor ends it.
func dieWithConductor(cmd *exec.Cmd) {}
