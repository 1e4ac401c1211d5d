// Package revisions opens the corpus of published schema layouts of
// @agentclientprotocol/sdk (schema/testdata/revisions.tar.gz, made by
// schema/revisions.sh): every distinct set of schema files the npm package has
// shipped, each as a file system laid out as the package's schema/ folder.
package revisions

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing/fstest"
)

// Layout is one distinct set of schema files and the versions that shipped it.
type Layout struct {
	// Versions are the npm versions that shipped exactly these files, in
	// publishing order.
	Versions []string
	// Files maps each file's path in the package's schema/ folder to its sha256.
	Files map[string]string
	// FS holds the files at those paths.
	FS fstest.MapFS
}

// Name is the layout's first version, which names it in tests.
func (l Layout) Name() string { return l.Versions[0] }

// Path returns the absolute path of the corpus archive.
func Path() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "schema", "testdata", "revisions.tar.gz")
}

// Load reads the corpus; its layouts come in publishing order.
func Load() ([]Layout, error) {
	f, err := os.Open(Path())
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Path(), err)
	}
	files := map[string][]byte{}
	var index []Layout
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", Path(), err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", Path(), h.Name, err)
		}
		switch {
		case h.Name == "index.json":
			if err := json.Unmarshal(data, &index); err != nil {
				return nil, fmt.Errorf("%s: index.json: %w", Path(), err)
			}
		case strings.HasPrefix(h.Name, "files/"):
			files[strings.TrimPrefix(h.Name, "files/")] = data
		}
	}
	if len(index) == 0 {
		return nil, fmt.Errorf("%s: no layouts in index.json", Path())
	}
	for i := range index {
		l := &index[i]
		l.FS = fstest.MapFS{}
		for name, sum := range l.Files {
			data, ok := files[sum]
			if !ok {
				return nil, fmt.Errorf("%s: layout %s: %s (%s) is missing", Path(), l.Name(), name, sum)
			}
			l.FS[name] = &fstest.MapFile{Data: data}
		}
	}
	return index, nil
}

// Find returns the layout that holds version v.
func Find(layouts []Layout, v string) (Layout, bool) {
	for _, l := range layouts {
		for _, lv := range l.Versions {
			if lv == v {
				return l, true
			}
		}
	}
	return Layout{}, false
}
