package acpconductor

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"./agent", []string{"./agent"}},
		{"  ./proxy   -inject  x ", []string{"./proxy", "-inject", "x"}},
		{"./proxy -inject '[a] b'", []string{"./proxy", "-inject", "[a] b"}},
		{`./proxy -inject "[a] \"b\" \$x \\ \q"`, []string{"./proxy", "-inject", `[a] "b" $x \ \q`}},
		{`a\ b c\'d`, []string{"a b", "c'd"}},
		{`x'y'"z" '' ""`, []string{"xyz", "", ""}},
		{"a\tb\nc", []string{"a", "b", "c"}},
		{"a\\\nb", []string{"ab"}},
		{`'it''s'`, []string{"its"}},
		{`"a\
b"`, []string{"ab"}},
		{`'$HOME' ~ *`, []string{"$HOME", "~", "*"}},
		{"", nil},
		{"   ", nil},
	} {
		got, err := Split(c.in)
		if err != nil {
			t.Errorf("Split(%q): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Split(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSplitErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`a 'b`, "single quote at byte 2"},
		{`a "b\"`, "double quote at byte 2"},
		{`a\`, "backslash at the end"},
	} {
		_, err := Split(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Split(%q): error %v, want one with %q", c.in, err, c.want)
		}
	}
}
