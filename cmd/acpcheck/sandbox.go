package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/acpgen/acpgen/acpcheck"
)

// sandboxed makes the target run its command with no network: in a
// network namespace of its own with only loopback (unshare -rn), with an
// empty environment but PATH, HOME and TMPDIR, and a temporary HOME; it
// keeps the working directory, so that relative paths in the command work.
// It returns the directory to remove afterwards.
func sandboxed(c *acpcheck.CommandTarget) (string, error) {
	if runtime.GOOS != "linux" {
		return "", errors.New("-sandbox needs Linux's network namespaces")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		return "", errors.New("-sandbox needs unshare (util-linux)")
	}
	if out, err := exec.Command(unshare, "-rn", "true").CombinedOutput(); err != nil {
		return "", errors.New("-sandbox: unshare -rn: " + strings.TrimSpace(string(out)) + " " + err.Error())
	}
	root, err := os.MkdirTemp("", "acpcheck-sandbox-")
	if err != nil {
		return "", err
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(root, "home"), "TMPDIR=" + filepath.Join(root, "tmp")}
	for _, d := range []string{"home", "tmp"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o700); err != nil {
			os.RemoveAll(root)
			return "", err
		}
	}
	// sh brings loopback up, then execs the agent, so that the process the
	// kit supervises is the agent itself.
	const script = `ip link set lo up 2>/dev/null || ifconfig lo up 2>/dev/null; exec "$@"`
	c.Make = func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(unshare, append([]string{"-rn", "/bin/sh", "-c", script, "sh", name}, args...)...)
		cmd.Env = env
		return cmd
	}
	return root, nil
}
