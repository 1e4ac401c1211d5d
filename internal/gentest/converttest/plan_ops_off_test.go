//go:build !unstable_plan_operations && !unstable

package converttest

// planOpsBuild reports whether plan operations are built.
const planOpsBuild = false
