// Package schema embeds the pinned copies of the ACP schema files, so that
// acpgen runs with no schema files on disk. `make schema VERSION=x.y.z`
// refreshes them from the npm package @agentclientprotocol/sdk.
package schema

import "embed"

// FS holds v1/ and v2/, each with schema.json and schema.unstable.json, and
// provenance.json naming the package version and each file's sha256, and
// features.json naming the unstable feature of unstable items, and
// removed.json naming union tags a version dropped.
//
//go:embed provenance.json features.json removed.json v1/*.json v2/*.json
var FS embed.FS
