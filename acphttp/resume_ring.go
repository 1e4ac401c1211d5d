package acphttp

import "time"

// retained is a message sent and kept.
type retained struct {
	at  time.Time
	msg []byte
}

// ring holds the messages a stream has sent, oldest first, in a circular
// buffer that grows up to the stream's retention: keeping one more message
// moves none, and dropping the oldest copies nothing.
type ring struct {
	buf  []retained
	head int // the index of the oldest in buf
	n    int // how many it holds
}

// len returns how many messages r holds.
func (r *ring) len() int { return r.n }

// at returns the i-th message of r, oldest first.
func (r *ring) at(i int) *retained {
	i += r.head
	if i >= len(r.buf) {
		i -= len(r.buf)
	}
	return &r.buf[i]
}

// push keeps x after the others, growing r up to limit messages.
func (r *ring) push(x retained, limit int) {
	if r.n == len(r.buf) {
		size := min(max(2*len(r.buf), 2), limit)
		if size <= r.n {
			size = r.n + 1
		}
		buf := make([]retained, size)
		for i := range r.n {
			buf[i] = *r.at(i)
		}
		r.buf, r.head = buf, 0
	}
	r.n++
	*r.at(r.n - 1) = x
}

// dropFront drops the k oldest messages; r lets its buffer go once it
// holds none.
func (r *ring) dropFront(k int) {
	for i := range k {
		*r.at(i) = retained{}
	}
	r.head += k
	if r.head >= len(r.buf) {
		r.head -= len(r.buf)
	}
	r.n -= k
	if r.n == 0 {
		*r = ring{}
	}
}

// truncate keeps the k oldest messages and drops the others.
func (r *ring) truncate(k int) {
	for i := k; i < r.n; i++ {
		*r.at(i) = retained{}
	}
	r.n = k
}
