package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// keyOrder walks a JSON document with the standard library's tokenizer and
// records, for every object, its keys in document order, indexed by the
// object's JSON pointer. Go maps forget that order; generated code keeps it.
func keyOrder(data []byte) (map[string][]string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	out := make(map[string][]string)
	if err := walkValue(dec, "", out); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the schema document")
	}
	return out, nil
}

func walkValue(dec *json.Decoder, ptr string, out map[string][]string) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("at %q: %w", ptr, err)
	}
	switch tok {
	case json.Delim('{'):
		keys := []string{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return fmt.Errorf("at %q: %w", ptr, err)
			}
			k := kt.(string)
			keys = append(keys, k)
			if err := walkValue(dec, ptr+"/"+escape(k), out); err != nil {
				return err
			}
		}
		out[ptr] = keys
		_, err = dec.Token()
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walkValue(dec, fmt.Sprintf("%s/%d", ptr, i), out); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	if err != nil {
		return fmt.Errorf("at %q: %w", strings.TrimSpace(ptr), err)
	}
	return nil
}
