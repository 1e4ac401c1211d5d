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
		f.Comment(constructorDoc(c))
		f.Func().Id(c.GoName).Params(constructorParams(c)...).Id(c.Union.GoName).Block(
			jen.Return(jen.Id(c.Union.GoName).Values(constructorValues(c))))
		f.Line()
	}
	e.shortcuts(f, key)
	e.methodConstructors(f, key)
}

// constructorParams returns the parameters of a union constructor: the
// union's shared members, then the payload, the value or the variant's
// members.
func constructorParams(c *ir.Constructor) []jen.Code {
	var params []jen.Code
	for i, t := range constructorParamTypes(c) {
		params = append(params, jen.Id(c.ParamNames[i]).Add(t))
	}
	return inOrder(c, params)
}

// inOrder returns a union constructor's parameters, or their names, given
// in the order of Shared then Params, in the order the constructor takes
// them (ir.Constructor.Order).
func inOrder[T any](c *ir.Constructor, v []T) []T {
	if c.Order == nil {
		return v
	}
	out := make([]T, len(v))
	for i, o := range c.Order {
		out[i] = v[o]
	}
	return out
}

// constructorParamTypes returns the types of the parameters of a union
// constructor, in order.
func constructorParamTypes(c *ir.Constructor) []jen.Code {
	var types []jen.Code
	for _, p := range c.Shared {
		types = append(types, fieldType(p))
	}
	switch {
	case c.Whole:
		return append(types, jen.Id(c.Source.GoName))
	case c.Value:
		return append(types, goType(*c.Variant.Value))
	}
	for _, p := range c.Params {
		types = append(types, fieldType(p))
	}
	return types
}

// memberValue is the value of field f given v of its type: Some(v) for a
// Nullable, Ptr(v) for a pointer, else v.
func memberValue(f *ir.Field, v jen.Code) jen.Code {
	switch {
	case f.NullMeans:
		return jen.Id("Some").Call(v)
	case pointer(f):
		return jen.Id(names.Ptr).Call(v)
	}
	return v
}

// shortcuts emits the shortcuts of the gate key ("" for stable).
/*
	// AgentMessageText returns a [SessionUpdate] that is a chunk of the agent's message made of text:
	// NewSessionUpdateAgentMessageChunk(messageID, NewContentBlockText(text)).
	func AgentMessageText(messageID MessageID, text string) SessionUpdate {
		return NewSessionUpdateAgentMessageChunk(messageID, NewContentBlockText(text))
	}
*/
func (e *emitter) shortcuts(f *jen.File, key string) {
	for _, s := range e.p.Shortcuts {
		if s.Gate().Key() != key {
			continue
		}
		// The parameters in step order, each step's names apart.
		var params []jen.Code
		perStep := make([][]string, len(s.Steps))
		k := 0
		for i, c := range s.Steps {
			types := constructorParamTypes(c)
			if i < len(s.Steps)-1 || s.Sets != nil {
				types = types[:len(types)-1]
			}
			for _, t := range types {
				params = append(params, jen.Id(s.ParamNames[k]).Add(t))
				perStep[i] = append(perStep[i], s.ParamNames[k])
				k++
			}
		}
		// The calls from the innermost out, after the payload that the
		// last step takes whole, if the shortcut fills it.
		var call *jen.Statement
		var text string
		var body []jen.Code
		if s.Sets != nil {
			values := jen.Dict{}
			var later jen.Code // a Nullable list, set only when not empty
			for i, set := range s.Sets {
				var v jen.Code
				switch t := set.Field.Type; {
				case set.Const != nil:
					v = jen.Id(set.Const.GoName)
				case i == len(s.Sets)-1 && t.Kind == ir.RefArray:
					// A list last: the items, as variadic arguments.
					params = append(params, jen.Id(s.ParamNames[k]).Op("...").Add(goType(*t.Elem)))
					v = jen.Id(s.ParamNames[k])
					k++
					if set.Field.NullMeans {
						// No items leave the member out: an empty list
						// would replace what the peer has.
						later = jen.If(jen.Len(v).Op(">").Lit(0)).Block(
							jen.Id("payload").Dot(set.Field.GoName).Op("=").Add(memberValue(set.Field, v)))
						continue
					}
				default:
					params = append(params, jen.Id(s.ParamNames[k]).Add(goType(t)))
					v = jen.Id(s.ParamNames[k])
					k++
				}
				values[jen.Id(set.Field.GoName)] = memberValue(set.Field, v)
			}
			last := s.Steps[len(s.Steps)-1]
			call = jen.Id(last.Source.GoName).Values(values)
			text = last.Source.GoName + "{…}"
			if later != nil {
				body = []jen.Code{jen.Id("payload").Op(":=").Add(call), later}
				call = jen.Id("payload")
			}
		}
		for i := len(s.Steps) - 1; i >= 0; i-- {
			var args []jen.Code
			argText := append([]string(nil), perStep[i]...)
			for _, n := range perStep[i] {
				args = append(args, jen.Id(n))
			}
			if call != nil {
				args = append(args, call)
				argText = append(argText, text)
			}
			call = jen.Id(s.Steps[i].GoName).Call(args...)
			text = s.Steps[i].GoName + "(" + strings.Join(argText, ", ") + ")"
		}
		union := s.Steps[0].Union.GoName
		f.Comment(fmt.Sprintf("%s returns %s [%s] that is %s: %s.", s.Name, article(union), union, s.Doc, text))
		f.Func().Id(s.Name).Params(params...).Id(union).Block(append(body, jen.Return(call))...)
		f.Line()
	}
}

// constructorValues returns the members of the union value a constructor
// returns: the shared members and Value, a pointer to the variant (a value
// for a variant that is not an object).
func constructorValues(c *ir.Constructor) jen.Dict {
	values := jen.Dict{}
	names := c.ParamNames
	for _, p := range c.Shared {
		values[jen.Id(p.GoName)] = jen.Id(names[0])
		names = names[1:]
	}
	fields := jen.Dict{}
	for i, p := range c.Params {
		fields[jen.Id(p.GoName)] = jen.Id(names[i])
	}
	addFills(fields, c.Fills)
	var variant jen.Code
	switch {
	case c.Null():
		variant = jen.Id(c.Variant.GoName).Values()
	case c.Value:
		variant = jen.Id(c.Variant.GoName).Call(jen.Id(names[0]))
	case c.Whole:
		variant = jen.Op("&").Id(c.Variant.GoName).Values(jen.Dict{jen.Id(c.Source.GoName): jen.Id(names[0])})
	case c.Source != nil:
		variant = jen.Op("&").Id(c.Variant.GoName).Values(jen.Dict{jen.Id(c.Source.GoName): jen.Id(c.Source.GoName).Values(fields)})
	default:
		variant = jen.Op("&").Id(c.Variant.GoName).Values(fields)
	}
	values[jen.Id("Value")] = variant
	return values
}

// addFills adds to values the members whose default is an object, each an
// empty value: Capabilities: &AgentCapabilities{}.
func addFills(values jen.Dict, fills []*ir.Fill) {
	for _, fill := range fills {
		values[jen.Id(fill.Field.GoName)] = fillValue(fill)
	}
}

// fillValue is a pointer to an empty value of fill's type, with its own
// members whose default is an object filled in turn.
func fillValue(fill *ir.Fill) *jen.Statement {
	values := jen.Dict{jen.Id(names.DefaultedMark): jen.True()}
	addFills(values, fill.Fills)
	return jen.Op("&").Id(fill.Type.GoName).Values(values)
}

// methodConstructors emits the constructors of the params and result types
// of the gate key ("" for stable).
/*
	// NewPromptRequest returns the params of a "session/prompt" request with the given sessionID and prompt.
	func NewPromptRequest(sessionID SessionID, prompt []ContentBlock) *PromptRequest {
		return &PromptRequest{SessionID: sessionID, Prompt: prompt}
	}
*/
func (e *emitter) methodConstructors(f *jen.File, key string) {
	var cs []*ir.MethodConstructor
	for _, c := range e.p.MethodConstructors {
		if c.GoName != "" && c.Gate().Key() == key {
			cs = append(cs, c)
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].GoName < cs[j].GoName })
	for _, c := range cs {
		var params, values []jen.Code
		for i, p := range c.Params {
			params = append(params, jen.Id(c.ParamNames[i]).Add(fieldType(p)))
			values = append(values, jen.Id(p.GoName).Op(":").Id(c.ParamNames[i]))
		}
		for _, fill := range c.Fills {
			values = append(values, jen.Id(fill.Field.GoName).Op(":").Add(fillValue(fill)))
		}
		if c.Variant {
			v := c.ParamNames[len(c.ParamNames)-1]
			params = append(params, jen.Id(v).Id(c.Source.Union.Interface))
			values = append(values, jen.Id("Value").Op(":").Id(v))
		}
		f.Comment(methodConstructorDoc(c))
		f.Func().Id(c.GoName).Params(params...).Op("*").Id(c.Type.GoName).Block(
			jen.Return(jen.Op("&").Id(c.Type.GoName).Values(values...)))
		f.Line()
	}
}

// methodConstructorsDoc is the section of the package comment about the
// method constructors, with the constructor of the session/prompt params as
// the example, else the first stable one; "" when there is none.
func (e *emitter) methodConstructorsDoc() string {
	var ex *ir.MethodConstructor
	for _, c := range e.p.MethodConstructors {
		if c.GoName == "" || c.Type.Unstable {
			continue
		}
		if ex == nil || (c.Uses[0].Method.Name == "session/prompt" && !c.Uses[0].Result) {
			ex = c
		}
	}
	if ex == nil {
		return ""
	}
	return "# Params and results\n\n" +
		"The params and the result of each method have a constructor, New followed by the type's\n" +
		"name, that takes the type's required members, sessionId first and cwd next where it has\n" +
		"them and the others in the schema's order, and returns a pointer\n" +
		"to a new value, ready to send; set the optional members on it:\n" +
		fmt.Sprintf("[%s](%s) is a *%s.\n\n", ex.GoName, strings.Join(ex.ParamNames, ", "), ex.Type.GoName)
}

// methodConstructorDoc is the doc comment of a method constructor.
func methodConstructorDoc(c *ir.MethodConstructor) string {
	var uses []string
	for _, u := range c.Uses {
		what, kind := "params", "request"
		if u.Result {
			what = "result"
		} else if u.Method.Kind == ir.Notification {
			kind = "notification"
		}
		uses = append(uses, fmt.Sprintf("the %s of %s %q %s", what, article(u.Method.Name), u.Method.Name, kind))
	}
	s := c.GoName + " returns " + strings.Join(uses, " and ")
	given := c.ParamNames
	if c.Variant {
		given = given[:len(given)-1]
	}
	if len(given) > 0 {
		s += " with the given " + series(given)
	}
	if c.Variant {
		if len(given) > 0 {
			s += ","
		}
		s += fmt.Sprintf(" holding the variant %s", c.ParamNames[len(c.ParamNames)-1])
	}
	return s + "." + fillsDoc(c.Fills)
}

// fillsDoc says which members a constructor fills with an empty value,
// after a space; "" for none.
func fillsDoc(fills []*ir.Fill) string {
	if len(fills) == 0 {
		return ""
	}
	var names []string
	for _, f := range fills {
		names = append(names, f.Field.GoName)
	}
	if len(names) == 1 {
		return " " + names[0] + ", whose default is an object, holds an empty one, ready to set."
	}
	return " " + series(names) + ", whose defaults are objects, hold empty ones, ready to set."
}

// constructorDoc is the doc comment of a constructor.
func constructorDoc(c *ir.Constructor) string {
	return constructorSummary(c) + fillsDoc(c.Fills)
}

// constructorSummary is the first sentence of a constructor's doc comment.
func constructorSummary(c *ir.Constructor) string {
	s := fmt.Sprintf("%s returns %s [%s] holding %s [%s]", c.GoName, article(c.Union.GoName), c.Union.GoName, article(c.Variant.GoName), c.Variant.GoName)
	shared := c.ParamNames[:len(c.Shared)]
	own := c.ParamNames[len(c.Shared):]
	switch {
	case len(c.ParamNames) == 0:
		return s + "."
	case !c.Whole && !c.Value:
		return s + " with the given " + series(inOrder(c, c.ParamNames)) + "."
	case len(shared) > 0:
		s += " with the given " + series(shared) + ","
	}
	if c.Whole {
		return s + fmt.Sprintf(" made of %s.", own[0])
	}
	return s + " of the given value."
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
