package ir

import (
	"fmt"
	"sort"
	"strings"

	"github.com/acpgen/acpgen/gen/diag"
)

// RemoveTags marks the tags a protocol version removed, keyed "Union.tag"
// with the reason as value, so that decoding them is an error. A key whose
// union is missing is a warning; one that names a tag the union still has is
// an error.
func RemoveTags(p *Package, removed map[string]string) ([]string, error) {
	types := map[string]*Type{}
	for _, t := range p.Types {
		types[t.Name] = t
	}
	var keys []string
	for k := range removed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var warnings []string
	for _, k := range keys {
		owner, tag, ok := strings.Cut(k, ".")
		t := types[owner]
		if !ok || t == nil || t.Union == nil || t.Union.Tag == "" {
			warnings = append(warnings, fmt.Sprintf("removed tags: %s names no tagged union of the schema", k))
			continue
		}
		if findVariant(t, tag) != nil {
			return nil, diag.New("removed.json", "/"+p.Version+"/"+diag.EscapePointer(k), "%s is listed as removed, but the schema still has the variant %q", k, tag)
		}
		t.Union.Removed = append(t.Union.Removed, RemovedTag{Tag: tag, Reason: removed[k]})
	}
	return warnings, nil
}
