// Package node runs the pinned TypeScript SDK (@agentclientprotocol/sdk, see
// interop/package.json and its lock file) for tests that compare acpgen with
// it. Tests skip with a message where node is not installed, and where the
// pinned packages are not installed they skip saying the command that
// installs them, unless the environment variable RequireEnv is set (make test
// sets it, and so CI does): then a missing install is a failure.
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

// RequireEnv is the environment variable that, set to a non-empty value,
// makes a missing npm install a test failure instead of a skip.
const RequireEnv = "ACPGEN_REQUIRE_NPM"

// Missing skips t, or fails it when RequireEnv is set, for programs that
// npm has not installed: what names them, command is what installs them,
// err is why they were not found.
func Missing(t testing.TB, what, command string, err error) {
	t.Helper()
	msg := what + " not installed: run `" + command + "` (" + err.Error() + ")"
	if os.Getenv(RequireEnv) != "" {
		t.Fatal(msg)
	}
	t.Skip(msg + "; set " + RequireEnv + "=1 to make this a failure")
}

// Require returns the path of the node binary, skipping t when node is not
// installed and calling Missing when the pinned packages are not installed.
func Require(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the tests against the TypeScript SDK need node and npm (then `make interop`)")
	}
	if _, err := os.Stat(filepath.Join(Dir(), "node_modules", "@agentclientprotocol", "sdk", "package.json")); err != nil {
		Missing(t, "the pinned TypeScript SDK (interop/node_modules) is", "make interop", err)
	}
	return bin
}
