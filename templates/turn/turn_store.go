//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
)

// guardedStore is a TurnRunner's store as the runner calls it: every error
// of the store goes through storeError, the one place where the runner
// logs a store's failure with its text and turns it into what a peer is
// told, so that no file path, SQL text or driver message reaches a peer.
type guardedStore struct {
	store  SessionStore
	logger *slog.Logger // the connection's
}

func (g guardedStore) Save(ctx context.Context, rec *SessionRecord, appended ...json.RawMessage) error {
	return storeError(g.logger, g.store.Save(ctx, rec, appended...))
}

func (g guardedStore) Load(ctx context.Context, id SessionID) (*SessionRecord, error) {
	rec, err := g.store.Load(ctx, id)
	if err != nil {
		return nil, storeError(g.logger, err)
	}
	return rec, nil
}

// History returns the error of f as it is: the store did not fail.
func (g guardedStore) History(ctx context.Context, id SessionID, f func(seq uint64, update json.RawMessage) error) error {
	var ferr error
	err := g.store.History(ctx, id, func(seq uint64, update json.RawMessage) error {
		ferr = f(seq, update)
		return ferr
	})
	if ferr != nil {
		return ferr
	}
	return storeError(g.logger, err)
}

func (g guardedStore) List(ctx context.Context, q SessionQuery) ([]SessionRecord, string, error) {
	page, next, err := g.store.List(ctx, q)
	if err != nil {
		return nil, "", storeError(g.logger, err)
	}
	return page, next, nil
}

func (g guardedStore) Delete(ctx context.Context, id SessionID) error {
	return storeError(g.logger, g.store.Delete(ctx, id))
}

// storeError is what a TurnRunner makes of error err of its store,
// logging with logger: nil,
// ErrSessionNotStored and ErrBadCursor (which the runner answers itself)
// and a context's error as they are; a conflict as an internal error that
// still matches ErrSessionConflict, so that the runner, and a TurnFunc,
// can tell a lost write from a failure; any other failure as an internal
// error that says what failed without the store's text, which may name
// files, hosts and SQL: that text is logged.
func storeError(logger *slog.Logger, err error) error {
	if err == nil {
		return nil // before rpcErr, which escapes: a Save of every update allocates nothing here
	}
	var rpcErr *Error
	switch {
	case errors.Is(err, ErrSessionNotStored), errors.Is(err, ErrBadCursor):
		return err
	case errors.As(err, &rpcErr):
		if errors.Is(err, ErrSessionConflict) {
			return err // a conflict already made an error a peer may see
		}
		return rpcErr
	case errors.Is(err, ErrSessionConflict):
		logger.Error("acp: the session store refused a write", "error", err.Error())
		return fmt.Errorf("%w: %w", NewInternalError(map[string]string{"details": "the session was changed by another connection or agent process since it was read: resume or load it again"}), ErrSessionConflict)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	logger.Error("acp: the session store failed", "error", err.Error())
	return NewInternalError(map[string]string{"details": "the session store failed"})
}
