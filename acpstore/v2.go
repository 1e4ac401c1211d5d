package acpstore

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// V2 returns the store as the SessionStore of acpv2.TurnRunner
// (TurnOptions.Store). A Save that appends no update waits for its commit.
func (s *Store) V2() acpv2.SessionStore { return v2Store{s} }

type v2Store struct{ s *Store }

func (v v2Store) Save(ctx context.Context, rec *acpv2.SessionRecord, appended ...json.RawMessage) error {
	r := fromV2(rec)
	var one [1][]byte // a turn appends one update at a time
	updates := one[:0]
	for _, u := range appended {
		updates = append(updates, u)
	}
	if err := v.s.Save(ctx, &r, updates, len(appended) == 0); err != nil {
		return v2Error(err)
	}
	rec.Revision, rec.Updates = r.Revision, r.Updates
	return nil
}

func (v v2Store) Load(ctx context.Context, id acpv2.SessionID) (*acpv2.SessionRecord, error) {
	r, err := v.s.Load(ctx, string(id))
	if err != nil {
		return nil, v2Error(err)
	}
	rec := toV2(r)
	return &rec, nil
}

func (v v2Store) History(ctx context.Context, id acpv2.SessionID, f func(seq uint64, update json.RawMessage) error) error {
	return v2Error(v.s.History(ctx, string(id), func(seq uint64, u []byte) error { return f(seq, u) }))
}

func (v v2Store) List(ctx context.Context, q acpv2.SessionQuery) ([]acpv2.SessionRecord, string, error) {
	page, next, err := v.s.List(ctx, Query{Cwd: q.Cwd, Protocol: q.Protocol, Cursor: q.Cursor, Limit: q.Limit})
	if err != nil {
		return nil, "", v2Error(err)
	}
	recs := make([]acpv2.SessionRecord, len(page))
	for i := range page {
		recs[i] = toV2(&page[i])
	}
	return recs, next, nil
}

func (v v2Store) Delete(ctx context.Context, id acpv2.SessionID) error {
	return v2Error(v.s.Delete(ctx, string(id)))
}

// v2Error is err with the store's errors as acpv2's.
func v2Error(err error) error {
	switch {
	case errors.Is(err, ErrNotStored):
		return acpv2.ErrSessionNotStored
	case errors.Is(err, ErrConflict):
		return acpv2.ErrSessionConflict
	case errors.Is(err, ErrBadCursor):
		return acpv2.ErrBadCursor
	}
	return err
}

func fromV2(rec *acpv2.SessionRecord) Record {
	return Record{ID: string(rec.ID), Protocol: rec.Protocol, Cwd: rec.Cwd, Title: rec.Title, UpdatedAt: rec.UpdatedAt,
		Created: rec.Created, ConfigOptions: rec.ConfigOptions, Modes: rec.Modes, MCPServers: rec.MCPServers, Meta: rec.Meta,
		TurnState: string(rec.Turn.State), TurnStop: rec.Turn.StopReason, TurnStarted: rec.Turn.Started, TurnEnded: rec.Turn.Ended,
		Updates: rec.Updates, Dropped: rec.Dropped, Revision: rec.Revision}
}

func toV2(r *Record) acpv2.SessionRecord {
	return acpv2.SessionRecord{ID: acpv2.SessionID(r.ID), Protocol: r.Protocol, Cwd: r.Cwd, Title: r.Title, UpdatedAt: r.UpdatedAt,
		Created: r.Created, ConfigOptions: r.ConfigOptions, Modes: r.Modes, MCPServers: r.MCPServers, Meta: r.Meta,
		Turn:    acpv2.TurnRecord{State: acpv2.TurnState(r.TurnState), StopReason: r.TurnStop, Started: r.TurnStarted, Ended: r.TurnEnded},
		Updates: r.Updates, Dropped: r.Dropped, Revision: r.Revision}
}
