package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/acpgen/acpgen/internal/node"
)

// ThirdPartyDir returns the absolute path of interop/thirdparty, whose
// package.json and lock file pin the third-party ACP programs the tests run.
func ThirdPartyDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "interop", "thirdparty")
}

// ThirdParty returns the absolute path of rel under the pinned programs'
// node_modules. It skips the test when node is not installed, and, when
// they are not installed, skips it saying how to install them, or fails it
// where node.RequireEnv is set.
func ThirdParty(t testing.TB, rel string) string {
	t.Helper()
	Node(t)
	path := filepath.Join(ThirdPartyDir(), "node_modules", filepath.FromSlash(rel))
	if _, err := os.Stat(path); err != nil {
		node.Missing(t, "the pinned third-party programs (interop/thirdparty/node_modules) are", "make thirdparty", err)
	}
	return path
}
