// Package emit turns a checked ir.Package into the Go files of its package:
// jennifer code and runtime sources, built as a pure function of the IR
// that cannot fail (package check rejects what it could not write).
// Rendering them to formatted bytes, and the disk, are package write's.
package emit

import (
	"fmt"
	"iter"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/names"
	"github.com/acpgen/acpgen/templates"
)

const jsonPkg = "encoding/json"

// File is one file of a generated package as the emitter decides it:
// Go code that jennifer holds, or source the templates give. Turning it
// into formatted bytes comes after emit (write.Render).
type File struct {
	Name string
	// Code is the file's Go code; nil when Source is the file.
	Code *jen.File
	// Source is the final source of a runtime file from the templates.
	Source []byte
	// Helpers marks a runtime file of helper functions: rendering keeps
	// those that the files before it call, directly or through others.
	Helpers bool
}

// Files returns the generated files of p, one at a time in the order they
// are rendered: the stable surface in doc.go, types.go, enums.go,
// unions.go, methods.go and constructors.go, each set of unstable features
// in a file of its own behind a build constraint, the runtimes last. Each
// file is built when the sequence reaches it, so that a consumer that
// renders it at once holds one file's code at a time. p must have passed
// check.Package and names.Assign, which reject what the emitter cannot
// write and decide what it reads (check.Lower): given that, emitting
// cannot fail.
func Files(p *ir.Package) iter.Seq[File] {
	return func(yield func(File) bool) {
		e := &emitter{p: p}
		out := &sink{yield: yield}
		f := e.newFile("")
		e.doc(f)
		out.code("doc.go", f)
		for _, part := range []struct {
			name string
			fill func(pair)
		}{
			{"types.go", e.structsAndNamed},
			{"enums.go", e.enums},
			{"unions.go", e.unions},
		} {
			two := e.newPair("")
			part.fill(two)
			out.pair(part.name, two, true)
		}
		for _, part := range []struct {
			name string
			fill func(*jen.File)
		}{
			{"methods.go", e.methods},
			{"constructors.go", e.constructorsFile},
		} {
			f := e.newFile("")
			part.fill(f)
			out.code(part.name, f)
		}
		gates := ir.GateSets(p)
		for _, g := range gates {
			tags := constraint(gateOf(g.Key))
			two := e.newPair(tags)
			e.unstable(two, g)
			out.pair(fileName(g.Key, ""), two, unstableCodec(g))
			if off := e.newPair("!(" + tags + ")"); e.extensionsOff(off, g) {
				out.pair(fileName(g.Key, "_off"), off, true)
			}
		}
		if f := e.newFile(""); p.Tests && e.definitions(f) {
			out.code("definitions_test.go", f)
			for _, g := range gates {
				if f := e.newFile(constraint(gateOf(g.Key))); e.unstableDefinitions(f, g.Key) {
					out.code(fileName(g.Key, "_definitions_test"), f)
				}
			}
		}
		if p.RPC {
			out.source("rpc.go", templates.RPC(e.header(), p.Name, e.errorCodeType()), false)
			out.source("rpc_decode.go", templates.RPCDecoder(e.header(), p.Name, e.errorCodeType()), false)
			out.source("tracker.go", templates.Tracker(e.header(), p.Name), false)
		}
		if p.Conn {
			f := e.newFile("")
			e.sidesFile(f)
			out.code("sides.go", f)
			out.source("conn.go", templates.Conn(e.header(), p.Name), false)
			for _, name := range templates.ConnFiles {
				out.source(name, templates.ConnFile(name, e.header(), p.Name), false)
			}
			out.source("conn_init.go", templates.ConnInit(e.header(), p.Name, p.Version), false)
			e.sessionFiles(out)
		}
		// The runtimes last, the decoder's checks before the decoder, and
		// the decoder and encoder before the JSON helpers, which serve them
		// too: each keeps what the files before it call.
		out.source("decode_checks.go", templates.DecoderChecks(e.header(), p.Name), true)
		out.source("decode.go", templates.Decoder(e.header(), p.Name), true)
		out.source("encode.go", templates.Encoder(e.header(), p.Name), true)
		out.source("json.go", templates.JSONHelpers(e.header(), p.Name), true)
	}
}

// sink passes files on until its consumer stops taking them.
type sink struct {
	yield   func(File) bool
	stopped bool
}

func (s *sink) code(name string, f *jen.File) { s.put(File{Name: name, Code: f}) }

// pair passes on the API file of two under name, then, when withCodec, its
// codec file.
func (s *sink) pair(name string, two pair, withCodec bool) {
	s.code(name, two.api)
	if withCodec {
		s.code(codecName(name), two.codec)
	}
}

func (s *sink) source(name string, src []byte, helpers bool) {
	s.put(File{Name: name, Source: src, Helpers: helpers})
}

func (s *sink) put(f File) {
	if !s.stopped {
		s.stopped = !s.yield(f)
	}
}

type emitter struct {
	p *ir.Package
}

func (e *emitter) header() string { return Header(e.p.Source) }

// Header is the text of the comment that opens every generated file,
// without its leading "// ": the generated-code line, then the lines of
// source (the provenance: generator, command, schema files), one comment
// line each.
func Header(source string) string {
	h := "Code generated by acpgen. DO NOT EDIT."
	if source != "" {
		h += "\n//\n// " + strings.ReplaceAll(source, "\n", "\n// ")
	}
	return h
}

// errorCodeType is the Go type of the code of the Error definition.
func (e *emitter) errorCodeType() string {
	for _, t := range e.p.Types {
		if t.Name == "Error" && !t.Unstable && t.Kind == ir.Struct {
			for _, f := range t.Fields {
				if f.JSONName == "code" {
					return fmt.Sprintf("%#v", goType(f.Type))
				}
			}
		}
	}
	return "int"
}

// newFile starts a file, with a build constraint if one is given.
func (e *emitter) newFile(constraint string) *jen.File {
	f := jen.NewFile(e.p.Name)
	if constraint == "" {
		f.HeaderComment("// " + e.header())
	} else {
		f.HeaderComment("// " + e.header() + "\n\n//go:build " + constraint)
	}
	return f
}

// newPair starts the API and codec files of one part of the package, with
// the same build constraint.
func (e *emitter) newPair(constraint string) pair {
	return pair{api: e.newFile(constraint), codec: e.newFile(constraint)}
}

// typesOf returns the stable types of p of the given kinds, in name order.
func (e *emitter) typesOf(kinds ...ir.Kind) []*ir.Type {
	var out []*ir.Type
	for _, t := range e.p.Types {
		for _, k := range kinds {
			if t.Kind == k && !t.Unstable {
				out = append(out, t)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].GoName < out[j].GoName })
	return out
}

// typeDoc is the doc comment of a type: its name, then the schema's description.
func typeDoc(t *ir.Type) jen.Code {
	if strings.TrimSpace(t.Doc) == "" {
		return comment("", fmt.Sprintf("%s is %q in the schema.", t.GoName, t.Name))
	}
	return comment(t.GoName, t.Doc)
}

// comment renders doc (Go doc text) as line comments; given lead, the
// identifier documented, the first sentence is about it (names.Lead).
func comment(lead, doc string) jen.Code {
	text := strings.TrimSpace(doc)
	if lead != "" {
		text = names.Lead(lead, text)
	}
	if text == "" {
		return jen.Null()
	}
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		line = strings.TrimRight(line, " \t")
		if line == "" {
			b.WriteString("//")
		} else {
			b.WriteString("// " + line)
		}
	}
	return jen.Comment(b.String())
}

// goType returns the Go type of r.
func goType(r ir.Ref) *jen.Statement {
	switch r.Kind {
	case ir.RefNamed:
		if r.Type.Kind == ir.Raw && r.Type.GoName == "" {
			return jen.Qual(jsonPkg, "RawMessage")
		}
		return jen.Id(r.Type.GoName)
	case ir.RefString:
		return jen.String()
	case ir.RefBool:
		return jen.Bool()
	case ir.RefFloat:
		return jen.Float64()
	case ir.RefInt:
		name := fmt.Sprintf("int%d", r.Bits)
		if r.Unsigned {
			name = "u" + name
		}
		return jen.Id(name)
	case ir.RefArray:
		return jen.Index().Add(goType(*r.Elem))
	case ir.RefMap:
		return jen.Map(jen.String()).Add(goType(*r.Elem))
	}
	return jen.Qual(jsonPkg, "RawMessage")
}

// nilable reports whether the Go type of r has nil as its zero value.
func nilable(r ir.Ref) bool {
	switch r.Kind {
	case ir.RefArray, ir.RefMap, ir.RefRaw:
		return true
	case ir.RefNamed:
		if r.Type.Kind == ir.Raw {
			return true
		}
		if r.Type.Kind == ir.Named {
			return nilable(*r.Type.Underlying)
		}
	}
	return false
}

// pointer reports whether the field is a pointer in Go: optional or nullable
// values whose type has no nil of its own.
func pointer(f *ir.Field) bool {
	return (!f.Required || f.Nullable) && !nilable(f.Type)
}

// fieldType returns the Go type of field f.
func fieldType(f *ir.Field) *jen.Statement {
	if f.NullMeans {
		return jen.Id("Nullable").Types(goType(f.Type))
	}
	if pointer(f) {
		return jen.Op("*").Add(goType(f.Type))
	}
	return goType(f.Type)
}

func jsonTag(f *ir.Field) map[string]string {
	tag := f.JSONName
	if !f.Required {
		tag += ",omitempty"
	}
	return map[string]string{"json": tag}
}

// structFields renders fields as struct members.
func structFields(fields []*ir.Field) []jen.Code {
	var out []jen.Code
	for i, f := range fields {
		if i > 0 && f.Doc != "" {
			out = append(out, jen.Line())
		}
		out = append(out, comment(f.GoName, f.Doc))
		out = append(out, jen.Id(f.GoName).Add(fieldType(f)).Tag(jsonTag(f)))
	}
	return out
}

func underlying(r ir.Ref) ir.Ref {
	for r.Kind == ir.RefNamed && r.Type.Kind == ir.Named {
		r = *r.Type.Underlying
	}
	return r
}
