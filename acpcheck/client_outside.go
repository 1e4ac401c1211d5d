package acpcheck

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// outside asks the client to read and write a file outside the session's
// cwd, by an absolute path in cwd's parent and by the same path through
// "..", where the client advertised the file system: each must be refused.
// A read answered "resource not found" counts as looked up, not refused.
// A file a client wrongly wrote is removed where the kit can see it.
func (r *clientRun) outside(sid string) {
	fs := r.fsCaps()
	if !fs.ReadTextFile && !fs.WriteTextFile || !filepath.IsAbs(r.cwd) || filepath.Dir(r.cwd) == r.cwd {
		return
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := "acpcheck-outside-" + hex.EncodeToString(b[:]) + ".txt"
	paths := []string{filepath.Join(filepath.Dir(r.cwd), name), strings.TrimSuffix(r.cwd, "/") + "/../" + name}
	var bad, used []string
	for _, path := range paths {
		if fs.ReadTextFile {
			used = append(used, "read "+path)
			res, err := r.c.call("fs/read_text_file", map[string]any{"sessionId": sid, "path": path})
			switch {
			case err != nil:
				bad = append(bad, "read "+path+": "+err.Error())
			case res.Error == nil:
				bad = append(bad, "read "+path+": answered its content")
			case res.Error.Code == -32002:
				bad = append(bad, "read "+path+": looked it up (resource not found) instead of refusing it")
			}
		}
		if fs.WriteTextFile {
			used = append(used, "write "+path)
			res, err := r.c.call("fs/write_text_file", map[string]any{"sessionId": sid, "path": path, "content": "acpcheck: a client must not write this file\n"})
			switch {
			case err != nil:
				bad = append(bad, "write "+path+": "+err.Error())
			case res.Error == nil:
				bad = append(bad, "write "+path+": answered success")
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				bad = append(bad, "write "+path+": the file exists")
				_ = os.Remove(filepath.Clean(path))
			}
		}
	}
	if len(bad) > 0 {
		r.verdict(ClientFSOutside, Fail, "%s", strings.Join(bad, "; "))
		return
	}
	r.verdict(ClientFSOutside, Pass, "refused: %s", strings.Join(used, ", "))
}
