//go:build !unstable_plan_operations && !unstable

package convert

// planOpsBuild reports whether plan operations are built.
const planOpsBuild = false
