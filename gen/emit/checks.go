package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// checked wraps dec, a decoder of values of Go type goT, in the checks of
// c (the schema's validation keywords, as the IR decided them), each a
// call of a small runtime helper in decode_checks.go that returns the
// decoder's error or its own:
//
//	func(p *string, d *decoder) error { return checkLength(decodeString(p, d), p, 1, -1) }
//
// It returns dec itself when c is nil.
func checked(c *ir.Check, goT jen.Code, dec jen.Code) jen.Code {
	if c == nil {
		return dec
	}
	return checkedBody(c, goT, dec, jen.Add(dec).Call(jen.Id("p"), jen.Id("d")))
}

// checkedFunc is checked for the decoder elemFunc(goT, body).
func checkedFunc(c *ir.Check, goT jen.Code, body jen.Code) jen.Code {
	if c == nil {
		return elemFunc(goT, body)
	}
	return checkedBody(c, goT, elemFunc(goT, body), body)
}

// checkedBody is the decoder of checked, whose call dec(p, d) is body.
func checkedBody(c *ir.Check, goT, dec, body jen.Code) jen.Code {
	p, d := jen.Id("p"), jen.Id("d")
	if c.Never {
		return elemFunc(goT, jen.Id("d").Dot("never").Call(p))
	}
	call := body
	if c.Values != nil {
		args := []jen.Code{d, p, dec}
		for _, v := range c.Values {
			args = append(args, jen.Lit(v))
		}
		call = jen.Id("checkValues").Call(args...)
	}
	if c.MinLength >= 0 || c.MaxLength >= 0 {
		call = jen.Id("checkLength").Call(call, p, jen.Lit(max(c.MinLength, 0)), jen.Lit(c.MaxLength))
	}
	if c.Pattern != "" {
		call = jen.Id("checkPattern").Call(call, p, jen.Lit(c.Pattern))
	}
	if c.MinItems >= 0 || c.MaxItems >= 0 {
		call = jen.Id("checkItems").Call(call, p, jen.Lit(max(c.MinItems, 0)), jen.Lit(c.MaxItems))
	}
	if c.Min != "" || c.Max != "" {
		call = jen.Id("checkRange").Call(call, p, boundLit(c.Min), boundLit(c.Max), rangeFlags(c))
	}
	return elemFunc(goT, call)
}

// boundLit is a bound of checkRange: its literal, or 0 when there is none
// (the flags say which bounds there are).
func boundLit(lit string) jen.Code {
	if lit == "" {
		return jen.Lit(0)
	}
	return jen.Id(lit)
}

// rangeFlags are the flags of checkRange for c's bounds.
func rangeFlags(c *ir.Check) jen.Code {
	var names []string
	if c.Min != "" {
		names = append(names, "hasMin")
		if c.ExclusiveMin {
			names = append(names, "exclusiveMin")
		}
	}
	if c.Max != "" {
		names = append(names, "hasMax")
		if c.ExclusiveMax {
			names = append(names, "exclusiveMax")
		}
	}
	out := jen.Id(names[0])
	for _, n := range names[1:] {
		out = out.Op("|").Id(n)
	}
	return out
}
