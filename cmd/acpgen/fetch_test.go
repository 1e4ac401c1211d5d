package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/internal/revisions"
)

// packed is a tarball of the schema package, as npm pack writes it, with
// what npm pack --json prints of it.
type packed struct {
	tarball string
	json    []byte
}

// packRevision packs the published layout of version v as the npm package
// @agentclientprotocol/sdk: with the real npm (npm pack of a local folder
// needs no network) when there is one, else in Go as npm would.
func packRevision(t *testing.T, v string) packed {
	t.Helper()
	layouts, err := revisions.Load()
	if err != nil {
		t.Fatal(err)
	}
	l, ok := revisions.Find(layouts, v)
	if !ok {
		t.Fatalf("the corpus has no %s", v)
	}
	src, dest := t.TempDir(), t.TempDir()
	files := map[string][]byte{"package.json": []byte(`{"name": "@agentclientprotocol/sdk", "version": "` + v + `", "license": "Apache-2.0"}`)}
	for name, f := range l.FS {
		files["schema/"+name] = f.Data
	}
	for name, data := range files {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if npm, err := exec.LookPath("npm"); err == nil {
		cmd := exec.Command(npm, "pack", src, "--json", "--pack-destination", dest)
		cmd.Dir = dest
		home := t.TempDir()
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "npm_config_cache=" + filepath.Join(home, "cache"), "npm_config_offline=true", "npm_config_update_notifier=false"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("npm pack of a local folder: %v", err)
		}
		t.Log("packed with npm")
		return packed{filepath.Join(dest, "agentclientprotocol-sdk-"+v+".tgz"), out}
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, data := range files {
		tw.WriteHeader(&tar.Header{Name: "package/" + name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg})
		tw.Write(data)
	}
	tw.Close()
	zw.Close()
	tarball := filepath.Join(dest, "agentclientprotocol-sdk-"+v+".tgz")
	if err := os.WriteFile(tarball, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha512.Sum512(buf.Bytes())
	js, _ := json.Marshal([]map[string]any{{"name": "@agentclientprotocol/sdk", "version": v, "filename": filepath.Base(tarball),
		"integrity": "sha512-" + base64.StdEncoding.EncodeToString(sum[:])}})
	return packed{tarball, js}
}

// fakeNPM puts on PATH an npm that answers npm pack SPEC --json
// --pack-destination DIR for the one spec with the tarball, and fails
// otherwise, as npm does for a version the registry lacks.
func fakeNPM(t *testing.T, spec string, p packed) {
	t.Helper()
	bin := t.TempDir()
	jsonFile := filepath.Join(bin, "pack.json")
	if err := os.WriteFile(jsonFile, p.json, 0o644); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\n" +
		"if [ \"$1 $2 $3 $4\" != \"pack " + spec + " --json --pack-destination\" ]; then echo \"npm error 404 No match found for $2\" >&2; exit 1; fi\n" +
		"cp '" + p.tarball + "' \"$5/\" && cat '" + jsonFile + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// TestFetch fetches 2.2.0 through npm pack into a schema directory:
// provenance.json records package, version, integrity and each file's
// sha256; generation from the directory names the version in its headers;
// after a schema file is edited, fetch -check and generation both fail at
// that file.
func TestFetch(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the fake npm")
	}
	p := packRevision(t, "2.2.0")
	fakeNPM(t, "@agentclientprotocol/sdk@2.2.0", p)
	dir := filepath.Join(t.TempDir(), "acpschema")
	var out bytes.Buffer
	if err := fetch([]string{"-out", dir, "2.2.0"}, &out); err != nil {
		t.Fatalf("fetch: %v\n%s", err, out.String())
	}
	prov, err := pipeline.ReadProvenance(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	if prov.Package != "@agentclientprotocol/sdk" || prov.Version != "2.2.0" || !strings.HasPrefix(prov.Integrity, "sha512-") || prov.License != "Apache-2.0" || len(prov.Files) != 4 {
		t.Errorf("provenance.json = %+v", prov)
	}
	for name, sum := range prov.Files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || pipeline.SHA256(data) != sum {
			t.Errorf("%s: %v, sha256 does not match provenance.json", name, err)
		}
	}
	out.Reset()
	if err := fetch([]string{"-check", "-out", dir}, &out); err != nil {
		t.Errorf("fetch -check right after fetch: %v\n%s", err, out.String())
	}
	gen := filepath.Join(t.TempDir(), "acp")
	args := []string{"-schema", dir, "-version", "v2", "-package", "acp", "-out", gen}
	if err := generate(args, &out); err != nil {
		t.Fatal(err)
	}
	types, err := os.ReadFile(filepath.Join(gen, "types.go"))
	if want := "// Schema: @agentclientprotocol/sdk 2.2.0, v2/schema.json and v2/schema.unstable.json\n"; err != nil || !strings.Contains(string(types), want) {
		t.Errorf("the header does not name the version (%v): want %q", err, want)
	}

	edited := filepath.Join(dir, "v2", "schema.json")
	data, _ := os.ReadFile(edited)
	os.WriteFile(edited, append(data, '\n'), 0o644)
	out.Reset()
	if err := fetch([]string{"-check", "-out", dir}, &out); err != exitCode(1) || !strings.Contains(out.String(), filepath.Join(dir, "v2", "schema.json")+": the file no longer matches provenance.json (@agentclientprotocol/sdk 2.2.0)") {
		t.Errorf("fetch -check after an edit: %v\n%s", err, out.String())
	}
	err = generate(append([]string{"-check"}, args...), &out)
	if err == nil || !strings.Contains(err.Error(), "v2/schema.json:1:1: the file no longer matches provenance.json") {
		t.Errorf("generate -check after an edit: %v", err)
	}
}

// TestFetchFailures: a version npm does not have, a tarball that does not
// match npm's integrity, and a version that npm could read as an option are
// errors, and nothing is written.
func TestFetchFailures(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the fake npm")
	}
	p := packRevision(t, "2.2.0")
	dir := filepath.Join(t.TempDir(), "acpschema")
	fakeNPM(t, "@agentclientprotocol/sdk@2.2.0", p)
	var out bytes.Buffer
	if err := fetch([]string{"-out", dir, "9.9.9"}, &out); err == nil || !strings.Contains(err.Error(), "No match found") {
		t.Errorf("a missing version: %v", err)
	}
	if err := fetch([]string{"-out", dir, "--registry=http://example.com"}, &out); err == nil {
		t.Error("a version that reads as an option was passed on")
	}
	bad := p
	bad.json = bytes.Replace(p.json, []byte(`"sha512-`), []byte(`"sha512-AAAA`), 1)
	fakeNPM(t, "@agentclientprotocol/sdk@2.2.0", bad)
	if err := fetch([]string{"-out", dir, "2.2.0"}, &out); err == nil || !strings.Contains(err.Error(), "integrity") {
		t.Errorf("a tarball that does not match its integrity: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a failed fetch wrote %s (%v)", dir, err)
	}
}
