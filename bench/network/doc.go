// Package network benchmarks ACP over the network: 1,000 connections to an
// agent over WebSocket and over Streamable HTTP, acpgen's acphttp against
// the TypeScript SDK's AcpServer. Run it with `make bench-net` from the
// repository root.
package network
