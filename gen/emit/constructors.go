package emit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/names"
)

// constructorsFile emits the Ptr helper and the stable union constructors.
func (e *emitter) constructorsFile(f *jen.File) {
	/*
		func Ptr[T any](v T) *T { return &v }
	*/
	f.Comment(names.Ptr + " returns a pointer to a copy of v. Optional fields of scalar types are")
	f.Comment("pointers; Ptr(x) sets one inside a composite literal.")
	f.Func().Id(names.Ptr).Types(jen.Id("T").Any()).Params(jen.Id("v").Id("T")).Op("*").Id("T").Block(jen.Return(jen.Op("&").Id("v")))
	f.Line()
	e.constructors(f, "")
}

// constructors emits the union constructors of the gate key ("" for stable).
/*
	// NewContentBlockText returns a [ContentBlock] holding a [ContentBlockText] with the given text.
	func NewContentBlockText(text string) ContentBlock {
		return ContentBlock{Value: &ContentBlockText{TextContent: TextContent{Text: text}}}
	}
*/
func (e *emitter) constructors(f *jen.File, key string) {
	var cs []*ir.Constructor
	for _, c := range e.p.Constructors {
		if c.Gate().Key() == key {
			cs = append(cs, c)
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].GoName < cs[j].GoName })
	for _, c := range cs {
		var params []jen.Code
		values := jen.Dict{}
		for i, p := range c.Params {
			params = append(params, jen.Id(c.ParamNames[i]).Add(fieldType(p)))
			values[jen.Id(p.GoName)] = jen.Id(c.ParamNames[i])
		}
		variant := jen.Id(c.Variant.GoName).Values(values)
		switch {
		case c.Whole:
			params = []jen.Code{jen.Id(c.ParamNames[0]).Id(c.Source.GoName)}
			variant = jen.Id(c.Variant.GoName).Values(jen.Dict{jen.Id(c.Source.GoName): jen.Id(c.ParamNames[0])})
		case c.Source != nil:
			variant = jen.Id(c.Variant.GoName).Values(jen.Dict{jen.Id(c.Source.GoName): jen.Id(c.Source.GoName).Values(values)})
		}
		f.Comment(constructorDoc(c))
		f.Func().Id(c.GoName).Params(params...).Id(c.Union.GoName).Block(
			jen.Return(jen.Id(c.Union.GoName).Values(jen.Dict{jen.Id("Value"): jen.Op("&").Add(variant)})))
		f.Line()
	}
}

// constructorDoc is the doc comment of a constructor.
func constructorDoc(c *ir.Constructor) string {
	s := fmt.Sprintf("%s returns %s [%s] holding %s [%s]", c.GoName, article(c.Union.GoName), c.Union.GoName, article(c.Variant.GoName), c.Variant.GoName)
	switch {
	case c.Whole:
		return s + fmt.Sprintf(" made of %s.", c.ParamNames[0])
	case len(c.ParamNames) == 0:
		return s + "."
	}
	return s + " with the given " + series(c.ParamNames) + "."
}

// series joins words as "a", "a and b", "a, b and c".
func series(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// article is the indefinite article for a word: "an" before a vowel.
func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOUaeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
