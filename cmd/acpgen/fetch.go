package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/acpgen/acpgen/gen/pipeline"
)

// schemaPackage is the npm package whose schema/ folder acpgen reads.
const schemaPackage = "@agentclientprotocol/sdk"

// fetch gets a published schema revision with the user's npm (npm pack,
// so npm's registry, proxy and credentials settings apply and acpgen
// names no registry) into a directory with its provenance.json, or with
// -check verifies that the directory's files still match it.
func fetch(args []string, stdout io.Writer) error {
	fl := newFlagSet("fetch")
	out := fl.String("out", "acpschema", "the schema directory to write: v1/, v2/ (or schema.json before 2.0) and provenance.json")
	check := fl.Bool("check", false, "fetch nothing: check that the schema files under -out match their provenance.json")
	npm := fl.String("npm", "npm", "the npm command")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if *check {
		if fl.NArg() > 0 {
			return usage(fmt.Errorf("fetch -check takes no version; it reads %s/provenance.json", *out))
		}
		return checkProvenance(*out, stdout)
	}
	if fl.NArg() != 1 {
		return usage(errors.New("fetch: give the version to fetch, such as 2.4.0"))
	}
	version := fl.Arg(0)
	if !versionPattern.MatchString(version) {
		return usage(fmt.Errorf("fetch: %q is not a version or dist-tag", version))
	}
	tmp, err := os.MkdirTemp("", "acpgen-fetch-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	packed, err := npmPack(*npm, schemaPackage+"@"+version, tmp)
	if err != nil {
		return err
	}
	files, license, err := schemaFiles(filepath.Join(tmp, filepath.Base(packed.Filename)), packed.Integrity)
	if err != nil {
		return fmt.Errorf("%s %s: %w", schemaPackage, packed.Version, err)
	}
	prov := pipeline.Provenance{Package: packed.Name, Version: packed.Version, Integrity: packed.Integrity, License: license, Files: map[string]string{}}
	for name, data := range files {
		prov.Files[name] = pipeline.SHA256(data)
	}
	if err := writeSchemaDir(*out, files, prov); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "acpgen: %s %s (%s) is in %s with provenance.json: %d schema file(s)\n", prov.Package, prov.Version, prov.Integrity, *out, len(files))
	return nil
}

// versionPattern is what fetch passes to npm as a version: a version,
// range-free, or a dist-tag; never something npm could read as an option.
var versionPattern = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z.+_-]*$`)

// packResult is what npm pack --json says of the tarball it wrote.
type packResult struct {
	Name, Version, Filename, Integrity string
}

// npmPack runs npm pack spec in dir and returns what npm says of the tarball.
func npmPack(npm, spec, dir string) (packResult, error) {
	cmd := exec.Command(npm, "pack", spec, "--json", "--pack-destination", dir)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return packResult{}, fmt.Errorf("%s pack %s: %v\n%s", npm, spec, err, msg)
	}
	var res []packResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || len(res) != 1 {
		return packResult{}, fmt.Errorf("%s pack %s --json: no single tarball in its output (%v)", npm, spec, err)
	}
	p := res[0]
	if p.Name != schemaPackage || p.Version == "" || p.Filename == "" || !strings.HasPrefix(p.Integrity, "sha512-") {
		return packResult{}, fmt.Errorf("%s pack %s --json: got package %q version %q file %q integrity %q, want %s with a sha512 integrity", npm, spec, p.Name, p.Version, p.Filename, p.Integrity, schemaPackage)
	}
	return p, nil
}

// maxSchemaFile bounds one file read from the tarball.
const maxSchemaFile = 64 << 20

// schemaFiles checks the tarball at p against integrity and returns the
// JSON files of its package/schema/ folder by their path in it, and the
// package's license.
func schemaFiles(p, integrity string) (map[string][]byte, string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, "", err
	}
	sum := sha512.Sum512(data)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != integrity {
		return nil, "", fmt.Errorf("the tarball's integrity is %s, npm said %s", got, integrity)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, "", fmt.Errorf("the tarball: %w", err)
	}
	files := map[string][]byte{}
	license := ""
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", fmt.Errorf("the tarball: %w", err)
		}
		name := path.Clean(h.Name)
		if h.Typeflag != tar.TypeReg || (name != "package/package.json" && !strings.HasPrefix(name, "package/schema/")) || !strings.HasSuffix(name, ".json") {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, maxSchemaFile+1))
		if err != nil || len(b) > maxSchemaFile {
			return nil, "", fmt.Errorf("the tarball: %s: too large or unreadable (%v)", name, err)
		}
		if name == "package/package.json" {
			var pj struct{ License string }
			json.Unmarshal(b, &pj)
			license = pj.License
			continue
		}
		rel := strings.TrimPrefix(name, "package/schema/")
		if strings.Count(rel, "/") > 1 || strings.HasPrefix(rel, "../") {
			continue
		}
		files[rel] = b
	}
	if len(files) == 0 {
		return nil, "", errors.New("the package has no schema/ folder with JSON files")
	}
	return files, license, nil
}

// writeSchemaDir puts files and provenance.json into dir: every file is
// written beside its place first, then renamed into it; the JSON files of
// an earlier fetch that this revision lacks are removed.
func writeSchemaDir(dir string, files map[string][]byte, prov pipeline.Provenance) error {
	pj, err := json.MarshalIndent(prov, "", "  ")
	if err != nil {
		return err
	}
	all := map[string][]byte{"provenance.json": append(pj, '\n')}
	for name, data := range files {
		all[name] = data
	}
	old, err := schemaJSONFiles(dir)
	if err != nil {
		return err
	}
	staged := map[string]string{}
	defer func() {
		for _, tmp := range staged {
			os.Remove(tmp)
		}
	}()
	for name, data := range all {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		f, err := os.CreateTemp(filepath.Dir(p), ".acpgen-fetch-*")
		if err != nil {
			return err
		}
		staged[name] = f.Name()
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	for name, tmp := range staged {
		if err := os.Rename(tmp, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			return err
		}
		os.Chmod(filepath.Join(dir, filepath.FromSlash(name)), 0o644)
		delete(staged, name)
	}
	for _, name := range old {
		if _, ok := all[name]; !ok {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				return err
			}
		}
	}
	return nil
}

// schemaJSONFiles lists the schema files in dir, at the top and one
// directory down, as a fetch writes them; provenance.json and the feature
// and removal maps are not schema files.
func schemaJSONFiles(dir string) ([]string, error) {
	var out []string
	for _, pattern := range []string{"*.json", "*/*.json"} {
		names, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			rel, err := filepath.Rel(dir, n)
			if err != nil {
				return nil, err
			}
			rel = filepath.ToSlash(rel)
			switch rel {
			case "provenance.json", "features.json", "removed.json":
				continue
			}
			out = append(out, rel)
		}
	}
	return out, nil
}

// checkProvenance reports the schema files under dir that do not match its
// provenance.json, and exits with status 1 when one does not.
func checkProvenance(dir string, stdout io.Writer) error {
	prov, err := pipeline.ReadProvenance(os.DirFS(dir))
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, "provenance.json"), err)
	}
	names, err := schemaJSONFiles(dir)
	if err != nil {
		return err
	}
	problems := pipeline.CheckProvenance(os.DirFS(dir), prov, names, true)
	for _, p := range problems {
		fmt.Fprintf(stdout, "%s: %s\n", filepath.Join(dir, filepath.FromSlash(p.File)), p.Msg)
	}
	if len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "acpgen: %d schema file(s) under %s do not match provenance.json (%s %s); run acpgen fetch %s again\n", len(problems), dir, prov.Package, prov.Version, prov.Version)
		return exitCode(1)
	}
	fmt.Fprintf(stdout, "acpgen: the %d schema file(s) under %s are %s %s as fetched\n", len(prov.Files), dir, prov.Package, prov.Version)
	return nil
}
