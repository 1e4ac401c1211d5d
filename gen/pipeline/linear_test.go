package pipeline

import "testing"

// TestOutputLinearInDepth: each level of nesting adds the same amount of
// generated code, however deep it is: the output does not grow with the
// square of the depth (names that spell out the way to a deep inline type
// would make it).
func TestOutputLinearInDepth(t *testing.T) {
	size := func(depth int) int {
		out, err := Generate(schemaFS(nestedObjects(depth)))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, data := range out.Files {
			n += len(data)
		}
		return n
	}
	s100, s200, s400 := size(100), size(200), size(400)
	shallow, deep := float64(s200-s100)/100, float64(s400-s200)/200
	if deep > 1.02*shallow {
		t.Errorf("a level adds %.0f bytes between depths 100 and 200, %.0f between 200 and 400", shallow, deep)
	}
}
