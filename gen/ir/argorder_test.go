package ir

import (
	"slices"
	"testing"
)

func fields(names ...string) []*Field {
	var out []*Field
	for _, n := range names {
		out = append(out, &Field{JSONName: n})
	}
	return out
}

func jsonNames(fs []*Field) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.JSONName)
	}
	return out
}

// TestArgumentOrder: sessionId first, cwd next, the rest in schema order,
// whatever order the schema lists them in.
func TestArgumentOrder(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"mcpServers", "cwd", "sessionId"}, []string{"sessionId", "cwd", "mcpServers"}}, // session/load
		{[]string{"cwd", "mcpServers"}, []string{"cwd", "mcpServers"}},                           // session/new
		{[]string{"sessionId", "cwd"}, []string{"sessionId", "cwd"}},                             // session/resume
		{[]string{"command", "cwd"}, []string{"cwd", "command"}},
		{[]string{"toolCall", "sessionId", "options"}, []string{"sessionId", "toolCall", "options"}},
		{nil, nil},
	} {
		fs := fields(c.in...)
		argumentOrder(fs)
		if got := jsonNames(fs); !slices.Equal(got, c.want) {
			t.Errorf("%v: %v, want %v", c.in, got, c.want)
		}
	}
}

// TestArgumentPermutation: a variant's sessionId goes before the union's
// shared members; nil when nothing moves.
func TestArgumentPermutation(t *testing.T) {
	if got := argumentPermutation(fields("elicitationId", "url"), fields("sessionId")); !slices.Equal(got, []int{2, 0, 1}) {
		t.Errorf("got %v, want [2 0 1]", got)
	}
	if got := argumentPermutation(fields("sessionId"), fields("text")); got != nil {
		t.Errorf("got %v, want nil", got)
	}
}
