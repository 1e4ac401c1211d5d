package acpinspect

// chunkBits sets the size of the chunks of a chunked list: 4096 items.
const chunkBits = 12

// chunked is a list that grows by chunks and never moves its items, so
// that a long recording is neither copied as it grows nor held twice.
type chunked[T any] struct {
	chunks []*[1 << chunkBits]T
	n      int
}

// add appends v and returns its index.
func (c *chunked[T]) add(v T) int {
	i := c.n
	if i>>chunkBits == len(c.chunks) {
		c.chunks = append(c.chunks, new([1 << chunkBits]T))
	}
	c.chunks[i>>chunkBits][i&(1<<chunkBits-1)] = v
	c.n++
	return i
}

// at returns the item at index i.
func (c *chunked[T]) at(i int) *T { return &c.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

// len returns the number of items.
func (c *chunked[T]) len() int { return c.n }

// copyRange returns a copy of the items from index from up to to.
func (c *chunked[T]) copyRange(from, to int) []T {
	out := make([]T, 0, max(to-from, 0))
	for i := from; i < to; i++ {
		out = append(out, *c.at(i))
	}
	return out
}
