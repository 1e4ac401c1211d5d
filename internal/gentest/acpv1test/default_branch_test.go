package acpv1test

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// An agent on npm (built on the Rust reference crate) lists this method in
// its initialize answer. The schema's AuthMethod is anyOf [terminal, agent],
// and its agent branch leaves "type" free: the method is an agent method.
const envVarMethod = `{"type":"env_var","id":"codex-api-key","name":"Use CODEX_API_KEY","vars":[{"name":"CODEX_API_KEY"}]}`

// TestDefaultBranchAuthMethods: a client that type-switches on the auth
// methods of a real agent sees each method the schema reads as an agent
// method as one, with the tag it came with, and writes the answer back as
// it was received.
func TestDefaultBranchAuthMethods(t *testing.T) {
	in := `{"protocolVersion":1,"authMethods":[` +
		`{"id":"chatgpt","name":"Login with ChatGPT"},` +
		`{"type":"terminal","id":"login","name":"Log in in a terminal"},` +
		envVarMethod + `]}`
	var res acpv1.InitializeResponse
	if err := json.Unmarshal([]byte(in), &res); err != nil {
		t.Fatal(err)
	}
	var agent, terminal, unknown []string
	for _, m := range res.AuthMethods {
		switch v := m.Value.(type) {
		case *acpv1.AuthMethodAgentVariant:
			agent = append(agent, string(v.ID)+"/"+m.Tag())
		case *acpv1.AuthMethodTerminalVariant:
			terminal = append(terminal, string(v.ID))
		default:
			unknown = append(unknown, m.Tag())
		}
	}
	if len(agent) != 2 || agent[0] != "chatgpt/" || agent[1] != "codex-api-key/env_var" || len(terminal) != 1 || len(unknown) != 0 {
		t.Errorf("agent %q, terminal %q, unknown %q; want 2 agent methods (the second with tag env_var) and 1 terminal", agent, terminal, unknown)
	}
	out, err := json.Marshal(&res)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Errorf("written back as\n%s\nwant\n%s", out, in)
	}
}

// TestDefaultBranchUnknownTags: in every v1 union whose branch without tag
// leaves the tag free and that has no branch for unknown tags, an unknown
// tag gives that branch when the object fits it, wherever the tag stands,
// and the unknown variant when it does not; a known tag whose object does
// not fit its variant but fits that branch gives the branch with the tag.
func TestDefaultBranchUnknownTags(t *testing.T) {
	type result struct {
		value any
		tag   string
		out   string
	}
	decode := func(t *testing.T, in string, v interface {
		json.Unmarshaler
		json.Marshaler
	}, tag func() string, value func() any) result {
		t.Helper()
		if err := v.UnmarshalJSON([]byte(in)); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		out, err := v.MarshalJSON()
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		return result{value(), tag(), string(out)}
	}
	authMethod := func(t *testing.T, in string) result {
		var m acpv1.AuthMethod
		return decode(t, in, &m, func() string { return m.Tag() }, func() any { return m.Value })
	}
	for _, c := range []struct{ in, tag, out string }{
		{envVarMethod, "env_var", envVarMethod},
		{`{"id":"a","type":"_custom","name":"A"}`, "_custom", `{"type":"_custom","id":"a","name":"A"}`},
		{`{"type":"terminal","id":"a","name":"A","args":7}`, "terminal", `{"type":"terminal","id":"a","name":"A","args":7}`},
	} {
		r := authMethod(t, c.in)
		if _, ok := r.value.(*acpv1.AuthMethodAgentVariant); !ok || r.tag != c.tag || r.out != c.out {
			t.Errorf("%s: %T with tag %q, written %s; want the agent variant with tag %q, written %s", c.in, r.value, r.tag, r.out, c.tag, c.out)
		}
	}
	for _, in := range []string{`{"type":"env_var","name":"no id"}`, `{"name":"no id","type":"env_var","vars":[]}`} {
		r := authMethod(t, in)
		if o, ok := r.value.(*acpv1.AuthMethodOther); !ok || r.tag != "env_var" || r.out != in || string(o.Raw) != in {
			t.Errorf("%s: %T with tag %q, written %s; want the unknown variant, kept as received", in, r.value, r.tag, r.out)
		}
	}
	if r := authMethod(t, `{"id":"a","name":"A"}`); r.tag != "" || r.out != `{"id":"a","name":"A"}` {
		t.Errorf("without a tag: tag %q, written %s", r.tag, r.out)
	}

	const stdio = `{"type":"_local","name":"fs","command":"/bin/fs","args":[],"env":[]}`
	var s acpv1.MCPServer
	r := decode(t, stdio, &s, func() string { return s.Tag() }, func() any { return s.Value })
	if v, ok := r.value.(*acpv1.MCPServerStdioVariant); !ok || v.Command != "/bin/fs" || r.tag != "_local" || r.out != stdio {
		t.Errorf("McpServer %s: %T with tag %q, written %s", stdio, r.value, r.tag, r.out)
	}

	const set = `{"sessionId":"s","configId":"c","type":"select","value":"fast"}`
	var req acpv1.SetSessionConfigOptionRequest
	r = decode(t, set, &req, func() string { return req.Tag() }, func() any { return req.Value })
	if v, ok := r.value.(*acpv1.SetSessionConfigOptionRequestValueID); !ok || v.Value != "fast" || r.tag != "select" {
		t.Errorf("SetSessionConfigOptionRequest %s: %T with tag %q", set, r.value, r.tag)
	}
	const setObject = `{"sessionId":"s","configId":"c","type":"select","value":{"id":"fast"}}`
	r = decode(t, setObject, &req, func() string { return req.Tag() }, func() any { return req.Value })
	if _, ok := r.value.(*acpv1.SetSessionConfigOptionRequestOther); !ok || r.tag != "select" || r.out != setObject {
		t.Errorf("SetSessionConfigOptionRequest %s: %T with tag %q, written %s; want the unknown variant", setObject, r.value, r.tag, r.out)
	}
}

// TestDefaultBranchAllocs: a known tag and a value without tag decode with
// the allocations they had before unknown tags went to the branch without
// tag (the decoded strings and the variant).
func TestDefaultBranchAllocs(t *testing.T) {
	for in, max := range map[string]float64{
		`{"type":"terminal","id":"a","name":"A"}`: allocsKnown,
		`{"id":"a","name":"A"}`:                   allocsKnown,
	} {
		data := []byte(in)
		var m acpv1.AuthMethod
		n := testing.AllocsPerRun(200, func() {
			m = acpv1.AuthMethod{}
			if err := m.UnmarshalJSON(data); err != nil {
				t.Fatal(err)
			}
		})
		if n > max {
			t.Errorf("%s: %v allocations, want at most %v", in, n, max)
		}
	}
}

// allocsKnown is what both took before unknown tags went to the branch without tag.
const allocsKnown = 1
