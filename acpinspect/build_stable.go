//go:build !unstable

package acpinspect

// Decoding names the schema the generated packages decode with in this
// build: "unstable" with the umbrella tag, every unstable feature
// included; "stable" without it.
const Decoding = "stable"
