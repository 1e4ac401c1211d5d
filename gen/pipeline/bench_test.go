package pipeline

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/acpgen/acpgen/gen/load"
	"github.com/acpgen/acpgen/schema"
)

// BenchmarkGenerate times a whole run over the pinned schema (v1 and v2,
// stable and unstable), and over each older revision, reporting the time
// per schema definition so that growth with schema size shows.
func BenchmarkGenerate(b *testing.B) {
	dirs, _ := filepath.Glob("testdata/revisions/*")
	cases := []struct {
		name string
		fsys fs.FS
	}{{"pinned", schema.FS}}
	for _, d := range dirs {
		cases = append(cases, struct {
			name string
			fsys fs.FS
		}{filepath.Base(d), os.DirFS(d)})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			defs := countDefs(b, c.fsys)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Generate(c.fsys); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(defs), "defs")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(defs), "µs/def")
		})
	}
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
