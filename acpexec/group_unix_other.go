//go:build unix && !linux

package acpexec

// liveMember reports whether a process of group pgid is not a zombie; off
// Linux there is no /proc to tell, and every member that signal 0 finds
// counts as live, so that a zombie grandchild nobody reaps makes Close wait
// its grace periods out.
func liveMember(pgid int) bool { return true }
