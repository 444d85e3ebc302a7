package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Revocation: a learner's token reissued, an instructor's password changed
// or a learner removed ends every session they have; see also
// SetLearnerToken and SetInstructorPassword.

// replaceSecret runs q (an UPDATE of one user's token or password hash,
// with v and name as its arguments, that returns the user's id) and ends
// that user's sessions, in one transaction. It returns ErrNotFound if q
// changed no one.
func (s *Store) replaceSecret(ctx context.Context, q string, v any, name string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, q+` RETURNING id`, v, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ?`, id); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// Removed is what RemoveLearner did.
type Removed struct {
	User User // the learner as they were
	// Submissions is how many submissions of theirs are kept, under
	// KeptAs; 0 means the learner had none and is gone altogether.
	Submissions int
	KeptAs      string
}

// RemovedName is the name a removed learner's kept submissions are shown
// under: their name, marked with the day of the removal and their id (so
// a name removed twice stays unique).
func RemovedName(u User, at time.Time) string {
	return fmt.Sprintf("%s (removed %s #%d)", u.Name, at.UTC().Format(time.DateOnly), u.ID)
}

// RemoveLearner takes a learner off the roster: their token stops working
// and their sessions end at once. Their submissions, and the gradings of
// them, are kept for the gradebook under RemovedName (the name is free
// again for a new learner); a learner without submissions is deleted.
// Their checks and drafts, which no gradebook counts, are deleted either
// way. It returns ErrNotFound if no learner has the name.
func (s *Store) RemoveLearner(ctx context.Context, name string) (Removed, error) {
	now := s.clock.Now().UTC()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Removed{}, fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	u, err := scanUser(tx.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE name = ? AND role = 'learner'`, name))
	if err != nil {
		return Removed{}, err
	}
	r := Removed{User: u}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM submissions WHERE user_id = ? AND kind = 'submit'`, u.ID).Scan(&r.Submissions); err != nil {
		return Removed{}, fmt.Errorf("store: %w", err)
	}
	for _, q := range []string{
		`DELETE FROM sessions WHERE user_id = ?`,
		`DELETE FROM submissions WHERE user_id = ? AND kind = 'check'`, // their files and jobs go with them
		`DELETE FROM drafts WHERE user_id = ?`,
	} {
		if _, err := tx.ExecContext(ctx, q, u.ID); err != nil {
			return Removed{}, fmt.Errorf("store: %w", err)
		}
	}
	if r.Submissions == 0 {
		_, err = tx.ExecContext(ctx, `DELETE FROM users WHERE id = ?`, u.ID)
	} else {
		r.KeptAs = RemovedName(u, now)
		_, err = tx.ExecContext(ctx, `UPDATE users SET token_hash = NULL, name = ? WHERE id = ?`, r.KeptAs, u.ID)
	}
	if isUnique(err) {
		return Removed{}, fmt.Errorf("%w: a user called %q", ErrExists, r.KeptAs)
	}
	if err != nil {
		return Removed{}, fmt.Errorf("store: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Removed{}, fmt.Errorf("store: %w", err)
	}
	return r, nil
}
