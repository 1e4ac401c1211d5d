package jsontest

import (
	"encoding/json"
	"testing"
)

// DefCase is a Case for the Go type of a schema definition, named by its
// schema name, with the decoded value described by a shape (see Fields), so
// that one table serves every generated package.
type DefCase struct {
	Name string
	In   string

	// Want is the shape of the decoded value; nil is the zero value.
	Want any

	// Err, Field, Valid and Enc are those of Case; Exact asks for the
	// encoding byte for byte, not only the same JSON value.
	Err   string
	Field string
	Valid bool
	Enc   string
	Exact bool
}

// Definitions maps a schema definition's name to a constructor of its Go
// type, as the generated packages' tests declare it.
type Definitions = map[string]func() any

// RunDefCases decodes each case's input into the Go type of def, looked up
// in defs, in a subtest of its name (or input), and checks the value or the error,
// then the encoding, as RunCases does.
func RunDefCases(t *testing.T, defs Definitions, def string, cases []DefCase) {
	t.Helper()
	newValue, ok := defs[def]
	if !ok {
		t.Fatalf("no definition %s", def)
	}
	for _, c := range cases {
		name := c.Name
		if name == "" {
			name = c.In
		}
		t.Run(name, func(t *testing.T) {
			got := newValue()
			err := json.Unmarshal([]byte(c.In), got)
			if c.Err != "" || c.Field != "" {
				assertCaseError(t, Case[any]{In: c.In, Err: c.Err, Field: c.Field}, got, err)
				return
			}
			if err != nil {
				t.Fatalf("decode %s\n got error %q, want none", c.In, err)
			}
			AssertShape(t, got, c.Want)
			checkEncoding(t, c.In, got, c.Enc, c.Valid, c.Exact)
		})
	}
}
