// Package acpv1test holds the tests of the generated package acpv1 that need
// none of its unexported names: they use it as a program does. The tests
// that must sit inside the package (internal tests, godoc examples) stay in
// generated/acpv1; docs/design.md says which.
package acpv1test
