package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// A class graded on many machines shares its live views' events, and the
// server's settings its workers check, through Postgres; these methods
// refuse on SQLite (ErrPostgresOnly), whose class runs in one process.

// ErrPostgresOnly is returned by what only a Postgres store does.
var ErrPostgresOnly = errors.New("store: this needs a Postgres store")

// Notification channels (Postgres LISTEN/NOTIFY).
const (
	// EventsChannel carries, as its payload, the id of an event just
	// stored by PublishEvent.
	EventsChannel = "ratelab_events"
	// QueueChannel is notified when the queue changed: a job queued,
	// finished or put back. Its payload is empty.
	QueueChannel = "ratelab_queue"
)

func (s *Store) postgresOnly() error {
	if s.Backend() != Postgres {
		return ErrPostgresOnly
	}
	return nil
}

// publishEvent stores an event's body and notifies EventsChannel of its
// id; Postgres sends the notification when the transaction commits.
const publishEvent = `
WITH e AS (INSERT INTO class_events (at_ns, body) VALUES (?, ?) RETURNING id)
SELECT pg_notify('` + EventsChannel + `', CAST(id AS TEXT)) FROM e`

// PublishEvent stores a live view's event (its JSON, body) and notifies
// EventsChannel with its id, in one statement. Notifications carry at most
// 8000 bytes; an event's body may be longer, so it is read back by id
// (EventBody).
func (s *Store) PublishEvent(ctx context.Context, body []byte) error {
	if err := s.postgresOnly(); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, publishEvent, ns(s.clock.Now()), string(body))
	if err != nil {
		return fmt.Errorf("store: publishing an event: %w", err)
	}
	return nil
}

// EventBody returns the body of the event PublishEvent stored as id (the
// payload of an EventsChannel notification).
func (s *Store) EventBody(ctx context.Context, id string) ([]byte, error) {
	if err := s.postgresOnly(); err != nil {
		return nil, err
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("store: event id %q: %w", id, err)
	}
	var body string
	if err := s.db.QueryRowContext(ctx, `SELECT body FROM class_events WHERE id = ?`, n).Scan(&body); err != nil {
		return nil, fmt.Errorf("store: event %d: %w", n, err)
	}
	return []byte(body), nil
}

// PruneEvents deletes the events stored before t: every listener has read
// them long ago.
func (s *Store) PruneEvents(ctx context.Context, before time.Time) error {
	if err := s.postgresOnly(); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `DELETE FROM class_events WHERE at_ns < ?`, ns(before))
	return err
}

// NotifyQueue notifies QueueChannel: the queue changed.
func (s *Store) NotifyQueue(ctx context.Context) error {
	if err := s.postgresOnly(); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `SELECT pg_notify('`+QueueChannel+`', '')`)
	return err
}

// SetSetting records a setting of the class's server (name, value),
// replacing its value.
func (s *Store) SetSetting(ctx context.Context, name, value string) error {
	if err := s.postgresOnly(); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO settings (name, value) VALUES (?, ?)
ON CONFLICT (name) DO UPDATE SET value = excluded.value`, name, value)
	return err
}

// Setting returns a setting's value, or ErrNotFound.
func (s *Store) Setting(ctx context.Context, name string) (string, error) {
	if err := s.postgresOnly(); err != nil {
		return "", err
	}
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = ?`, name).Scan(&v)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return "", ErrNotFound
		}
		return "", fmt.Errorf("store: %w", err)
	}
	return v, nil
}

// URL returns the Postgres URL the store was opened with, "" on SQLite: for
// the tools that need their own connection to the same database (LISTEN,
// the River client's pool).
func (s *Store) URL() string { return s.url }
