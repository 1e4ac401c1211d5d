package pipeline

import (
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/acpgen/acpgen/gen/load"
	"github.com/acpgen/acpgen/internal/cputime"
	"github.com/acpgen/acpgen/internal/revisions"
	"github.com/acpgen/acpgen/schema"
)

// BenchmarkGenerate times a whole run over the pinned schema (v1 and v2,
// stable and unstable), and over a few published revisions of other
// layouts, reporting the time per schema definition so that growth with
// schema size shows.
func BenchmarkGenerate(b *testing.B) {
	cases := []struct {
		name string
		fsys fs.FS
	}{{"pinned", schema.FS}}
	layouts, err := revisions.Load()
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range []string{"0.13.0", "1.2.1", "1.9.0", "2.0.0", "2.2.0"} {
		l, ok := revisions.Find(layouts, v)
		if !ok {
			b.Fatalf("the corpus has no %s", v)
		}
		cases = append(cases, struct {
			name string
			fsys fs.FS
		}{v, l.FS})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			benchGenerate(b, c.fsys, countDefs(b, c.fsys), "def")
		})
	}
}

// BenchmarkScale times generation from made-up schemas that grow one way at
// a time: inline objects nested depth deep, arrays nested depth deep, every
// other way a schema nests (nestingKinds) 100 to 3,000 deep, and n
// definitions side by side. Time per level or per definition stays flat
// when the cost is linear.
func BenchmarkScale(b *testing.B) {
	for _, depth := range []int{100, 300, 1000, 3000} {
		b.Run(fmt.Sprintf("objects=%d", depth), func(b *testing.B) {
			benchGenerate(b, schemaFS(nestedObjects(depth)), depth, "level")
		})
		b.Run(fmt.Sprintf("items=%d", depth), func(b *testing.B) {
			benchGenerate(b, schemaFS(nestedItems(depth)), depth, "level")
		})
	}
	for _, depth := range []int{100, 1000, 3000} {
		benchNesting(b, depth)
	}
	for _, depth := range []int{1000, 3000} {
		// Every level has a keyword acpgen refuses: the errors are
		// collected and located in the file.
		b.Run(fmt.Sprintf("refused=%d", depth), func(b *testing.B) {
			fsys := schemaFS(strings.ReplaceAll(nestedObjects(depth), `"type":"object",`, `"type":"object","not":{},`))
			measure(b, depth, "level", func() {
				if _, err := Generate(fsys); err == nil {
					b.Fatal("a schema with unsupported keywords generates")
				}
			})
		})
	}
	for _, n := range []int{1000, 10000, 20000} {
		b.Run(fmt.Sprintf("defs=%d", n), func(b *testing.B) {
			benchGenerate(b, schemaFS(manyDefs(n)), n, "def")
		})
	}
}

// benchGenerate generates from fsys b.N times.
func benchGenerate(b *testing.B, fsys fs.FS, units int, unit string) {
	measure(b, units, unit, func() {
		if _, err := Generate(fsys); err != nil {
			b.Fatal(err)
		}
	})
}

// measure runs op b.N times and reports per unit of the schema's size the
// wall time, the CPU time (on a machine shared with other work the wall
// time also counts the time spent waiting for a core) and the bytes
// allocated.
func measure(b *testing.B, units int, unit string, op func()) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := cputime.Process()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		op()
	}
	b.StopTimer()
	used := cputime.Process() - start
	runtime.ReadMemStats(&after)
	per := float64(b.N) * float64(units)
	b.ReportMetric(float64(units), unit+"s")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/per, "µs/"+unit)
	if used > 0 {
		b.ReportMetric(float64(used.Microseconds())/per, "cpu-µs/"+unit)
	}
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/"+unit)
}

func schemaFS(doc string) fs.FS {
	return fstest.MapFS{"v1/schema.json": {Data: []byte(doc)}}
}

// nestedObjects is one definition whose property "a" is an inline object
// whose property "a" is another, depth levels deep, each with a string.
func nestedObjects(depth int) string {
	var sb strings.Builder
	sb.WriteString(`{"$defs":{"Root":`)
	for range depth {
		sb.WriteString(`{"type":"object","required":["s"],"properties":{"s":{"type":"string"},"a":`)
	}
	sb.WriteString(`{"type":"string"}`)
	for range depth {
		sb.WriteString(`}}`)
	}
	sb.WriteString(`}}`)
	return sb.String()
}

// nestedItems is one definition with a property that is an array of
// arrays, depth levels deep, of a defined object.
func nestedItems(depth int) string {
	var sb strings.Builder
	sb.WriteString(`{"$defs":{"Leaf":{"type":"object","properties":{"s":{"type":"string"}}},`)
	sb.WriteString(`"Root":{"type":"object","properties":{"a":`)
	for range depth {
		sb.WriteString(`{"type":"array","items":`)
	}
	sb.WriteString(`{"$ref":"#/$defs/Leaf"}`)
	sb.WriteString(strings.Repeat(`}`, depth))
	sb.WriteString(`}}}}`)
	return sb.String()
}

// manyDefs is n definitions in groups of four: a struct that refers to the
// next group, an enum, a tagged union of two structs and an alias.
func manyDefs(n int) string {
	var sb strings.Builder
	sb.WriteString(`{"$defs":{`)
	for i := 0; i < n; i += 4 {
		if i > 0 {
			sb.WriteString(",")
		}
		next := (i + 4) % n
		fmt.Fprintf(&sb, `"Thing%d":{"type":"object","description":"Thing %d.","required":["id"],"properties":{"id":{"type":"string"},"count":{"type":"integer","format":"uint32"},"next":{"anyOf":[{"$ref":"#/$defs/Thing%d"},{"type":"null"}]},"kind":{"$ref":"#/$defs/Kind%d"},"tags":{"type":"array","items":{"type":"string"}}}},`, i, i, next, i)
		fmt.Fprintf(&sb, `"Kind%d":{"oneOf":[{"const":"a","type":"string"},{"const":"b","type":"string"}]},`, i)
		fmt.Fprintf(&sb, `"Event%d":{"oneOf":[{"type":"object","properties":{"type":{"const":"x","type":"string"},"thing":{"$ref":"#/$defs/Thing%d"}},"required":["type","thing"]},{"type":"object","properties":{"type":{"const":"y","type":"string"},"n":{"type":"number"}},"required":["type"]}]},`, i, i)
		fmt.Fprintf(&sb, `"Alias%d":{"$ref":"#/$defs/Thing%d"}`, i, i)
	}
	sb.WriteString(`}}`)
	return sb.String()
}

func countDefs(b *testing.B, fsys fs.FS) int {
	versions, err := Versions(fsys)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, v := range versions {
		for _, file := range []string{v.Stable, v.Unstable} {
			if file == "" {
				continue
			}
			f, err := load.Load(fsys, file)
			if err != nil {
				b.Fatal(err)
			}
			n += len(f.Defs)
		}
	}
	return n
}
