package names

import "testing"

func TestJoin(t *testing.T) {
	for _, c := range []struct{ parent, member, want string }{
		{"ToolCallContent", "content", "ToolCallContentData"},
		{"AvailableCommand", "command", "AvailableCommandData"},
		{"ToolCallContent", "diff", "ToolCallContentDiff"},
		{"PlanUpdate", "update_content", "PlanUpdateContent"},
		{"SessionUpdate", "session_info_update", "SessionUpdateSessionInfoUpdate"},
		{"MCPServer", "http", "MCPServerHTTP"},
	} {
		if got := join(c.parent, c.member); got != c.want {
			t.Errorf("join(%q, %q) = %q, want %q", c.parent, c.member, got, c.want)
		}
	}
}

func TestDestutter(t *testing.T) {
	for in, want := range map[string]string{
		"EmbeddedResourceResource": "EmbeddedResourceData",
		"FooBarFooBar":             "FooBarData",
		"SessionUpdate":            "SessionUpdate",
		"UUID":                     "UUID",
		"ResourceLink":             "ResourceLink",
	} {
		if got := destutter(in); got != want {
			t.Errorf("destutter(%q) = %q, want %q", in, got, want)
		}
	}
}
