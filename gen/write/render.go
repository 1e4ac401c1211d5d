package write

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/acpgen/acpgen/gen/emit"
)

// Render turns the files of one package, as emit decides them, into
// formatted source by file name; dir is where the package goes, for
// messages. Jennifer's code goes through go/format;
// the runtime helper files keep only the functions that the files before
// them call. A file that does not format is a bug of acpgen, not of the
// schema: the error names the file and the first problem. Nothing is
// written either way.
func Render(dir string, files []emit.File) (map[string][]byte, error) {
	out := make(map[string][]byte, len(files))
	var failed []string
	for _, f := range files {
		var src []byte
		var err error
		switch {
		case f.Code != nil:
			var buf bytes.Buffer
			if err = f.Code.Render(&buf); err == nil {
				src = buf.Bytes()
			}
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
		return nil, fmt.Errorf("internal error (a bug of acpgen, not of the schema): generated Go that does not format: %s", strings.Join(failed, "; "))
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
