//go:build !unstable

// Package buildtag tells the tests of the generated packages which build
// tags they were compiled with.
package buildtag

// Unstable reports whether the umbrella tag, which enables every unstable
// feature, is on.
const Unstable = false
