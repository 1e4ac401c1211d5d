package ir_test

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

func buildFile(t *testing.T, path string) *ir.Package {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseBuild(t, path, data)
}

// TestFeatureInference merges a tiny stable and unstable schema, assigns
// features from a tiny map, and checks every unstable item's tags and the
// warnings against testdata/features/expected.txt.
func TestFeatureInference(t *testing.T) {
	const dir = "testdata/features/"
	p, err := ir.Merge(buildFile(t, dir+"schema.json"), buildFile(t, dir+"schema.unstable.json"), "schema.json", "schema.unstable.json")
	if err != nil {
		t.Fatal(err)
	}
	var fm ir.FeatureMap
	data, err := os.ReadFile(dir + "features.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &fm); err != nil {
		t.Fatal(err)
	}
	warnings := ir.AssignFeatures(p, fm)

	var got []string
	tags := func(g ir.Gate) string {
		if len(g.Features) == 0 {
			return ir.Umbrella
		}
		return strings.Join(g.Features, ",")
	}
	for _, ty := range p.Types {
		if ty.Unstable {
			got = append(got, fmt.Sprintf("type %s %s", ty.Name, tags(ty.Gate)))
			continue
		}
		for _, f := range ty.Fields {
			if f.Unstable {
				got = append(got, fmt.Sprintf("field %s.%s %s", ty.Name, f.JSONName, tags(f.Gate)))
			}
		}
		if ty.Union != nil {
			for _, v := range ty.Union.Variants {
				if v.Unstable {
					got = append(got, fmt.Sprintf("variant %s.%s %s", ty.Name, v.Tag, tags(v.Gate)))
				}
			}
		}
	}
	for _, m := range p.Methods {
		if m.Unstable {
			got = append(got, fmt.Sprintf("method %s %s", m.Name, tags(m.Gate)))
		}
	}
	sort.Strings(got)
	for _, w := range warnings {
		got = append(got, "warning: "+w)
	}
	want, err := os.ReadFile(dir + "expected.txt")
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(got, "\n") + "\n"; g != string(want) {
		t.Errorf("inferred features:\n%s\nwant:\n%s", g, want)
	}
	// Shared items keep the stable file's docs.
	for _, ty := range p.Types {
		if ty.Name == "Caps" && ty.Doc != "Capabilities." {
			t.Errorf("Caps doc %q, want the stable file's", ty.Doc)
		}
	}
}

// TestMergeConflict: a shared property whose type changed is an error that
// names both locations.
func TestMergeConflict(t *testing.T) {
	stable := `{"$defs":{"A":{"type":"object","properties":{"n":{"type":"string"}}}}}`
	unstable := `{"$defs":{"A":{"type":"object","properties":{"n":{"type":"integer"}}}}}`
	_, err := ir.Merge(parseBuild(t, "s.json", []byte(stable)), parseBuild(t, "u.json", []byte(unstable)), "s.json", "u.json")
	if err == nil {
		t.Fatal("no error for a property whose type differs")
	}
	for _, want := range []string{"s.json#/$defs/A/properties/n", "u.json: /$defs/A/properties/n"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}

// TestUmbrellaOnly: items the map lists under the umbrella name stay behind
// the umbrella tag alone, without a warning; a type that both a feature's
// item and an umbrella-only item use (as SystemPrompt is, by session fork
// and by the systemPrompt fields) gets the feature, so that it builds under
// either tag; stale umbrella entries are reported like any other.
func TestUmbrellaOnly(t *testing.T) {
	stable := `{"$defs":{
		"NewRequest":{"type":"object","properties":{"cwd":{"type":"string"}},"x-method":"session/new","x-side":"agent"},
		"NewResponse":{"type":"object","properties":{},"x-method":"session/new","x-side":"agent"},
		"Caps":{"type":"object","properties":{"fs":{"type":"boolean"}}}}}`
	unstable := `{"$defs":{
		"NewRequest":{"type":"object","properties":{"cwd":{"type":"string"},"systemPrompt":{"$ref":"#/$defs/Prompt"}},"x-method":"session/new","x-side":"agent"},
		"NewResponse":{"type":"object","properties":{},"x-method":"session/new","x-side":"agent"},
		"Caps":{"type":"object","properties":{"fs":{"type":"boolean"},"archive":{"$ref":"#/$defs/ArchiveCaps"}}},
		"Prompt":{"type":"object","properties":{"text":{"type":"string"}}},
		"ArchiveCaps":{"type":"object","properties":{}},
		"ForkRequest":{"type":"object","properties":{"systemPrompt":{"$ref":"#/$defs/Prompt"}},"x-method":"session/fork","x-side":"agent"},
		"ForkResponse":{"type":"object","properties":{},"x-method":"session/fork","x-side":"agent"}}}`
	p, err := ir.Merge(parseBuild(t, "s.json", []byte(stable)), parseBuild(t, "u.json", []byte(unstable)), "s.json", "u.json")
	if err != nil {
		t.Fatal(err)
	}
	warnings := ir.AssignFeatures(p, ir.FeatureMap{
		"unstable_session_fork": {Types: []string{"ForkRequest", "ForkResponse"}},
		ir.Umbrella: {
			Types:  []string{"ArchiveCaps", "Gone"},
			Fields: []string{"Caps.archive", "NewRequest.systemPrompt"},
		},
	})
	want := `feature map: unstable names 1 item(s) the schema does not have: type Gone`
	if strings.Join(warnings, "\n") != want {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), want)
	}
	got := map[string]string{}
	for _, ty := range p.Types {
		got["type "+ty.Name] = strings.Join(ty.Features, ",")
		for _, f := range ty.Fields {
			if f.Unstable {
				got["field "+ty.Name+"."+f.JSONName] = strings.Join(f.Features, ",")
			}
		}
	}
	for item, features := range map[string]string{
		"type Prompt":                   "unstable_session_fork",
		"type ForkRequest":              "unstable_session_fork",
		"type ArchiveCaps":              "",
		"field Caps.archive":            "",
		"field NewRequest.systemPrompt": "",
	} {
		if got[item] != features {
			t.Errorf("%s: features %q, want %q", item, got[item], features)
		}
	}
}
