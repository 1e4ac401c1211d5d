package pipeline

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/schema"
)

// TestDefaultBranches lists, for each of the four pinned schema files, every
// tagged union with a branch without tag, and what the IR decided of it:
// whether the branch leaves the tag free (it then keeps the tag it was
// decoded with) and whether an unknown tag decodes into it (the schema has
// no branch of its own for unknown tags). A schema update that adds one
// fails here, so that its decoding is looked at.
func TestDefaultBranches(t *testing.T) {
	want := map[string][]string{
		"v1/schema.json": {
			"AuthMethod agent: tag free, takes unknown tags",
			"McpServer stdio: tag free, takes unknown tags",
			"MultiSelectItems titled: tag free",
			"SetSessionConfigOptionRequest value_id: tag free, takes unknown tags",
		},
		"v1/schema.unstable.json": {
			"AuthMethod agent: tag free, takes unknown tags",
			"IdleStateUpdate none: tag constrained",
			"McpServer stdio: tag free, takes unknown tags",
			"MultiSelectItems titled: tag free",
			"SetSessionConfigOptionRequest value_id: tag free, takes unknown tags",
		},
		"v2/schema.json": {
			"IdleStateUpdate none: tag constrained",
			"MultiSelectItems titled: tag free",
		},
		"v2/schema.unstable.json": {
			"IdleStateUpdate none: tag constrained",
			"MultiSelectItems titled: tag free",
		},
	}
	for file, w := range want {
		p, err := buildFile(schema.FS, file, ir.Options{Name: "x", Version: file[:2]})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ty := range p.Types {
			u := ty.Union
			if ty.Kind != ir.Union || u.Tag == "" || u.Default == nil {
				continue
			}
			what := "tag constrained"
			if u.DefaultTag {
				what = "tag free"
			}
			if u.UnknownDefault {
				what += ", takes unknown tags"
			}
			got = append(got, fmt.Sprintf("%s %s: %s", ty.Name, u.Default.Name, what))
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s: default branches\n%q\nwant\n%q", file, got, w)
		}
	}
}
