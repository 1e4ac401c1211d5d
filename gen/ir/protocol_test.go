package ir

import "testing"

// TestProtocolVersions checks the table of versions against the names the
// generated packages and the schema directories have.
func TestProtocolVersions(t *testing.T) {
	want := []struct{ name, pkg, stable, unstable string }{
		{"v1", "acpv1", "v1/schema.json", "v1/schema.unstable.json"},
		{"v2", "acpv2", "v2/schema.json", "v2/schema.unstable.json"},
	}
	if len(ProtocolVersions) != len(want) {
		t.Fatalf("%d versions, want %d", len(ProtocolVersions), len(want))
	}
	for i, w := range want {
		v := ProtocolVersions[i]
		if v.Name != w.name || v.Package != w.pkg || v.StableFile() != w.stable || v.UnstableFile() != w.unstable {
			t.Errorf("version %d = %+v (%s, %s), want %+v", i, v, v.StableFile(), v.UnstableFile(), w)
		}
	}
	if got := VersionNames(); len(got) != 2 || got[0] != V1 || got[1] != V2 {
		t.Errorf("VersionNames() = %v", got)
	}
}
