package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// ThirdPartyDir returns the absolute path of interop/thirdparty, whose
// package.json and lock file pin the third-party ACP programs the tests run.
func ThirdPartyDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "interop", "thirdparty")
}

// ThirdParty returns the absolute path of rel under the pinned programs'
// node_modules. It skips the test when node is not installed, and fails it,
// saying how to install them, when they are not installed.
func ThirdParty(t testing.TB, rel string) string {
	t.Helper()
	Node(t)
	path := filepath.Join(ThirdPartyDir(), "node_modules", filepath.FromSlash(rel))
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the pinned third-party programs are not installed: run `make thirdparty` (npm install in %s): %v", ThirdPartyDir(), err)
	}
	return path
}
