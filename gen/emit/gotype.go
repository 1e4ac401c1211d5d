package emit

import (
	"fmt"

	"github.com/acpgen/acpgen/gen/ir"
)

// FieldType returns the Go type that generated code declares for field f
// ("*string", "[]PlanEntry", "Nullable[bool]"), so that two revisions can
// be compared without generating them.
func FieldType(f *ir.Field) string { return fmt.Sprintf("%#v", fieldType(f)) }

// RefType returns the Go type of r as generated code spells it.
func RefType(r ir.Ref) string { return fmt.Sprintf("%#v", goType(r)) }
