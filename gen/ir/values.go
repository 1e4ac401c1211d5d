package ir

import (
	"encoding/json"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// allowed is the list of JSON texts that const and enum of s allow, sorted.
func allowed(s *jsonschema.Schema) ([]string, error) {
	var values []string
	if s.Enum != nil {
		for _, v := range s.Enum {
			text, err := json.Marshal(v)
			if err != nil {
				return nil, errorf(s, "enum value %v cannot be written as JSON: %v", v, err)
			}
			values = append(values, string(text))
		}
	}
	if len(s.Constant) > 0 {
		text, err := json.Marshal(s.Constant[0])
		if err != nil {
			return nil, errorf(s, "const %v cannot be written as JSON: %v", s.Constant[0], err)
		}
		if s.Enum == nil {
			values = []string{string(text)}
		} else {
			keep := []string{}
			for _, v := range values {
				if jsonKey(v) == jsonKey(string(text)) {
					keep = append(keep, v)
				}
			}
			values = keep
		}
	}
	sort.Strings(values)
	return values, nil
}

// jsonKey is a JSON text with its numbers written one way for each value
// (1, 1.0 and 1e0 alike), for telling which of two lists' values are equal.
func jsonKey(text string) string {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return text
	}
	out, err := json.Marshal(numbersByValue(v))
	if err != nil {
		return text
	}
	return string(out)
}

// numbersByValue replaces each number in v by the text of its value.
func numbersByValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		text := string(x)
		if e := strings.IndexAny(text, "eE"); e >= 0 {
			// A big exponent would make big.Rat build a huge power of ten.
			if n, err := strconv.Atoi(text[e+1:]); err != nil || n < -400 || n > 400 {
				return map[string]any{"\x00number": text}
			}
		}
		if r, ok := new(big.Rat).SetString(text); ok {
			text = r.RatString()
		}
		return map[string]any{"\x00number": text}
	case []any:
		for i := range x {
			x[i] = numbersByValue(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbersByValue(x[k])
		}
	}
	return v
}
