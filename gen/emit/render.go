package emit

import (
	"bytes"
	"fmt"
	"iter"
	"path"
	"strings"

	"github.com/dave/jennifer/jen"
)

// Render turns the files of one package, as Files builds them, into
// formatted source by file name; dir is where the package goes, for
// messages. Jennifer's code goes through go/format; the runtime helper
// files keep only the declarations that the other files call, directly or
// through other helpers (of any helper file). A file that does not format
// (or that jennifer cannot write) is a bug of acpgen, not of the schema: the
// error names each such file and its first problem, and no file is
// returned.
func Render(dir string, files iter.Seq[File]) (map[string][]byte, error) {
	out := map[string][]byte{}
	var failed []string
	fail := func(name string, err error) {
		failed = append(failed, fmt.Sprintf("%s: %s", path.Join(dir, name), firstLine(err.Error())))
	}
	var helpers []File
	for f := range files {
		switch {
		case f.Code != nil:
			src, err := renderCode(f.Code)
			if err != nil {
				fail(f.Name, err)
				continue
			}
			out[f.Name] = src
		case f.Helpers:
			helpers = append(helpers, f)
		default:
			out[f.Name] = f.Source
		}
	}
	if len(failed) == 0 {
		pruned, err := pruneHelpers(helpers, out)
		if err != nil {
			fail(err.file, err.err)
		}
		for name, src := range pruned {
			out[name] = src
		}
	}
	if len(failed) > 0 {
		return nil, fmt.Errorf("internal error (a bug of acpgen, not of the schema): cannot render the generated files: %s", strings.Join(failed, "; "))
	}
	return out, nil
}

// firstLine is the first line of an error message: jennifer's format
// errors ("Error 3:1: … while formatting source:") go on with the whole
// unformatted file.
func firstLine(msg string) string {
	line, _, _ := strings.Cut(msg, "\n")
	return strings.TrimSuffix(strings.TrimPrefix(line, "Error "), " while formatting source:")
}

// renderCode renders jennifer code; a panic of jennifer (a literal of a
// type it cannot write) is an error like a format failure.
func renderCode(f *jen.File) (src []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			src, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
