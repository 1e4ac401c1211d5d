package acpinspect

import (
	"bytes"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// masked replaces a secret's value on the page.
const masked = "••••••"

// secretLists are the members whose lists of {name, value} pairs carry
// secrets: the environment variables and HTTP headers of the MCP servers
// a client hands an agent (session/new, session/load and the others).
var secretLists = map[string]bool{"env": true, "headers": true}

// maskSecrets returns the JSON text data with the value of each pair of a
// secret list replaced by masked, its members in their order, and whether
// it masked any. Text that is not JSON is returned as it is.
func maskSecrets(data []byte) ([]byte, bool) {
	if !bytes.Contains(data, []byte(`"env"`)) && !bytes.Contains(data, []byte(`"headers"`)) {
		return data, false
	}
	type level struct {
		object  bool
		key     string // the member the container is the value of
		next    string // in an object: the member whose value comes next
		wantKey bool
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out)
	var stack []level
	any := false
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF && len(stack) == 0 {
			break
		} else if err != nil {
			return data, false
		}
		key := ""
		if n := len(stack); n > 0 && stack[n-1].object {
			top := &stack[n-1]
			if top.wantKey && tok.Kind() == '"' {
				top.next, top.wantKey = tok.String(), false
				if err := enc.WriteToken(tok); err != nil {
					return data, false
				}
				continue
			}
			key, top.wantKey = top.next, true
		}
		switch tok.Kind() {
		case '{':
			stack = append(stack, level{object: true, key: key, wantKey: true})
		case '[':
			stack = append(stack, level{key: key})
		case '}', ']':
			stack = stack[:len(stack)-1]
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].wantKey = true
			}
		case '"':
			if n := len(stack); key == "value" && n >= 2 && !stack[n-2].object && secretLists[stack[n-2].key] {
				tok, any = jsontext.String(masked), true
			}
		}
		if err := enc.WriteToken(tok); err != nil {
			return data, false
		}
	}
	if !any {
		return data, false
	}
	return bytes.TrimSuffix(out.Bytes(), []byte{'\n'}), true
}
