package pipeline

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/emit"
)

// TestEmitCannotFail: for every version of every hostile schema and of every
// seed of FuzzSchema that passes the check stage (check and names), emit
// runs without panicking and what it builds formats and type-checks with
// no build tags and with -tags unstable. A version that the check stage
// rejects belongs to a case whose want is that error.
func TestEmitCannotFail(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks many generated packages")
	}
	type input struct {
		name, want string
		fsys       fs.FS
	}
	var inputs []input
	for _, c := range hostileCases(t) {
		inputs = append(inputs, input{"hostile/" + c.name, c.want, c.fsys})
	}
	m := newMutator(t)
	for i, s := range m.seeds(t) {
		inputs = append(inputs, input{fmt.Sprintf("fuzz/%d", i), "", m.mutate(t, s.root, s.op, s.arg, s.s)})
	}
	// And a spread of the pinned schema's definitions that are not a
	// method's params or result (cut down, those lack their pair) as roots,
	// unchanged and with a property added that refers to another one.
	names := sortedNames(clone(t, m.stable))
	for i := 0; i < len(names); i += 7 {
		if strings.HasSuffix(names[i], "Request") || strings.HasSuffix(names[i], "Response") || strings.HasSuffix(names[i], "Notification") {
			continue
		}
		inputs = append(inputs,
			input{"fuzz/" + names[i], "", m.mutate(t, uint16(i), opNone, 0, "")},
			input{"fuzz/" + names[i] + "+prop", "", m.mutate(t, uint16(i), opAddProperty, uint16(len(names)-1-i), "added")})
	}
	emitted, rejected := 0, 0
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			passed, failed := emitChecked(t, in.fsys)
			emitted += passed
			rejected += failed
			if in.want == "ok" && failed > 0 {
				t.Errorf("a version of a schema that generates did not pass the check stage")
			}
		})
	}
	// Both kinds must be there, or the test proves nothing.
	t.Logf("%d versions passed the check stage and were emitted; %d did not", emitted, rejected)
	if emitted < 10 || rejected < 10 {
		t.Errorf("%d versions passed the check stage and %d did not; want at least 10 of each", emitted, rejected)
	}
}

// emitChecked builds each version of fsys through the check stage, and
// emits, renders and type-checks the ones that pass; it returns how many
// passed and how many the check stage (or an earlier one) rejected.
func emitChecked(t *testing.T, fsys fs.FS) (passed, rejected int) {
	t.Helper()
	in, err := readInputs(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range in.versions {
		p, _, err := in.build(fsys, v)
		if err != nil {
			rejected++
			continue
		}
		passed++
		var files []emit.File
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s: emit panicked on a checked package: %v", v.Name, r)
				}
			}()
			files = slices.Collect(emit.Files(p))
		}()
		rendered, err := emit.Render(v.Package, slices.Values(files))
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		out := map[string][]byte{}
		for name, data := range rendered {
			if strings.HasSuffix(name, "_test.go") {
				continue // a test file of the package, not part of it
			}
			out[v.Package+"/"+name] = data
		}
		for _, tags := range []string{"", "unstable"} {
			typeCheck(t, out, tags)
		}
	}
	return passed, rejected
}
