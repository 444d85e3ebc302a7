package store

import (
	"context"
	"fmt"
)

// regradeLock is the key of the advisory lock regrades take on Postgres.
const regradeLock = migrationLock + 1

// RegradeLatestWithin queues a regrade of every learner's latest
// submission (never a check) of every exercise, except those with a job already waiting
// (a duplicate would grade the same code twice), while fewer than
// maxQueued jobs wait: oldest submissions first, up to the room left. It
// returns the jobs queued and how many latest submissions were left out
// for lack of room. Counting and queuing are one statement, so two regrades
// at once cannot both fill the same room.
func (s *Store) RegradeLatestWithin(ctx context.Context, maxQueued int) (queued []Job, left int, err error) {
	now := ns(s.clock.Now())
	const waiting = `
SELECT l.id FROM (SELECT MAX(id) AS id FROM submissions WHERE kind = 'submit' GROUP BY user_id, exercise_id) l
WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.submission_id = l.id AND j.state = 'queued')`
	var due int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+waiting+`) w`).Scan(&due); err != nil {
		return nil, 0, fmt.Errorf("store: %w", err)
	}
	t, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("store: %w", err)
	}
	defer t.Rollback()
	if s.Backend() == Postgres {
		// Postgres's statements see the table as it was when they began:
		// two regrades at once take turns, so the second counts the first's.
		if _, err := t.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?)`, int64(regradeLock)); err != nil {
			return nil, 0, fmt.Errorf("store: %w", err)
		}
	}
	rows, err := t.QueryContext(ctx, `
INSERT INTO jobs (submission_id, reason, state, queued_at_ns)
SELECT id, 'regrade', 'queued', CAST(?1 AS BIGINT) FROM (`+waiting+`) w ORDER BY id
LIMIT (SELECT CASE WHEN n > 0 THEN n ELSE 0 END FROM (SELECT CAST(?2 AS BIGINT) - COUNT(*) AS n FROM jobs WHERE state = 'queued') room)
RETURNING `+jobCols, now, maxQueued)
	if err != nil {
		return nil, 0, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, 0, err
		}
		queued = append(queued, j)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("store: %w", err)
	}
	rows.Close()
	if err := t.Commit(); err != nil {
		return nil, 0, fmt.Errorf("store: %w", err)
	}
	return queued, max(due-len(queued), 0), nil
}
