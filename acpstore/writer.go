package acpstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"time"
)

// batch is what Saves queued for one commit.
type batch struct {
	sessions map[string]*pending
	order    []*pending
	updates  int
	first    time.Time        // when the first Save queued into it
	done     chan struct{}    // closed once committed, or failed
	errs     map[string]error // per session, set before done closes (or before the commit: not written)
	err      error            // the commit's error, set before done closes
}

// pending is what a batch writes of one session: its record over the
// revision base, with the updates appended since, their JSON one after
// the other in body and the length of each in sizes.
type pending struct {
	base  uint64
	rec   Record
	body  []byte
	sizes []int
}

func newBatch() *batch {
	return &batch{sessions: map[string]*pending{}, done: make(chan struct{}), errs: map[string]error{}}
}

// Save writes rec, and appends updates to the session's history (the
// params of session/update notifications as sent), at once: a reader sees
// both or neither. rec is written only over the revision it was read at
// (0 for a new session): another writer's revision makes Save, or the next
// Save of the session, fail with ErrConflict. On success it sets
// rec.Revision to the new revision. Save queues the write for the writer
// and returns; it waits for the commit when wait is true or the store's
// queue is full. It copies what it keeps.
func (s *Store) Save(ctx context.Context, rec *Record, updates [][]byte, wait bool) error {
	s.mu.Lock()
	switch err := s.failed[rec.ID]; {
	case s.closed:
		s.mu.Unlock()
		return ErrClosed
	case err != nil:
		delete(s.failed, rec.ID)
		s.mu.Unlock()
		return err
	case s.fault != nil:
		err := s.fault
		s.mu.Unlock()
		return fmt.Errorf("acpstore: the store cannot write now: %w", err)
	}
	if rev, ok := s.revs[rec.ID]; ok && rev != rec.Revision {
		s.mu.Unlock()
		return ErrConflict
	}
	b := s.cur
	p := b.sessions[rec.ID]
	if p == nil {
		p = s.newPending(rec.Revision)
		b.sessions[rec.ID] = p
		b.order = append(b.order, p)
	}
	if len(b.order) == 1 && b.updates == 0 {
		b.first = time.Now()
	}
	for _, u := range updates {
		p.body = append(p.body, u...)
		p.sizes = append(p.sizes, len(u))
	}
	b.updates += len(updates)
	rec.Revision++
	rec.Updates += uint64(len(updates))
	p.rec = *rec
	s.revs[rec.ID] = rec.Revision
	wait = wait || rec.Revision == 1 || b.updates >= s.opts.MaxPending
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default:
	}
	if !wait {
		return nil
	}
	select {
	case <-b.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := b.errs[rec.ID]; err != nil {
		delete(s.failed, rec.ID)
		return err
	}
	if b.err != nil {
		return fmt.Errorf("acpstore: the write failed, and is retried: %w", b.err)
	}
	return nil
}

// Flush waits until what Saves queued before it has been committed (or
// the commit failed: its error).
func (s *Store) Flush(ctx context.Context) error {
	s.mu.Lock()
	b := s.cur
	if len(b.order) == 0 {
		b = s.flight
	}
	s.mu.Unlock()
	if b == nil {
		return nil
	}
	select {
	case s.kick <- struct{}{}:
	default:
	}
	select {
	case <-b.done:
		return b.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writer commits the batches, one after the other, until Close: it owns
// the commits.
func (s *Store) writer() {
	defer close(s.stopped)
	for {
		select {
		case <-s.kick:
		case <-s.stop:
			s.final()
			return
		}
		for s.commitNext() {
			s.mu.Lock()
			fault := s.fault
			s.mu.Unlock()
			if fault != nil {
				select {
				case <-time.After(s.opts.RetryInterval):
				case <-s.stop:
					s.final()
					return
				}
			}
		}
	}
}

// final commits what is queued at Close, once; what it could not commit
// is lost, and its Savers are answered with the commit's error.
func (s *Store) final() {
	s.commitNext()
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := s.cur; len(b.order) > 0 {
		b.err = fmt.Errorf("%w before the queued writes were committed: %w", ErrClosed, s.fault)
		close(b.done)
		s.cur = newBatch()
	}
}

// commitNext commits the batch queued; it reports whether there was one.
func (s *Store) commitNext() bool {
	s.mu.Lock()
	b := s.cur
	if len(b.order) == 0 && len(b.errs) == 0 {
		s.mu.Unlock()
		return false
	}
	s.cur, s.flight = newBatch(), b
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	err := s.commit(ctx, b)
	cancel()
	s.mu.Lock()
	defer close(b.done)
	defer s.mu.Unlock()
	s.flight = nil
	if err != nil {
		b.err = err
		s.fault = err
		s.stats.Failures++
		s.requeue(b)
		return true
	}
	s.fault = nil
	s.reuse(b)
	s.stats.Commits++
	s.stats.Updates += uint64(b.updates)
	if lag := time.Since(b.first); lag > s.stats.MaxLag {
		s.stats.MaxLag = lag
	}
	for id, err := range b.errs {
		s.failed[id] = err
		s.revs[id] = lost
		// What the loser queued since was written over its own revisions,
		// which may by chance be the winner's: none of it is written.
		if _, queued := s.cur.sessions[id]; queued {
			s.cur.errs[id] = err
		}
	}
	return true
}

// spares is how many pendings of committed batches a store keeps for
// the next, with their buffers of at most spareBytes.
const (
	spares     = 8
	spareBytes = 1 << 20
)

// newPending returns a pending of a session over revision base, with the
// buffers of one committed before when there is one; s.mu is held.
func (s *Store) newPending(base uint64) *pending {
	if n := len(s.spare); n > 0 {
		p := s.spare[n-1]
		s.spare = s.spare[:n-1]
		p.base = base
		return p
	}
	return &pending{base: base}
}

// reuse keeps the pendings of committed batch b, emptied, for the batches
// to come, so that a streaming turn appends into the buffers of the
// commit before; s.mu is held.
func (s *Store) reuse(b *batch) {
	for _, p := range b.order {
		if len(s.spare) == spares {
			return
		}
		if cap(p.body) > spareBytes {
			continue
		}
		*p = pending{body: p.body[:0], sizes: p.sizes[:0]}
		s.spare = append(s.spare, p)
	}
}

// lost is the revision a store keeps of a session whose write lost to
// another writer's: no record has it, so that every Save of the session
// fails with ErrConflict until Load reads the session again.
const lost = ^uint64(0)

// requeue queues the sessions of failed batch b again, before what was
// queued since, for the next commit; s.mu is held.
func (s *Store) requeue(b *batch) {
	next := newBatch()
	next.first = b.first
	for _, errs := range []map[string]error{b.errs, s.cur.errs} {
		maps.Copy(next.errs, errs) // sessions that lost to another writer: not written
	}
	for _, q := range [][]*pending{b.order, s.cur.order} {
		for _, p := range q {
			if next.errs[p.rec.ID] != nil {
				continue
			}
			next.updates += len(p.sizes)
			old := next.sessions[p.rec.ID]
			if old == nil {
				cp := *p
				next.sessions[p.rec.ID] = &cp
				next.order = append(next.order, &cp)
				continue
			}
			old.rec, old.body, old.sizes = p.rec, append(old.body, p.body...), append(old.sizes, p.sizes...)
		}
	}
	// Savers waiting on the batch queued since wait on next from now on.
	go func(queued, next *batch) {
		<-next.done
		queued.err, queued.errs = next.err, next.errs
		close(queued.done)
	}(s.cur, next)
	s.cur = next
}

// commit writes batch b in one transaction. A session whose revision is
// not its base is left out (b.errs); any other failure fails the whole.
func (s *Store) commit(ctx context.Context, b *batch) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, p := range b.order {
		if b.errs[p.rec.ID] != nil {
			continue // lost to another writer in the commit before
		}
		ok, err := s.write(ctx, tx, p)
		if err != nil {
			return err
		}
		if !ok {
			b.errs[p.rec.ID] = ErrConflict
		}
	}
	return tx.Commit()
}

// write writes session p in tx; ok is false on a conflict.
func (s *Store) write(ctx context.Context, tx *sql.Tx, p *pending) (ok bool, err error) {
	r := &p.rec
	var title any
	if r.Title != nil {
		title = *r.Title
	}
	args := []any{r.ID, r.Protocol, r.Cwd, title, r.UpdatedAt, nanos(r.Created), nullBytes(r.ConfigOptions), nullBytes(r.Modes),
		nullBytes(r.MCPServers), nullBytes(r.Meta), r.TurnState, nullBytes(r.TurnStop), nanos(r.TurnStarted), nanos(r.TurnEnded),
		len(p.sizes), len(p.body), int64(r.Revision)}
	query := s.q.insert
	if p.base != 0 {
		query, args = s.q.update, append(args, int64(p.base))
	}
	var updates, dropped, bytes int64
	err = tx.QueryRowContext(ctx, query, args...).Scan(&updates, &dropped, &bytes)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := s.appendHistory(ctx, tx, r.ID, updates-int64(len(p.sizes))+1, p); err != nil {
		return false, err
	}
	return true, s.bound(ctx, tx, r.ID, updates, dropped, bytes)
}

// nullBytes is b, or NULL for nil.
func nullBytes(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}
