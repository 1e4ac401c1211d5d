package conformance

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Objects returns every JSON object in the corpus of version that has a
// string member named key, at any depth, as written in the corpus files and
// without duplicates: seeds for the fuzz targets of a union tagged by key.
// It returns none when the corpus is absent, so that a checkout without it
// still fuzzes from the inline seeds.
func Objects(tb testing.TB, version, key string) [][]byte {
	tb.Helper()
	dir := filepath.Join(Dir, version)
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		tb.Fatal(err)
	}
	w := &objectWalker{key: key, seen: map[string]bool{}}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		w.walk(data)
	}
	return w.out
}

// objectWalker collects the objects with a string member key.
type objectWalker struct {
	key  string
	seen map[string]bool
	out  [][]byte
}

func (w *objectWalker) walk(raw json.RawMessage) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil {
		var s string
		if v, ok := obj[w.key]; ok && json.Unmarshal(v, &s) == nil && !w.seen[string(raw)] {
			w.seen[string(raw)] = true
			w.out = append(w.out, append([]byte(nil), raw...))
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			w.walk(obj[k])
		}
		return
	}
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) == nil {
		for _, e := range arr {
			w.walk(e)
		}
	}
}
