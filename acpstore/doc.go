// Package acpstore keeps the sessions of acpgen's turn runtimes
// (acpv1.TurnRunner, acpv2.TurnRunner) in a SQL database, so that they
// outlive the process and are served by any process that opens the same
// database: SQLite for one machine (package acpstore/sqlitestore), Postgres
// for several (package acpstore/pgstore).
//
// A Store implements the SessionStore of both protocol versions (V1, V2):
// a session's record, and its history as the JSON of the session/update
// notifications that were sent, stored byte for byte; a store never decodes
// ACP. A commit stores a session's updates in rows of up to 64 KiB of
// JSON, framed by their lengths, not a row per update, and the history
// bound cuts the oldest row at the exact update. The schema is versioned: Open migrates an older one, and refuses a
// database that a newer program has migrated (ErrNewerSchema) or that is
// another program's (ErrForeignDatabase).
//
// Writes are batched: Save queues what it is given and returns, without
// waiting for the disk, and one writer commits what was queued, every
// session's part in one transaction, as soon as the commit before it has
// ended (group commit). A Save that creates a session, changes where its
// turn is, or carries no update waits for its commit, so that an answer
// that says a session exists or a turn ended is durable when it is sent.
// What a crash loses is what was queued and not yet committed: at most the
// updates of one commit's duration (Stats.MaxLag measures it). A conflict
// (another process wrote the session since it was read) is found at the
// commit, by the record's revision: nothing of the loser is written,
// neither that write nor what it queued after, and its Saves of that
// session return ErrConflict until it loads the session again.
package acpstore
