// Package zoddiff is a differential test of a generated package against the
// zod schemas of the pinned TypeScript SDK (interop/). The same inputs — the
// conformance corpus, mutants of it, and one synthetic value per definition
// and variant with their mutants — are decoded by the generated decoders and
// by the SDK's zod parsers, in one node process. Where the two disagree on
// whether a value is acceptable, the pinned JSON schema with the reference
// decoder's x-deserialize-* rules applied decides; where both accept, the Go
// value encoded again must keep what zod keeps. The test fails on each
// disagreement that the schema does not resolve in acpgen's favour and that
// the allow-list (allow.go) does not name.
package zoddiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/jsontest"
	"github.com/acpgen/acpgen/internal/node"
)

// Package is what the test knows of the generated package under test.
type Package struct {
	Version  string // "v1" or "v2"
	Unstable bool   // built with the umbrella tag: compare with the unstable schema
	// Definitions returns a new value of the Go type of each $defs entry,
	// by schema name.
	Definitions map[string]func() any

	methods map[string]bool // the methods the schema defines
}

// input is one value of one definition, with the Go decoder's result.
type input struct {
	def    string
	data   []byte
	origin string // corpus, mutant, synthetic

	goErr    error
	goOut    []byte   // the decoded value encoded again
	goOther  bool     // the decoded value holds an unknown variant
	goOthers []string // the Go names of the unknown variants it holds

	unknownTag bool // a value of a default union given an unknown tag
}

// result is zod's result for one value.
type result struct {
	OK  bool            `json:"ok"`
	Out json.RawMessage `json:"out"`
	Err string          `json:"err"`
}

// verdict is zod's answer for one input: for the input itself and for the
// Go decoder's output (Back) when it accepted the input.
type verdict struct {
	Missing bool `json:"missing"`
	result
	Back *result `json:"back"`
}

// Run feeds the inputs to both decoders and reports the disagreements.
func Run(t *testing.T, p Package) {
	bin := node.Require(t)
	file, surface := p.Version+"/schema.json", "stable"
	if p.Unstable {
		file, surface = p.Version+"/schema.unstable.json", "unstable"
	}
	arb, doc, err := newArbiter(file, false)
	if err != nil {
		t.Fatal(err)
	}
	strict, _, err := newArbiter(file, true)
	if err != nil {
		t.Fatal(err)
	}
	defs, _ := doc["$defs"].(map[string]any)
	for name := range p.Definitions {
		if _, ok := defs[name]; !ok {
			// Some feature tags on without the umbrella one: the SDK ships
			// zod schemas for the whole stable or whole unstable surface only.
			t.Skipf("%s is not in %s: the differential test runs without tags or with -tags unstable", name, file)
		}
	}
	types, methods, err := nullTypes(file)
	if err != nil {
		t.Fatal(err)
	}
	p.methods = methods
	unions := defaultUnions(types)
	others := defaultOthers(p, unions)
	inputs := collect(t, p, file, &instanceMaker{defs: defs}, unions)
	checkCoverage(t, inputs, unions, others)
	verdicts := runZod(t, bin, p.Version, surface, inputs)

	var r report
	for i, in := range inputs {
		v := verdicts[i]
		if v.Missing {
			r.noZod++
			continue
		}
		r.compared++
		if u := keptAsUnknown(in, others); u != "" {
			if valid, err := arb.valid(in.def, in.data); err == nil && valid {
				r.wrong = append(r.wrong, fmt.Sprintf("%s %s: acpgen keeps an unknown %s variant that the schema reads as its branch without tag", in.def, in.data, u))
				continue
			}
		}
		r.judge(p, arb, strict, types, in, v)
	}
	t.Logf("%s %s: %d inputs (%d without a zod schema), %d agree, %d where acpgen is right by the schema, %d allowed (%s), %d where the schema sides with zod",
		p.Version, surface, len(inputs), r.noZod, r.compared-r.right-r.allowedTotal()-len(r.wrong), r.right,
		r.allowedTotal(), r.allowedSummary(), len(r.wrong))
	if len(r.wrong) > 0 {
		sort.SliceStable(r.wrong, func(i, j int) bool { return r.wrong[i] < r.wrong[j] })
		n := len(r.wrong)
		if n > 60 && !testing.Verbose() {
			r.wrong = r.wrong[:60]
		}
		t.Errorf("%d disagreements with zod where the schema does not side with acpgen:\n%s", n, strings.Join(r.wrong, "\n"))
	}
}

// collect gathers the inputs, each (definition, value) once.
func collect(t *testing.T, p Package, file string, m *instanceMaker, unions map[string]string) []input {
	seen := map[string]bool{}
	var out []input
	add := func(def, origin string, v any) {
		unknownTag := strings.HasSuffix(origin, "unknown tag")
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", def, err)
		}
		key := def + "\x00" + string(data)
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, decodeGo(p, input{def: def, data: data, origin: origin, unknownTag: unknownTag}))
	}
	addAll := func(def, origin string, v any, depth int) {
		add(def, origin, v)
		for _, mv := range mutants(deepCopy(v), depth) {
			add(def, origin+" mutant", mv)
		}
	}
	if _, err := os.Stat(filepath.Join(conformance.Dir, p.Version)); err == nil {
		s := conformance.LoadSchema(t, file)
		for _, msg := range conformance.Messages(t, p.Version) {
			if msg.Draft && !p.Unstable {
				continue
			}
			def := s.Def(msg)
			if def == "" || p.Definitions[def] == nil {
				continue
			}
			v, err := jsontest.Value(msg.Params)
			if err != nil {
				t.Fatalf("%s: %v", msg.Name, err)
			}
			addAll(def, "corpus "+msg.Name, v, 3)
		}
	} else {
		t.Logf("no conformance corpus at %s: synthetic inputs only", conformance.Dir)
	}
	names := make([]string, 0, len(p.Definitions))
	for name := range p.Definitions {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, v := range m.instances(name) {
			addAll(name, "synthetic", v, 1)
			if tag, ok := unions[name]; ok {
				for _, u := range withUnknownTags(v, tag) {
					add(name, "synthetic unknown tag", u)
				}
			}
		}
	}
	return out
}

// runZod decodes every input in one node process.
func runZod(t *testing.T, bin, version, surface string, inputs []input) []verdict {
	var stdin bytes.Buffer
	for _, in := range inputs {
		if in.goErr == nil {
			fmt.Fprintf(&stdin, `{"def":%q,"data":%s,"back":%s}`+"\n", in.def, in.data, in.goOut)
		} else {
			fmt.Fprintf(&stdin, `{"def":%q,"data":%s}`+"\n", in.def, in.data)
		}
	}
	cmd := exec.Command(bin, filepath.Join(node.Dir(), "zoddiff.mjs"), version, surface)
	cmd.Stdin = &stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("node zoddiff.mjs: %v\n%s", err, stderr.Bytes())
	}
	lines := bytes.Split(bytes.TrimSuffix(stdout, []byte("\n")), []byte("\n"))
	if len(lines) != len(inputs) {
		t.Fatalf("node zoddiff.mjs answered %d of %d inputs", len(lines), len(inputs))
	}
	out := make([]verdict, len(lines))
	for i, line := range lines {
		if err := json.Unmarshal(line, &out[i]); err != nil {
			t.Fatalf("node zoddiff.mjs line %d: %v", i+1, err)
		}
	}
	return out
}

// decodeGo decodes in with the generated package and encodes it again.
func decodeGo(p Package, in input) input {
	val := p.Definitions[in.def]()
	if in.goErr = json.Unmarshal(in.data, val); in.goErr != nil {
		return in
	}
	in.goOther = holdsOther(reflect.ValueOf(val))
	others := map[string]bool{}
	otherTypes(reflect.ValueOf(val), others)
	for name := range others {
		in.goOthers = append(in.goOthers, name)
	}
	in.goOut, in.goErr = json.Marshal(val)
	if in.goErr != nil {
		in.goErr = fmt.Errorf("decoded, but does not encode: %w", in.goErr)
	}
	return in
}
