package pipeline

import (
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/schema"
)

// pinnedPair builds the pinned v1 and v2 packages and the gate of their
// plan operations.
func pinnedPair(t *testing.T) (v1, v2 *ir.Package, planOps *ir.Gate) {
	t.Helper()
	in, err := readInputs(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []*ir.Package
	for _, v := range in.versions {
		p, _, err := in.build(schema.FS, v)
		if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) != 2 {
		t.Fatalf("%d versions", len(pkgs))
	}
	return pkgs[0], pkgs[1], variant(pkgs[0], "SessionUpdate", "plan_update")
}

func typeNamed(p *ir.Package, name string) *ir.Type {
	for _, t := range p.Types {
		if t.Name == name {
			return t
		}
	}
	return nil
}

func methodNamed(p *ir.Package, name string) *ir.Method {
	for _, m := range p.Methods {
		if m.Name == name {
			return m
		}
	}
	return nil
}

func fieldNamed(t *ir.Type, name string) *ir.Field {
	for _, f := range t.Fields {
		if f.JSONName == name {
			return f
		}
	}
	return nil
}

// TestBridgeable checks what the bridge files need of the two schemas: the
// pinned ones have it all, and each change below, of the kind a schema
// revision makes, leaves the bridge out with an error that names the
// schema file and the definition.
func TestBridgeable(t *testing.T) {
	v1, v2, planOps := pinnedPair(t)
	if planOps == nil || !planOps.Unstable {
		t.Fatalf("the pinned plan operations are not unstable: %v", planOps)
	}
	if err := bridgeable(v1, v2, planOps); err != nil {
		t.Fatalf("the pinned schemas: %v", err)
	}
	for _, tc := range []struct {
		name   string
		change func(v1, v2 *ir.Package) (undo func())
		want   string
	}{
		{"a variant gone", func(_, v2 *ir.Package) func() {
			u := typeNamed(v2, "IdleStateUpdate").Union
			old := u.Variants
			var kept []*ir.Variant
			for _, v := range old {
				if v.Tag != "error" {
					kept = append(kept, v)
				}
			}
			u.Variants = kept
			return func() { u.Variants = old }
		}, "v2/schema.json: the bridge needs IdleStateUpdate:error, stable"},
		{"a required member made optional", func(v1, _ *ir.Package) func() {
			f := fieldNamed(typeNamed(v1, "PromptResponse"), "stopReason")
			f.Required = false
			return func() { f.Required = true }
		}, "v1/schema.json: the bridge needs PromptResponse.stopReason!, stable"},
		{"an optional member made required", func(v1, _ *ir.Package) func() {
			f := fieldNamed(typeNamed(v1, "InitializeRequest"), "clientInfo")
			f.Required = true
			return func() { f.Required = false }
		}, "v1/schema.json: the bridge needs InitializeRequest.clientInfo?, stable"},
		{"a method made unstable", func(_, v2 *ir.Package) func() {
			m := methodNamed(v2, "session/close")
			m.Unstable = true
			return func() { m.Unstable = false }
		}, "v2/schema.json: the bridge needs session/close, stable"},
		{"an enum value gone", func(v1, _ *ir.Package) func() {
			e := typeNamed(v1, "StopReason").Enum
			old := e.Values
			var kept []*ir.EnumValue
			for _, v := range old {
				if v.Name != "refusal" {
					kept = append(kept, v)
				}
			}
			e.Values = kept
			return func() { e.Values = old }
		}, "v1/schema.json: the bridge needs StopReason=refusal, stable"},
		{"a method the bridge does not serve made required", func(v1, _ *ir.Package) func() {
			m := methodNamed(v1, "authenticate")
			m.Required = true
			return func() { m.Required = false }
		}, "v1/schema.json: every agent must handle authenticate, which the bridge does not"},
		{"a conversion of another shape", func(_, v2 *ir.Package) func() {
			impl := typeNamed(v2, "Implementation")
			old := impl.Fields
			impl.Fields = append(append([]*ir.Field(nil), old...), &ir.Field{JSONName: "vendor", GoName: "Vendor", Required: true, Type: ir.Ref{Kind: ir.RefString}})
			return func() { impl.Fields = old }
		}, "the bridge converts Implementation member by member"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			undo := tc.change(v1, v2)
			defer undo()
			err := bridgeable(v1, v2, planOps)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestBridgeablePlanGate: the bridge's plan operations follow the
// package's gate.
func TestBridgeablePlanGate(t *testing.T) {
	v1, v2, _ := pinnedPair(t)
	if err := bridgeable(v1, v2, nil); err == nil || !strings.Contains(err.Error(), "ClientCapabilities.plan? without the plan operations") {
		t.Errorf("without the package's plan operations: %v", err)
	}
	other := &ir.Gate{Unstable: true, Features: []string{"unstable_session_fork"}}
	if err := bridgeable(v1, v2, other); err == nil || !strings.Contains(err.Error(), "not behind the plan operations' build tags") {
		t.Errorf("plan operations behind other tags: %v", err)
	}
}
