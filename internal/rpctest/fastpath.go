package rpctest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// FastPath checks that the params and result of every method of the
// package in the current directory decode through the package's generated
// decoders: fast tells whether a value the constructors return does, as the
// message layer tells it, rather than falling back to encoding/json (which
// gives the same values, only slower, so that no other test would notice).
// The methods are the string constants named Method… of the package's
// source, under every build tag; a constructor returns nil for one that the
// build leaves out.
func FastPath(t *testing.T, fast func(v any) bool, constructors ...func(method string) any) {
	t.Helper()
	fastPath(t, "decodes through encoding/json, not its generated decoder", fast, constructors)
}

// EncodeFastPath is FastPath for the encoders: fast tells whether the
// message layer writes a value the constructors return with the package's
// generated encoder rather than with encoding/json.
func EncodeFastPath(t *testing.T, fast func(v any) bool, constructors ...func(method string) any) {
	t.Helper()
	fastPath(t, "encodes through encoding/json, not its generated encoder", fast, constructors)
}

// fastPath checks fast on every value the constructors return, reporting
// one that is not with failure.
func fastPath(t *testing.T, failure string, fast func(v any) bool, constructors []func(method string) any) {
	t.Helper()
	methods := methodConstants(t)
	checked := 0
	for _, m := range methods {
		for _, newValue := range constructors {
			v := newValue(m)
			if v == nil {
				continue
			}
			checked++
			if !fast(v) {
				t.Errorf("%s: %T %s", m, v, failure)
			}
		}
	}
	if checked < 10 {
		t.Errorf("checked %d params and results of %d methods", checked, len(methods))
	}
}

// methodConstants returns the values of the string constants named
// Method… in the non-test Go files of the current directory.
func methodConstants(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			spec, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, name := range spec.Names {
				if !strings.HasPrefix(name.Name, "Method") || i >= len(spec.Values) {
					continue
				}
				if lit, ok := spec.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						methods = append(methods, s)
					}
				}
			}
			return false
		})
	}
	return methods
}
