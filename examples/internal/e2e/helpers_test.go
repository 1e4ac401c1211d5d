package e2e

import (
	"fmt"
	"os"
	"testing"
)

// buildError is a failed go build of an example.
type buildError struct {
	name string
	err  error
	out  []byte
}

func (e *buildError) Error() string { return fmt.Sprintf("building %s: %v\n%s", e.name, e.err, e.out) }

// tempDir makes the directory the binaries are built in, shared by the
// tests of the package and removed by TestMain.
func tempDir() (string, error) { return os.MkdirTemp("", "acpgen-examples") }

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}
