// Package bench measures the decoders and encoders that acpgen generates
// against github.com/coder/acp-go-sdk and the encoding/json floors, on the
// same bytes. Run it with `make bench` from the repository root.
//
// The package is its tests: this file only gives it the documentation
// go doc shows.
package bench
