//go:build unstable

package acpv2

// unstableBuild reports whether the umbrella tag, which enables every
// unstable feature, is on.
const unstableBuild = true
