//go:build unix

package acpexec

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// processAlive reports whether pid is a process that is not a zombie.
func processAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: signal 0 found it
	}
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z"
}

func TestOwnGroup(t *testing.T) {
	p := start(t, "echo", short)
	pgid, err := syscall.Getpgid(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	if pgid != p.Pid() || pgid == syscall.Getpgrp() {
		t.Errorf("the agent's group is %d, want its own %d (ours is %d)", pgid, p.Pid(), syscall.Getpgrp())
	}
}
