// Package e2e holds the end-to-end tests of the examples: it builds
// examples/agent and examples/client and runs them against each other, on
// the wire, over the network, behind HAProxy, against the TypeScript SDK
// and third-party clients; and it compiles the Go blocks of README.md and
// docs/ and checks their links. The programs a reader copies stay in
// examples/; this package is only their tests.
package e2e
