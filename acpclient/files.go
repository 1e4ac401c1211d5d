package acpclient

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// resolve returns path relative to dir, refusing a path that is not
// absolute, has a ".." element or is not inside dir. A symbolic link is
// not resolved here: the os.Root that opens the result refuses one that
// leads out.
func resolve(dir, path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", refusePath(path, "not an absolute path")
	}
	for _, e := range strings.Split(filepath.ToSlash(path), "/") {
		if e == ".." {
			return "", refusePath(path, `has a ".." element`)
		}
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", refusePath(path, "outside the session's directory "+dir)
	}
	return rel, nil
}

// explain turns an os.Root error on path into the Host's: a missing file,
// a path that leads out of the directory, or another refusal.
func explain(path string, err error) error {
	var pe *fs.PathError
	reason := err.Error()
	if errors.As(err, &pe) {
		reason = pe.Err.Error()
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &notFound{path: path}
	case strings.Contains(reason, "escapes"):
		return refusePath(path, "leads outside the session's directory through a symbolic link")
	case errors.Is(err, fs.ErrPermission):
		return refusePath(path, "permission denied")
	case errors.Is(err, syscall.EISDIR):
		return refusePath(path, "a directory")
	}
	return refusePath(path, reason)
}

// ReadFile returns the text of the file at path, an absolute path inside
// session sessionID's directory: from line line (numbered from 1; 0 is the
// first) and at most limit lines (0 is every line).
func (h *Host) ReadFile(sessionID, path string, line, limit int) (string, error) {
	dir, root, err := h.place(sessionID)
	if err != nil {
		return "", err
	}
	rel, err := resolve(dir, path)
	if err != nil {
		return "", err
	}
	f, err := root.Open(rel)
	if err != nil {
		return "", explain(path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", explain(path, err)
	}
	if info.IsDir() {
		return "", refusePath(path, "a directory")
	}
	if !info.Mode().IsRegular() {
		return "", refusePath(path, "not a regular file")
	}
	max := h.opts.MaxFileBytes
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return "", explain(path, err)
	}
	if int64(len(b)) > max {
		return "", refusePath(path, fmt.Sprintf("larger than %d bytes", max))
	}
	if !utf8.Valid(b) {
		return "", refusePath(path, "not UTF-8 text")
	}
	return string(lines(b, line, limit)), nil
}

// lines returns limit lines of b from line first (numbered from 1), each
// with its newline; limit 0 means every line to the end.
func lines(b []byte, first, limit int) []byte {
	for ; first > 1 && len(b) > 0; first-- {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return nil
		}
		b = b[i+1:]
	}
	if limit <= 0 {
		return b
	}
	end := 0
	for ; limit > 0 && end < len(b); limit-- {
		i := bytes.IndexByte(b[end:], '\n')
		if i < 0 {
			return b
		}
		end += i + 1
	}
	return b[:end]
}

// WriteFile writes content to the file at path, an absolute path inside
// session sessionID's directory, creating it (mode 0644, less the umask)
// and its missing parent directories.
func (h *Host) WriteFile(sessionID, path, content string) error {
	dir, root, err := h.place(sessionID)
	if err != nil {
		return err
	}
	rel, err := resolve(dir, path)
	if err != nil {
		return err
	}
	if rel == "." {
		return refusePath(path, "the session's directory itself")
	}
	if parent := filepath.Dir(rel); parent != "." {
		if err := root.MkdirAll(parent, 0o755); err != nil {
			return explain(path, err)
		}
	}
	if err := root.WriteFile(rel, []byte(content), 0o644); err != nil {
		return explain(path, err)
	}
	return nil
}
