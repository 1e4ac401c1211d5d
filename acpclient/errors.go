package acpclient

import (
	"fmt"
	"net/url"
)

// refusal is a request the Host refuses: -32602 (invalid params) with data
// {field: value, "reason": reason}.
type refusal struct {
	field, value, reason string
}

func (r *refusal) Error() string {
	return fmt.Sprintf("acpclient: %s %q: %s", r.field, r.value, r.reason)
}

// data is the error's data.
func (r *refusal) data() map[string]string {
	return map[string]string{r.field: r.value, "reason": r.reason}
}

// refusePath refuses path for reason.
func refusePath(path, reason string) error {
	return &refusal{field: "path", value: path, reason: reason}
}

// notFound is a file that does not exist: -32002 (resource not found).
type notFound struct{ path string }

func (n *notFound) Error() string { return fmt.Sprintf("acpclient: %s does not exist", n.path) }

// uri is the file's file:// URI.
func (n *notFound) uri() string { return (&url.URL{Scheme: "file", Path: n.path}).String() }
