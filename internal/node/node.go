// Package node runs the pinned TypeScript SDK (@agentclientprotocol/sdk, see
// interop/package.json and its lock file) for tests that compare acpgen with
// it. Tests skip with a message only where node is not installed; where it is,
// a missing install is an error that says how to make it.
package node

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the absolute path of the interop directory, which holds the
// package.json and lock file that pin the SDK.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "interop")
}

// Require returns the path of the node binary, skipping t when node is not
// installed and failing it when the pinned packages are not installed.
func Require(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the tests against the TypeScript SDK need node and npm (then `make interop`)")
	}
	if _, err := os.Stat(filepath.Join(Dir(), "node_modules", "@agentclientprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("the pinned TypeScript SDK is not installed: run `make interop` (npm ci in %s): %v", Dir(), err)
	}
	return bin
}
