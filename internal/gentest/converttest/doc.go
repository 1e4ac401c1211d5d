// Package converttest holds the tests of the generated package convert that
// need none of its unexported names: the bridge between a v1 peer and a v2
// program, the client's version negotiation (against the TypeScript SDK's
// agents too) and the router's Initialize of each version. The tests that
// must sit inside the package stay in generated/convert; docs/design.md
// says which.
package converttest
