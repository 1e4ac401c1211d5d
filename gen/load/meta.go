package load

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/acpgen/acpgen/gen/diag"
)

// Drafts are the JSON Schema drafts a schema file may declare in $schema;
// a file without $schema is read as the first. Both give every keyword the
// generator supports the same meaning.
var Drafts = []string{
	"https://json-schema.org/draft/2020-12/schema",
	"https://json-schema.org/draft/2019-09/schema",
}

// checkDraft reports a $schema that does not name one of Drafts.
func checkDraft(file string, doc map[string]any, errs *diag.List) {
	v, ok := doc["$schema"]
	if !ok {
		return
	}
	s, isString := v.(string)
	if !isString {
		errs.Addf(file, "/$schema", "$schema must be a string naming a JSON Schema draft, not %s", kindOf(v))
		return
	}
	norm := strings.TrimSuffix(strings.Replace(s, "http://", "https://", 1), "#")
	if !slices.Contains(Drafts, norm) {
		errs.Addf(file, "/$schema", "$schema %q is not a draft acpgen reads; declare %s (or %s)", s, Drafts[0], Drafts[1])
	}
}

// A valueKind is what the meta-schema of the declared draft allows as a
// keyword's value. The schema library trusts the values it compiles (a
// "type" of "strng" or a "required" of "n" crashed it), so each one is
// checked before it gets there.
type valueKind int

const (
	anyValue    valueKind = iota
	aString               // a string
	aBool                 // true or false
	aNumber               // any number
	aPositive             // a number greater than 0
	aCount                // a non-negative integer
	aRegex                // a string that is a regular expression
	anArray               // an array of any values
	aSchema               // an object or a boolean
	aSchemaMap            // an object whose members are schemas
	aSchemaList           // a non-empty array of schemas
	someTypes             // a type name or a non-empty array of distinct ones
	aStringSet            // an array of distinct strings
	aStringSets           // an object whose members are arrays of distinct strings
	aDependency           // an object whose members are schemas or arrays of distinct strings
)

// valueKinds are the keywords of JSON Schema 2020-12 (and those of 2019-09
// its meta-schema still describes) with the values the meta-schema allows.
// $schema is checked once for the file and $ref by checkKeywords.
var valueKinds = map[string]valueKind{
	"$id": aString, "$anchor": aString, "$dynamicRef": aString, "$dynamicAnchor": aString,
	"$recursiveRef": aString, "$recursiveAnchor": aBool, "$comment": aString,
	"$defs": aSchemaMap, "definitions": aSchemaMap, "properties": aSchemaMap,
	"patternProperties": aSchemaMap, "dependentSchemas": aSchemaMap,
	"prefixItems": aSchemaList, "allOf": aSchemaList, "anyOf": aSchemaList, "oneOf": aSchemaList,
	"items": aSchema, "contains": aSchema, "additionalProperties": aSchema, "propertyNames": aSchema,
	"if": aSchema, "then": aSchema, "else": aSchema, "not": aSchema, "unevaluatedItems": aSchema,
	"unevaluatedProperties": aSchema, "contentSchema": aSchema, "additionalItems": aSchema,
	"type": someTypes, "enum": anArray, "multipleOf": aPositive,
	"maximum": aNumber, "exclusiveMaximum": aNumber, "minimum": aNumber, "exclusiveMinimum": aNumber,
	"maxLength": aCount, "minLength": aCount, "maxItems": aCount, "minItems": aCount,
	"maxContains": aCount, "minContains": aCount, "maxProperties": aCount, "minProperties": aCount,
	"pattern": aRegex, "uniqueItems": aBool, "required": aStringSet, "dependentRequired": aStringSets,
	"dependencies": aDependency, "title": aString, "description": aString, "deprecated": aBool,
	"readOnly": aBool, "writeOnly": aBool, "examples": anArray, "format": aString,
	"contentEncoding": aString, "contentMediaType": aString,
}

// kindWords says each valueKind in words, for errors.
var kindWords = map[valueKind]string{
	aString: "a string", aBool: "a boolean", aNumber: "a number", aPositive: "a number greater than 0",
	aCount: "a non-negative integer", aRegex: "a regular expression as a string", anArray: "an array",
	aSchema: "a schema (an object or a boolean)", aSchemaMap: "an object whose members are schemas",
	aSchemaList: "a non-empty array of schemas",
	someTypes:   `one of "array", "boolean", "integer", "null", "number", "object" or "string", or a non-empty array of distinct ones`,
	aStringSet:  "an array of distinct strings", aStringSets: "an object whose members are arrays of distinct strings",
	aDependency: "an object whose members are schemas or arrays of distinct strings",
}

var typeNames = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// checkValue reports a value of keyword kw at at that the meta-schema does
// not allow. Where one item of an array is at fault, the item is reported.
func checkValue(file string, at *jsonPath, kw string, v any, errs *diag.List) {
	kind, ok := valueKinds[kw]
	if !ok {
		return
	}
	item, bad := badValue(kind, v)
	switch {
	case !bad:
	case item >= 0:
		items := v.([]any)
		errs.Addf(file, at.child(strconv.Itoa(item)).String(), "this is not valid JSON Schema: each item of keyword %s must be %s, not %s", kw, itemWords(kind), describe(items[item]))
	default:
		errs.Addf(file, at.String(), "this is not valid JSON Schema: keyword %s must be %s, not %s", kw, kindWords[kind], describe(v))
	}
}

func itemWords(kind valueKind) string {
	if kind == someTypes {
		return `one of "array", "boolean", "integer", "null", "number", "object" or "string", each listed once`
	}
	return "a string, each listed once"
}

// badValue reports whether v is not a value of kind and, where one item
// of an array is at fault, its index (else -1).
func badValue(kind valueKind, v any) (item int, bad bool) {
	switch kind {
	case aString:
		_, ok := v.(string)
		return -1, !ok
	case aBool:
		_, ok := v.(bool)
		return -1, !ok
	case aNumber, aPositive, aCount:
		r, ok := rational(v)
		return -1, !ok || (kind == aPositive && r.Sign() <= 0) || (kind == aCount && (r.Sign() < 0 || !r.IsInt()))
	case aRegex:
		s, ok := v.(string)
		return -1, !ok || !compiles(s)
	case anArray:
		_, ok := v.([]any)
		return -1, !ok
	case aSchema:
		// checkKeywords walks the value as a schema and reports any other
		// kind of value there.
		_, isArray := v.([]any)
		return -1, isArray
	case aSchemaMap:
		_, ok := v.(map[string]any)
		return -1, !ok // the members are walked as schemas
	case aSchemaList:
		l, ok := v.([]any)
		return -1, !ok || len(l) == 0
	case someTypes:
		if s, ok := v.(string); ok {
			return -1, !slices.Contains(typeNames, s)
		}
		l, ok := v.([]any)
		if !ok || len(l) == 0 {
			return -1, true
		}
		return distinctStrings(l, typeNames)
	case aStringSet:
		l, ok := v.([]any)
		if !ok {
			return -1, true
		}
		return distinctStrings(l, nil)
	case aStringSets, aDependency:
		return -1, !membersAreSets(v, kind == aDependency)
	}
	return -1, false
}

// distinctStrings checks that l holds distinct strings, each one of allowed
// when allowed is not nil; it returns the index of an item at fault.
func distinctStrings(l []any, allowed []string) (int, bool) {
	seen := map[string]bool{}
	for i, e := range l {
		s, ok := e.(string)
		if !ok || (allowed != nil && !slices.Contains(allowed, s)) {
			return i, true
		}
		if seen[s] {
			return -1, true // the array as a whole repeats an item
		}
		seen[s] = true
	}
	return -1, false
}

// membersAreSets reports whether v is an object whose members are arrays
// of distinct strings (or, when schemas, also schemas).
func membersAreSets(v any, schemas bool) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, e := range m {
		if l, ok := e.([]any); ok {
			if _, bad := distinctStrings(l, nil); !bad {
				continue
			}
			return false
		}
		if !schemas || !isSchema(e) {
			return false
		}
	}
	return true
}

func isSchema(v any) bool {
	switch v.(type) {
	case map[string]any, bool:
		return true
	}
	return false
}

// compiles reports whether s is a regular expression, as the meta-schema's
// "regex" format reads one (the generator's own reading is ir.Pattern).
func compiles(s string) bool {
	_, err := regexp.Compile(s)
	return err == nil
}

// rational returns the value of a JSON number, exactly.
func rational(v any) (*big.Rat, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(string(n))
}

// describe names a value for an error: short values as they are written,
// anything else by its kind.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) <= 40 {
			return strconv.Quote(x)
		}
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	case json.Number:
		if len(x) <= 40 {
			return string(x)
		}
	case []any, map[string]any:
		if b, err := json.Marshal(x); err == nil && len(b) <= 40 {
			return string(b)
		}
	}
	return kindOf(v)
}

// maxCount is the largest count or length acpgen reads exactly.
const maxCount = 1<<53 - 1

// checkRanges reports the generator's own rules on keyword values that the
// meta-schema allows: bounds so large they cannot be counted, and bounds
// that leave no value to accept.
func checkRanges(file string, at *jsonPath, s map[string]any, errs *diag.List) {
	for _, k := range []string{"minLength", "maxLength", "minItems", "maxItems"} {
		if f, ok := number(s[k]); ok && f > maxCount {
			errs.Addf(file, at.child(k).String(), "keyword %s is %v, more than acpgen can count (at most %d)", k, s[k], int64(maxCount))
		}
	}
	for _, pair := range [][2]string{{"minLength", "maxLength"}, {"minItems", "maxItems"}, {"minimum", "maximum"}} {
		lo, lok := rational(s[pair[0]])
		hi, hok := rational(s[pair[1]])
		if lok && hok && lo.Cmp(hi) > 0 {
			errs.Addf(file, at.child(pair[0]).String(), "keyword %s is %v, more than %s %v: no value is accepted, and no message could hold one", pair[0], s[pair[0]], pair[1], s[pair[1]])
		}
	}
}

// number returns the value of a JSON number as a float64 (±Inf when out of range).
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, !math.IsNaN(f)
}
