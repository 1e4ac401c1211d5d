package acpstore

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
)

// A history is stored in rows of updates (schema version 2): a row holds
// the n updates at positions seq to seq+n-1, their JSON one after the
// other in body, and in sizes the length of each as a uvarint (NULL for a
// row of one update, as every row of version 1 was). A commit writes a
// session's updates in rows of at most rowBytes of JSON (a larger update
// alone), so that a streaming turn pays a row per rowBytes, not per
// update. The bound is exact: it deletes the rows whose updates are all
// dropped and cuts the row that holds the first kept one.

// rowBytes is how many bytes of JSON a row of history holds at most, but
// for a row of one larger update.
const rowBytes = 64 << 10

// appendHistory inserts the updates of p, at positions first, first+1, …,
// in rows of at most rowBytes.
func (s *Store) appendHistory(ctx context.Context, tx *sql.Tx, id string, first int64, p *pending) error {
	body, sizes := p.body, p.sizes
	var frame []byte
	for len(sizes) > 0 {
		n, size := 1, sizes[0]
		for n < len(sizes) && size+sizes[n] <= rowBytes {
			size += sizes[n]
			n++
		}
		var framed any // NULL for one update
		if n > 1 {
			frame = frame[:0]
			for _, l := range sizes[:n] {
				frame = binary.AppendUvarint(frame, uint64(l))
			}
			framed = frame
		}
		if _, err := tx.ExecContext(ctx, s.q.insertRow, id, first, n, body[:size], framed); err != nil {
			return err
		}
		body, sizes, first = body[size:], sizes[n:], first+int64(n)
	}
	return nil
}

// rowUpdates calls f with each update of a row of history (its seq, n,
// body and sizes), and its position.
func rowUpdates(id string, seq, n int64, body, sizes []byte, f func(seq uint64, update []byte) error) error {
	off := int64(0)
	return rowSizes(id, seq, n, int64(len(body)), sizes, func(pos, size int64) error {
		u := body[off : off+size]
		off += size
		return f(uint64(pos), u)
	})
}

// rowSizes calls f with the position and size of each update of a row of
// history whose body is length bytes; a row whose sizes do not frame its
// body whole is an error that names its session and position.
func rowSizes(id string, seq, n, length int64, sizes []byte, f func(pos, size int64) error) error {
	if n < 1 {
		return damagedRow(id, seq)
	}
	if sizes == nil {
		if n != 1 {
			return damagedRow(id, seq)
		}
		return f(seq, length)
	}
	for i := range n {
		l, k := binary.Uvarint(sizes)
		if k <= 0 || l > uint64(length) {
			return damagedRow(id, seq)
		}
		if err := f(seq+i, int64(l)); err != nil {
			return err
		}
		length, sizes = length-int64(l), sizes[k:]
	}
	if length != 0 || len(sizes) != 0 {
		return damagedRow(id, seq)
	}
	return nil
}

func damagedRow(id string, seq int64) error {
	return fmt.Errorf("acpstore: the history of session %q is damaged: its row at position %d does not hold the updates it says", id, seq)
}

// bound drops the oldest updates of session id past the store's bounds:
// the rows whose updates are all dropped are deleted, and the row that
// holds both dropped and kept updates is cut to the kept ones.
func (s *Store) bound(ctx context.Context, tx *sql.Tx, id string, updates, dropped, bytes int64) error {
	maxUpdates, maxBytes := int64(s.opts.MaxUpdates), int64(s.opts.MaxBytes)
	if updates-dropped <= maxUpdates && bytes <= maxBytes {
		return nil
	}
	to, freed := max(dropped, updates-maxUpdates), int64(0)
	rows, err := tx.QueryContext(ctx, s.q.sizes, id, dropped)
	if err != nil {
		return err
	}
	var cut *rowCut
	for cut == nil && rows.Next() {
		var seq, n, length int64
		var sizes []byte
		if err := rows.Scan(&seq, &n, &length, &sizes); err != nil {
			rows.Close()
			return err
		}
		off, k := int64(0), int64(0)
		err := rowSizes(id, seq, n, length, sizes, func(pos, size int64) error {
			switch {
			case pos <= dropped:
			case pos > to && bytes-freed <= maxBytes:
				if k > 0 {
					cut = &rowCut{seq: seq, to: pos, n: n - k, off: off, sizes: cutSizes(sizes, k)}
				}
				return errKept
			default:
				to, freed = max(to, pos), freed+size
			}
			off, k = off+size, k+1
			return nil
		})
		if err != nil && err != errKept {
			rows.Close()
			return err
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q.trim, id, to); err != nil {
		return err
	}
	if cut != nil {
		if _, err := tx.ExecContext(ctx, s.q.cut, id, cut.seq, cut.to, cut.n, cut.off+1, nullBytes(cut.sizes)); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, s.q.bounds, id, to, freed)
	return err
}

// errKept ends the scan of bound at the first update it keeps.
var errKept = fmt.Errorf("kept")

// rowCut is a row of history cut to its updates from position to on: n
// of them, from byte off of its body, framed by sizes.
type rowCut struct {
	seq, to, n, off int64
	sizes           []byte
}

// cutSizes is the sizes of a row without its first k updates, nil when
// one is left.
func cutSizes(sizes []byte, k int64) []byte {
	for range k {
		_, n := binary.Uvarint(sizes)
		sizes = sizes[n:]
	}
	if _, n := binary.Uvarint(sizes); n == len(sizes) {
		return nil
	}
	return sizes
}
