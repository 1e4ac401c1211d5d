package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// usageError is a mistake in the options: main prints it and exits with
// status 2, having written nothing.
type usageError struct{ error }

func usage(err error) error { return usageError{err} }

// pathFlags are the flags whose values are paths.
var pathFlags = map[string]bool{"schema": true, "out": true, "config": true}

// commandLine renders the flags set on the command line, as the header
// records them: in name order, -check and -prune left out (they do not
// change what is generated), absolute paths made relative to the working
// directory.
func commandLine(fl *flag.FlagSet) string {
	parts := []string{"acpgen"}
	fl.Visit(func(f *flag.Flag) {
		if f.Name == "check" || f.Name == "prune" {
			return
		}
		v := f.Value.String()
		if pathFlags[f.Name] && filepath.IsAbs(v) {
			if wd, err := os.Getwd(); err == nil {
				if rel, err := filepath.Rel(wd, v); err == nil {
					v = rel
				}
			}
			if filepath.IsAbs(v) {
				v = filepath.Base(v)
			}
			v = filepath.ToSlash(v)
		}
		if _, bool := f.Value.(interface{ IsBoolFlag() bool }); bool {
			if v == "true" {
				parts = append(parts, "-"+f.Name)
			} else {
				parts = append(parts, "-"+f.Name+"="+v)
			}
			return
		}
		if v == "" || strings.ContainsAny(v, " \t\"'\\") {
			v = strconv.Quote(v)
		}
		parts = append(parts, "-"+f.Name, v)
	})
	return strings.Join(parts, " ")
}

// applyConfig sets the flags not set on the command line from a JSON file
// whose members are named as the flags ("out", "version", "features",
// "bake", …). Relative paths in it are relative to the file's directory.
func applyConfig(fl *flag.FlagSet, file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c struct {
		Schema   *string `json:"schema"`
		Out      *string `json:"out"`
		Version  *string `json:"version"`
		Package  *string `json:"package"`
		Features *string `json:"features"`
		Bake     *bool   `json:"bake"`
		Tests    *bool   `json:"tests"`
	}
	if err := dec.Decode(&c); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	set := map[string]bool{}
	fl.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, m := range []struct {
		name string
		val  *string
	}{{"schema", c.Schema}, {"out", c.Out}, {"version", c.Version}, {"package", c.Package}, {"features", c.Features}} {
		if m.val == nil || set[m.name] {
			continue
		}
		v := *m.val
		if pathFlags[m.name] && !filepath.IsAbs(v) {
			v = filepath.Join(filepath.Dir(file), filepath.FromSlash(v))
		}
		if err := fl.Set(m.name, v); err != nil {
			return fmt.Errorf("%s: %s: %w", file, m.name, err)
		}
	}
	for _, m := range []struct {
		name string
		val  *bool
	}{{"bake", c.Bake}, {"tests", c.Tests}} {
		if m.val != nil && !set[m.name] {
			fl.Set(m.name, strconv.FormatBool(*m.val))
		}
	}
	return nil
}

// importPath returns the import path of directory dir from the go.mod above
// it, or "" when there is none.
func importPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			mod := modfile.ModulePath(data)
			if mod == "" {
				return "", fmt.Errorf("%s: no module line", filepath.Join(d, "go.mod"))
			}
			rel, err := filepath.Rel(d, abs)
			if err != nil {
				return "", err
			}
			return path.Join(mod, filepath.ToSlash(rel)), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		if filepath.Dir(d) == d {
			return "", nil
		}
	}
}
