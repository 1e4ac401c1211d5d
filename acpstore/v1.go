package acpstore

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// V1 returns the store as the SessionStore of acpv1.TurnRunner
// (TurnOptions.Store). A Save that appends no update waits for its commit.
func (s *Store) V1() acpv1.SessionStore { return v1Store{s} }

type v1Store struct{ s *Store }

func (v v1Store) Save(ctx context.Context, rec *acpv1.SessionRecord, appended ...json.RawMessage) error {
	r := fromV1(rec)
	var one [1][]byte // a turn appends one update at a time
	updates := one[:0]
	for _, u := range appended {
		updates = append(updates, u)
	}
	if err := v.s.Save(ctx, &r, updates, len(appended) == 0); err != nil {
		return v1Error(err)
	}
	rec.Revision, rec.Updates = r.Revision, r.Updates
	return nil
}

func (v v1Store) Load(ctx context.Context, id acpv1.SessionID) (*acpv1.SessionRecord, error) {
	r, err := v.s.Load(ctx, string(id))
	if err != nil {
		return nil, v1Error(err)
	}
	rec := toV1(r)
	return &rec, nil
}

func (v v1Store) History(ctx context.Context, id acpv1.SessionID, f func(seq uint64, update json.RawMessage) error) error {
	return v1Error(v.s.History(ctx, string(id), func(seq uint64, u []byte) error { return f(seq, u) }))
}

func (v v1Store) List(ctx context.Context, q acpv1.SessionQuery) ([]acpv1.SessionRecord, string, error) {
	page, next, err := v.s.List(ctx, Query{Cwd: q.Cwd, Protocol: q.Protocol, Cursor: q.Cursor, Limit: q.Limit})
	if err != nil {
		return nil, "", v1Error(err)
	}
	recs := make([]acpv1.SessionRecord, len(page))
	for i := range page {
		recs[i] = toV1(&page[i])
	}
	return recs, next, nil
}

func (v v1Store) Delete(ctx context.Context, id acpv1.SessionID) error {
	return v1Error(v.s.Delete(ctx, string(id)))
}

// v1Error is err with the store's errors as acpv1's.
func v1Error(err error) error {
	switch {
	case errors.Is(err, ErrNotStored):
		return acpv1.ErrSessionNotStored
	case errors.Is(err, ErrConflict):
		return acpv1.ErrSessionConflict
	case errors.Is(err, ErrBadCursor):
		return acpv1.ErrBadCursor
	}
	return err
}

func fromV1(rec *acpv1.SessionRecord) Record {
	return Record{ID: string(rec.ID), Protocol: rec.Protocol, Cwd: rec.Cwd, Title: rec.Title, UpdatedAt: rec.UpdatedAt,
		Created: rec.Created, ConfigOptions: rec.ConfigOptions, Modes: rec.Modes, MCPServers: rec.MCPServers, Meta: rec.Meta,
		TurnState: string(rec.Turn.State), TurnStop: rec.Turn.StopReason, TurnStarted: rec.Turn.Started, TurnEnded: rec.Turn.Ended,
		Updates: rec.Updates, Dropped: rec.Dropped, Revision: rec.Revision}
}

func toV1(r *Record) acpv1.SessionRecord {
	return acpv1.SessionRecord{ID: acpv1.SessionID(r.ID), Protocol: r.Protocol, Cwd: r.Cwd, Title: r.Title, UpdatedAt: r.UpdatedAt,
		Created: r.Created, ConfigOptions: r.ConfigOptions, Modes: r.Modes, MCPServers: r.MCPServers, Meta: r.Meta,
		Turn:    acpv1.TurnRecord{State: acpv1.TurnState(r.TurnState), StopReason: r.TurnStop, Started: r.TurnStarted, Ended: r.TurnEnded},
		Updates: r.Updates, Dropped: r.Dropped, Revision: r.Revision}
}
