package write

import (
	"bytes"
	"fmt"
	"iter"
	"path"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/emit"
)

// Render turns the files of one package, as emit builds them, into
// formatted source by file name, each as it comes; dir is where the
// package goes, for messages. Jennifer's code goes through go/format;
// the runtime helper files keep only the functions that the files before
// them call. A file that does not format (or that jennifer cannot write)
// is a bug of acpgen, not of the schema: the error names each such file
// and its first problem, and no file is returned.
func Render(dir string, files iter.Seq[emit.File]) (map[string][]byte, error) {
	out := map[string][]byte{}
	var failed []string
	for f := range files {
		var src []byte
		var err error
		switch {
		case f.Code != nil:
			src, err = renderCode(f.Code)
		case f.Helpers:
			src, err = pruneHelpers(f.Name, f.Source, out)
		default:
			src = f.Source
		}
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: %s", path.Join(dir, f.Name), firstLine(err.Error())))
			continue
		}
		out[f.Name] = src
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
