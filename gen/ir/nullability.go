package ir

import (
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Null semantics: whether an explicit null is a value of its own.
//
// JSON Schema says which properties accept null (a type list with "null",
// an anyOf/oneOf branch of type null, or free-form JSON), but not what a null
// means; the schema's prose does. Most nullable properties say "Omitted and
// `null` are equivalent", and Go keeps them as a pointer, a slice or a map,
// nil for both. Upserts ("patch semantics") give null a meaning of its own,
// "clear the stored value", which must survive decoding and encoding again:
// those fields are Nullable[T], with absent, null and a value apart.
//
// The meaning is stated either on the property ("`null` clears the name",
// "Set to null to clear") or on its object, for named properties ("`summary`,
// `error`, and `_meta` have patch semantics") or for all of them ("Other
// fields have patch semantics", "Omitted fields leave … unchanged. `null`
// clears the corresponding value"). A property that says null and omission
// are equivalent keeps that meaning whatever its object says. Only optional
// properties can tell absent from null; a required one is a pointer.

// NullUse is what an explicit null does for a field.
type NullUse int

const (
	// NullRejected: null is not a value of the field.
	NullRejected NullUse = iota
	// NullAbsent: null is accepted and means what absence does.
	NullAbsent
	// NullDistinct: null is a value of its own ("clear it").
	NullDistinct
)

func (n NullUse) String() string {
	return [...]string{"rejected", "same as absent", "distinct"}[n]
}

var (
	// nullClears finds a property's own statement that null clears it.
	nullClears = regexp.MustCompile("(?i)set\\s+to\\s+null\\s+to\\s+clear|`?null`?\\s+(clears|unsets|resets|removes)")
	// nullSame finds a statement that null and omission mean the same.
	nullSame = regexp.MustCompile("(?i)omitted\\s+and\\s+`?null`?\\s+are\\s+equivalent|treat\\s+`?null`?\\s+like\\s+omission")
	// patchNamed finds the properties an object names as patch fields:
	// "`summary`, `error`, and `_meta` have patch semantics".
	patchNamed = regexp.MustCompile("((?:`[^`]+`[,\\s]*(?:and\\s+)?)+)(?:has|have)\\s+patch\\s+semantics")
	// patchAll finds an object's statement that every optional field is
	// a patch field.
	patchAll = regexp.MustCompile("(?i)other\\s+fields\\s+have\\s+patch\\s+semantics|omitted\\s+(?:patch\\s+)?fields\\s+(?:leave|keep)[^.]*\\.\\s*`?null`?\\s+clears")
	// backticked is one name in backticks.
	backticked = regexp.MustCompile("`([^`]+)`")
)

// nullUse decides the null semantics of property name of the object schema
// obj, whose value schema is p.
func nullUse(obj *jsonschema.Schema, name string, p *jsonschema.Schema, required bool) NullUse {
	if !isNullable(p) && !isFreeForm(p) {
		return NullRejected
	}
	if required || nullSame.MatchString(p.Description) {
		return NullAbsent
	}
	if nullClears.MatchString(p.Description) || patchField(obj.Description, name) {
		return NullDistinct
	}
	return NullAbsent
}

// patchField reports whether the description of an object gives its
// property name patch semantics.
func patchField(desc, name string) bool {
	if patchAll.MatchString(desc) {
		return true
	}
	for _, m := range patchNamed.FindAllStringSubmatch(desc, -1) {
		for _, n := range backticked.FindAllStringSubmatch(m[1], -1) {
			if strings.TrimSpace(n[1]) == name {
				return true
			}
		}
	}
	return false
}
