package ir_test

import (
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

// Two branches of one union with an inline property of the same name (as
// the id of a request and of a response in sdk 0.5.1): the second takes
// its branch's title.
func TestInlineNamesOfTwoBranches(t *testing.T) {
	id := `{"anyOf":[{"type":"null"},{"type":"integer","format":"int64","title":"number"},{"type":"string","title":"str"}]}`
	types := buildDoc(t, []byte(`{"$defs":{"Message":{"anyOf":[
		{"title":"Request","type":"object","properties":{"id":`+id+`,"method":{"type":"string"}},"required":["id","method"]},
		{"title":"Response","type":"object","properties":{"id":`+id+`,"result":{}},"required":["id"]}]}}}`))
	for _, name := range []string{"MessageId", "MessageResponseId"} {
		if types[name] == nil || types[name].Kind != ir.Union {
			t.Errorf("no inline union %s; types: %v", name, keys(types))
		}
	}
	u := types["Message"].Union
	if got := u.Variants[1].Fields[0].Type.Type; got != types["MessageResponseId"] {
		t.Errorf("Response.id is %v, want MessageResponseId", got)
	}
}

// A tagged union's branch with no tag and no title (McpServer's stdio in
// sdk 0.7.0–0.13.0) is named after the definition it is.
func TestUntitledDefaultBranch(t *testing.T) {
	types := buildDoc(t, []byte(`{"$defs":{
		"ServerHttp":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]},
		"ServerStdio":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]},
		"Server":{"anyOf":[
			{"allOf":[{"$ref":"#/$defs/ServerHttp"}],"type":"object","properties":{"type":{"const":"http","type":"string"}},"required":["type"]},
			{"allOf":[{"$ref":"#/$defs/ServerStdio"}]}]}}}`))
	u := types["Server"].Union
	if u.Default == nil || u.Default.Name != "stdio" {
		t.Fatalf("default branch %+v, want one named stdio", u.Default)
	}
	if len(u.Default.Embeds) != 1 || u.Default.Embeds[0] != types["ServerStdio"] {
		t.Errorf("default branch embeds %v, want ServerStdio", u.Default.Embeds)
	}
}

func keys(m map[string]*ir.Type) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
