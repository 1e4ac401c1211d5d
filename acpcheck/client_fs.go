package acpcheck

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
)

// clientFS is what a v1 client advertised under clientCapabilities.fs.
type clientFS struct {
	ReadTextFile  bool `json:"readTextFile"`
	WriteTextFile bool `json:"writeTextFile"`
}

func (r *clientRun) fsCaps() clientFS {
	var fs clientFS
	if r.version == 1 {
		_ = json.Unmarshal(r.caps["fs"], &fs)
	}
	return fs
}

// writeFile writes one new file, acpcheck-<random>.txt, in the cwd the
// client gave the session, where the client advertised
// fs.writeTextFile, and reads it back where it advertised
// fs.readTextFile. A client that did not advertise writes is sent none.
func (r *clientRun) writeFile(sid string) {
	fs := r.fsCaps()
	if !fs.WriteTextFile || !filepath.IsAbs(r.cwd) {
		return
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := "acpcheck-" + hex.EncodeToString(b[:]) + ".txt"
	path := filepath.Join(r.cwd, name)
	content := "written by acpcheck, " + name + "\nsecond line\n"
	res, err := r.c.call("fs/write_text_file", map[string]any{"sessionId": sid, "path": path, "content": content})
	if err != nil || res.Error != nil {
		r.verdict(ClientFSWrite, Fail, "fs/write_text_file %s: %s", path, errText(res, err))
		return
	}
	r.verdict(ClientFSWrite, Pass, "wrote %s", path)
	if !fs.ReadTextFile {
		return
	}
	res, err = r.c.call("fs/read_text_file", map[string]any{"sessionId": sid, "path": path})
	if err != nil || res.Error != nil {
		r.verdict(ClientFSReadBack, Fail, "fs/read_text_file %s after writing it: %s", path, errText(res, err))
		return
	}
	var out struct {
		Content string `json:"content"`
	}
	if json.Unmarshal(res.Result, &out) != nil || out.Content != content {
		r.verdict(ClientFSReadBack, Fail, "read %s back as %q, not the %q written", path, out.Content, content)
		return
	}
	r.verdict(ClientFSReadBack, Pass, "read %s back unchanged", path)
}
