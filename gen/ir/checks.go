package ir

import (
	"math"
	"math/big"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Check is what a value must be beyond its Go type: the validation keywords
// of its schema (load.EnforcedKeywords), decided here once, that the
// generated decoder checks on every value it decodes. A value that fails is
// an error at its JSON path, or the default where the member defaults on
// error. The zero Check (no bound, any value) is never stored: a Ref
// without checks has a nil Check.
type Check struct {
	// MinLength and MaxLength bound a string's length in characters
	// (Unicode code points); -1 is no bound.
	MinLength, MaxLength int
	// Pattern is a regular expression a string must match somewhere
	// (JSON Schema's pattern), in the syntax of Go's regexp; "" is none.
	Pattern string
	// MinItems and MaxItems bound the items of a list; -1 is no bound.
	MinItems, MaxItems int
	// Min and Max bound a number, as Go literals of its type ("" is no
	// bound). The bounds of an integer are inclusive; those of a float are
	// exclusive where ExclusiveMin and ExclusiveMax say so.
	Min, Max                   string
	ExclusiveMin, ExclusiveMax bool
	// Values are the JSON texts the value must equal one of (const and
	// enum), compared as JSON values; nil allows any value.
	Values []string
	// Never: the schema is false and no value fits.
	Never bool
}

// noCheck is a Check that allows every value.
var noCheck = Check{MinLength: -1, MaxLength: -1, MinItems: -1, MaxItems: -1}

// never is the Check of the schema false.
func never() *Check {
	c := noCheck
	c.Never = true
	return &c
}

// empty reports whether c allows every value.
func (c *Check) empty() bool {
	return c.MinLength < 0 && c.MaxLength < 0 && c.MinItems < 0 && c.MaxItems < 0 &&
		c.Min == "" && c.Max == "" && c.Values == nil && !c.Never && c.Pattern == ""
}

// valueKind is the kind of JSON value a Go type holds, for the keywords
// that apply to one kind only.
type valueKind int

const (
	kindAny valueKind = iota // free-form JSON, or a union of several kinds
	kindString
	kindArray
	kindInteger
	kindFloat
	kindOther // objects, booleans: no enforced keyword of one kind applies
)

// kindOfRef is the kind of JSON value r, not a named type, holds.
func kindOfRef(r Ref) valueKind {
	switch r.Kind {
	case RefString:
		return kindString
	case RefArray:
		return kindArray
	case RefInt:
		return kindInteger
	case RefFloat:
		return kindFloat
	case RefBool, RefMap:
		return kindOther
	case RefRaw:
		if r.Object {
			return kindOther
		}
	}
	return kindAny
}

// refTarget is the definition that s refers to in place, or nil.
func refTarget(s *jsonschema.Schema) *jsonschema.Schema {
	switch {
	case s.Ref != nil:
		return s.Ref
	case isSingleRef(s):
		return s.AllOf[0].Ref
	}
	return nil
}

// schemaKind is the kind of JSON value that a value of schema s is, null
// aside, and for an integer its Go type; depth bounds a chain of
// references.
func schemaKind(s *jsonschema.Schema, depth int) (valueKind, Ref) {
	if depth > 100 {
		return kindAny, Ref{}
	}
	if target := refTarget(s); target != nil {
		return schemaKind(target, depth+1)
	}
	types := withoutNull(s.Types)
	if len(types) == 1 {
		switch types[0] {
		case "string":
			return kindString, Ref{}
		case "array":
			return kindArray, Ref{}
		case "integer":
			r, err := intRef(s)
			if err != nil {
				return kindAny, Ref{}
			}
			return kindInteger, r
		case "number":
			return kindFloat, Ref{}
		}
		return kindOther, Ref{}
	}
	if bs := branches(s); len(types) == 0 && len(bs) > 0 {
		kind, integer, first := kindAny, Ref{}, true
		for _, br := range bs {
			if isNull(br) {
				continue
			}
			k, r := schemaKind(br, depth+1)
			if !first && (k != kind || r != integer) {
				return kindAny, Ref{}
			}
			kind, integer, first = k, r, false
		}
		return kind, integer
	}
	if len(types) == 0 && len(s.Properties) > 0 {
		return kindOther, Ref{}
	}
	return kindAny, Ref{}
}

// withCheck adds to r the checks of the validation keywords of s, which r
// is the Go type of. A keyword that would apply to a value of r but that a
// decoder of r cannot check is an error at s; one that applies only to
// another kind of value than r ever holds is met by every value of r, as
// JSON Schema has it.
func withCheck(r Ref, s *jsonschema.Schema) (Ref, error) {
	c, err := checkOf(r, s)
	if err != nil || c == nil {
		return r, err
	}
	if r.Check != nil {
		c = merge(*r.Check, *c)
	}
	if c.Values != nil && len(c.Values) == 0 {
		return r, errorf(s, "const and enum here allow no common value; no message could hold one")
	}
	r.Check = c
	return r, nil
}

// checkOf is the Check of the keywords of s for a value of Go type r, or nil.
func checkOf(r Ref, s *jsonschema.Schema) (*Check, error) {
	c := noCheck
	c.Never = s.Always != nil && !*s.Always
	kind, integer := kindOfRef(r), r
	if r.Kind == RefNamed {
		// A definition may not be built yet: the schemas tell.
		kind, integer = schemaKind(s, 0)
	}
	set := c.Never
	for _, step := range []func(*Check, *jsonschema.Schema, valueKind, Ref) (bool, error){
		stringChecks, arrayChecks, numberChecks, valueChecks,
	} {
		ok, err := step(&c, s, kind, integer)
		if err != nil {
			return nil, err
		}
		set = set || ok
	}
	if !set {
		return nil, nil
	}
	return &c, nil
}

// applies reports whether a keyword of values of kind k applies to a value
// of kind kind; on a value of any kind it is an error.
func applies(s *jsonschema.Schema, kind, k valueKind, keyword string) (bool, error) {
	switch {
	case kind == k:
		return true, nil
	case kind == kindAny:
		return false, errorf(s, "%s applies to one kind of value, but this value can be of any kind; give it a type (acpgen checks %s only on a value whose Go type is of that kind)", keyword, keyword)
	}
	return false, nil
}

// stringChecks sets the checks of minLength, maxLength and pattern.
func stringChecks(c *Check, s *jsonschema.Schema, kind valueKind, _ Ref) (bool, error) {
	set := false
	if s.MinLength >= 0 || s.MaxLength >= 0 {
		ok, err := applies(s, kind, kindString, "minLength/maxLength")
		if err != nil {
			return false, err
		}
		if ok && (s.MinLength > 0 || s.MaxLength >= 0) {
			c.MinLength, c.MaxLength, set = s.MinLength, s.MaxLength, true
		}
	}
	if s.Pattern != nil {
		ok, err := applies(s, kind, kindString, "pattern")
		if err != nil || !ok {
			return set, err
		}
		if err := Pattern(s.Pattern.String()); err != nil {
			return false, errorf(s, "pattern %q: %v", s.Pattern.String(), err)
		}
		c.Pattern, set = s.Pattern.String(), true
	}
	return set, nil
}

// arrayChecks sets the checks of minItems and maxItems.
func arrayChecks(c *Check, s *jsonschema.Schema, kind valueKind, _ Ref) (bool, error) {
	if s.MinItems < 0 && s.MaxItems < 0 {
		return false, nil
	}
	ok, err := applies(s, kind, kindArray, "minItems/maxItems")
	if err != nil || !ok || (s.MinItems <= 0 && s.MaxItems < 0) {
		return false, err
	}
	c.MinItems, c.MaxItems = s.MinItems, s.MaxItems
	return true, nil
}

// numberChecks sets the checks of the bounds of a number.
func numberChecks(c *Check, s *jsonschema.Schema, kind valueKind, integer Ref) (bool, error) {
	if s.Minimum == nil && s.Maximum == nil && s.ExclusiveMinimum == nil && s.ExclusiveMaximum == nil {
		return false, nil
	}
	switch kind {
	case kindInteger:
		return intBounds(c, integer, s)
	case kindFloat:
		return floatBounds(c, s)
	case kindAny:
		return false, errorf(s, "minimum and maximum apply to numbers, but this value can be of any kind; give it a type (acpgen checks bounds only on a value whose Go type is a number)")
	}
	return false, nil
}

// valueChecks sets the check of const and enum.
func valueChecks(c *Check, s *jsonschema.Schema, _ valueKind, _ Ref) (bool, error) {
	if len(s.Constant) == 0 && s.Enum == nil {
		return false, nil
	}
	values, err := allowed(s)
	if err != nil {
		return false, err
	}
	c.Values = values
	return true, nil
}

// merge is the Check of a value that must pass both a and b.
func merge(a, b Check) *Check {
	out := a
	out.Never = a.Never || b.Never
	out.MinLength = max(a.MinLength, b.MinLength)
	out.MaxLength = minBound(a.MaxLength, b.MaxLength)
	if out.Pattern == "" {
		out.Pattern = b.Pattern
	} else if b.Pattern != "" && b.Pattern != a.Pattern {
		out.Pattern = "(?:" + a.Pattern + ")(?:" + b.Pattern + ")"
	}
	out.MinItems = max(a.MinItems, b.MinItems)
	out.MaxItems = minBound(a.MaxItems, b.MaxItems)
	out.Min, out.ExclusiveMin = tighterLit(a.Min, a.ExclusiveMin, b.Min, b.ExclusiveMin, 1)
	out.Max, out.ExclusiveMax = tighterLit(a.Max, a.ExclusiveMax, b.Max, b.ExclusiveMax, -1)
	switch {
	case a.Values == nil:
		out.Values = b.Values
	case b.Values != nil:
		keep := map[string]bool{}
		for _, v := range b.Values {
			keep[jsonKey(v)] = true
		}
		out.Values = []string{}
		for _, v := range a.Values {
			if keep[jsonKey(v)] {
				out.Values = append(out.Values, v)
			}
		}
	}
	return &out
}

// tighterLit is the tighter of two bounds written as Go literals ("" is
// none); sign is 1 for lower bounds and -1 for upper ones.
func tighterLit(a string, aX bool, b string, bX bool, sign int) (string, bool) {
	ra, oka := new(big.Rat).SetString(a)
	rb, okb := new(big.Rat).SetString(b)
	switch {
	case !okb:
		return a, aX
	case !oka:
		return b, bX
	}
	switch c := ra.Cmp(rb) * sign; {
	case c > 0:
		return a, aX
	case c < 0:
		return b, bX
	}
	return a, aX || bX
}

// minBound is the smaller of two upper bounds, -1 being none.
func minBound(a, b int) int {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

// intBounds sets the inclusive bounds of an integer of Go type r: the
// schema's, where they narrow the type's range. A range that holds no
// integer of the type is an error.
func intBounds(c *Check, r Ref, s *jsonschema.Schema) (bool, error) {
	lo, hi := intRange(r)
	min, max := new(big.Int).Set(lo), new(big.Int).Set(hi)
	if s.Minimum != nil {
		min = maxInt(min, ceil(s.Minimum))
	}
	if s.ExclusiveMinimum != nil {
		min = maxInt(min, new(big.Int).Add(floor(s.ExclusiveMinimum), big.NewInt(1)))
	}
	if s.Maximum != nil {
		max = minInt(max, floor(s.Maximum))
	}
	if s.ExclusiveMaximum != nil {
		max = minInt(max, new(big.Int).Sub(ceil(s.ExclusiveMaximum), big.NewInt(1)))
	}
	if min.Cmp(max) > 0 {
		return false, errorf(s, "minimum and maximum here leave no integer of the value's format (%s); no message could hold one", sig(r))
	}
	set := false
	if min.Cmp(lo) != 0 {
		c.Min, set = min.String(), true
	}
	if max.Cmp(hi) != 0 {
		c.Max, set = max.String(), true
	}
	return set, nil
}

// intRange is the range of the Go integer type r.
func intRange(r Ref) (lo, hi *big.Int) {
	bits := uint(r.Bits)
	if r.Unsigned {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1))
	}
	lim := new(big.Int).Lsh(big.NewInt(1), bits-1)
	return new(big.Int).Neg(lim), new(big.Int).Sub(lim, big.NewInt(1))
}

func ceil(r *big.Rat) *big.Int {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func floor(r *big.Rat) *big.Int {
	q, _ := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	return q
}

func maxInt(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

func minInt(a, b *big.Int) *big.Int {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// floatBounds sets the bounds of a float64, the tighter of the inclusive
// and the exclusive one on each side, as the float64 nearest each bound. A
// bound beyond the largest float64 bounds nothing, or leaves no value.
func floatBounds(c *Check, s *jsonschema.Schema) (bool, error) {
	lo, loX := tighter(s.Minimum, s.ExclusiveMinimum, 1)
	hi, hiX := tighter(s.Maximum, s.ExclusiveMaximum, -1)
	set := false
	if lo != nil {
		f, _ := lo.Float64()
		switch {
		case math.IsInf(f, 1):
			return false, errorf(s, "the minimum here is beyond the largest number of the value's format; no message could hold one")
		case !math.IsInf(f, -1):
			c.Min, c.ExclusiveMin, set = floatLit(f), loX, true
		}
	}
	if hi != nil {
		f, _ := hi.Float64()
		switch {
		case math.IsInf(f, -1):
			return false, errorf(s, "the maximum here is below the smallest number of the value's format; no message could hold one")
		case !math.IsInf(f, 1):
			c.Max, c.ExclusiveMax, set = floatLit(f), hiX, true
		}
	}
	return set, nil
}

// tighter picks the bound that allows less of an inclusive bound in and an
// exclusive one ex; sign is 1 for lower bounds and -1 for upper ones.
func tighter(in, ex *big.Rat, sign int) (*big.Rat, bool) {
	switch {
	case in == nil:
		return ex, ex != nil
	case ex == nil:
		return in, false
	}
	if ex.Cmp(in)*sign >= 0 {
		return ex, true
	}
	return in, false
}

// floatLit is f as a Go literal of a float.
func floatLit(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		s += ".0"
	}
	return s
}
