package sessiontest

import (
	"reflect"
	"strings"
)

// changeLabels are the words Describe writes for the members of a
// generated SessionChange; a member not listed is written lower-case.
var changeLabels = map[string]string{"Plans": "plan", "ToolCalls": "tool call", "ConfigOptions": "config options"}

// Describe writes out c, a generated package's SessionChange, for the
// golden files and the tests: the ids of its lists ("plan main", "tool
// call t1"), then the names of its true flags ("mode"), in the order of
// its members, or "nothing".
func Describe(c any) string {
	v := reflect.ValueOf(c)
	var parts []string
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		label, ok := changeLabels[name]
		if !ok {
			label = strings.ToLower(name)
		}
		switch f := v.Field(i); f.Kind() {
		case reflect.Slice:
			for j := 0; j < f.Len(); j++ {
				parts = append(parts, label+" "+f.Index(j).String())
			}
		case reflect.Bool:
			if f.Bool() {
				parts = append(parts, label)
			}
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}
