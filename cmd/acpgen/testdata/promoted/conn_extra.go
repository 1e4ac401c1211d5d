//go:build unstable_extra || unstable

package promoted

// Extra is a method that the unstable_extra build tag adds to conn, and so
// to Conn.
func (c *conn) Extra() error { return nil }
