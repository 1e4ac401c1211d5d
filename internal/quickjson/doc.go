// Package quickjson is the generated connections' quick check of a JSON
// value, one loop over its bytes, for the hand-written packages that read
// lines as a proxy does (acpconductor). Its code is the template's
// (templates/conn/proxy_valid.go), copied by TestCopyIsCurrent with
// -update, so that the check is written once.
package quickjson

// Valid reports true when b is surely one JSON value, white space around
// it aside, by one loop over its bytes; false when it is not, or when it
// holds what the loop leaves to a decoder (a \u escape of a surrogate,
// bytes that are not UTF-8, nesting deeper than 64).
func Valid(b []byte) bool { return quickValid(b) }
