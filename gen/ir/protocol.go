package ir

import "path"

// The protocol versions acpgen knows, by the name of their schema
// directory.
const (
	V1 = "v1"
	V2 = "v2"
)

// A ProtocolVersion is one protocol version acpgen generates a package for.
type ProtocolVersion struct {
	// Name is the version's schema directory and the value of the
	// -version flag: "v1".
	Name string
	// Package is the name of its generated Go package: "acpv1".
	Package string
	// Legacy is the schema file that packages of the schema before they
	// had version directories ship for this version, "" for none.
	Legacy string
}

// ProtocolVersions lists the protocol versions, oldest first: the one table
// of their names, packages and schema files.
var ProtocolVersions = []ProtocolVersion{
	{Name: V1, Package: "acp" + V1, Legacy: "schema.json"},
	{Name: V2, Package: "acp" + V2},
}

// StableFile is the path of the version's stable schema file in a schema
// directory: "v1/schema.json".
func (v ProtocolVersion) StableFile() string { return path.Join(v.Name, "schema.json") }

// UnstableFile is the path of the version's unstable schema file:
// "v1/schema.unstable.json".
func (v ProtocolVersion) UnstableFile() string { return path.Join(v.Name, "schema.unstable.json") }

// VersionNames returns the names of the protocol versions, oldest first.
func VersionNames() []string {
	var out []string
	for _, v := range ProtocolVersions {
		out = append(out, v.Name)
	}
	return out
}
