package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Due dates' rows: what the instructor set, kept as set. What a due date
// means for a submission (on time, late, the penalty, refused) is package
// due's; this file only stores and reads.

// DueDate is a week's due date (Week > 0, Exercise "") or an exercise's
// own (Exercise set, Week 0), with its late policy.
type DueDate struct {
	Week     int
	Exercise string
	At       time.Time // UTC
	// Policy is "accept", "penalty" or "refuse" (package due's words).
	Policy string
	// PenaltyPct is taken off per day late or part of one (penalty only).
	PenaltyPct float64
	// Cutoff is when late work stops being accepted (penalty only); zero
	// for none.
	Cutoff time.Time
	SetAt  time.Time
}

// Extension is a new due date for one learner and one week or exercise.
type Extension struct {
	UserID   int64
	Learner  string
	Week     int
	Exercise string
	Until    time.Time
	SetAt    time.Time
}

// DueChange records one change of the due dates (a due date set, moved or
// cleared, an extension granted or taken back) and the submissions whose
// on-time mark it changed.
type DueChange struct {
	ID       int64
	At       time.Time
	What     string   // the change, in words
	Remarked []Remark // empty when it changed no mark
}

// Remark is one submission whose on-time mark a change changed.
type Remark struct {
	Submission int64  `json:"submission"`
	Learner    string `json:"learner"`
	Exercise   string `json:"exercise"`
	OnTime     bool   `json:"on_time"` // the new mark
}

// SubmissionTime is when a submission was made: what its on-time mark is
// judged by.
type SubmissionTime struct {
	ID                int64
	Learner, Exercise string
	CreatedAt         time.Time
}

// courseZone is course_settings' name of the course's time zone.
const courseZone = "time_zone"

// CourseZone returns the name of the course's time zone (an IANA name
// such as "Europe/Paris"), "" if none was set.
func (s *Store) CourseZone(ctx context.Context) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM course_settings WHERE name = ?`, courseZone).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: %w", err)
	}
	return v, nil
}

// SetCourseZone sets the course's time zone by name; the caller checks
// that it is one.
func (s *Store) SetCourseZone(ctx context.Context, name string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO course_settings (name, value) VALUES (?, ?)
ON CONFLICT (name) DO UPDATE SET value = excluded.value`, courseZone, name)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// SetDueDate sets (or replaces) a week's or an exercise's due date.
func (s *Store) SetDueDate(ctx context.Context, d DueDate) error {
	var cutoff any
	if !d.Cutoff.IsZero() {
		cutoff = ns(d.Cutoff)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO due_dates (week, exercise, due_ns, policy, penalty_pct, cutoff_ns, set_at_ns)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (week, exercise) DO UPDATE SET due_ns = excluded.due_ns, policy = excluded.policy,
	penalty_pct = excluded.penalty_pct, cutoff_ns = excluded.cutoff_ns, set_at_ns = excluded.set_at_ns`,
		d.Week, d.Exercise, ns(d.At), d.Policy, d.PenaltyPct, cutoff, ns(s.clock.Now()))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// ClearDueDate removes a week's or an exercise's due date; it reports
// whether there was one.
func (s *Store) ClearDueDate(ctx context.Context, week int, exercise string) (bool, error) {
	r, err := s.db.ExecContext(ctx, `DELETE FROM due_dates WHERE week = ? AND exercise = ?`, week, exercise)
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	n, err := r.RowsAffected()
	return n > 0, err
}

// DueDates returns every due date, weeks first, then exercises by name.
func (s *Store) DueDates(ctx context.Context) ([]DueDate, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT week, exercise, due_ns, policy, penalty_pct, cutoff_ns, set_at_ns
FROM due_dates ORDER BY exercise, week`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []DueDate
	for rows.Next() {
		var (
			d          DueDate
			due, setAt int64
			cutoff     sql.NullInt64
		)
		if err := rows.Scan(&d.Week, &d.Exercise, &due, &d.Policy, &d.PenaltyPct, &cutoff, &setAt); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		d.At, d.Cutoff, d.SetAt = time.Unix(0, due).UTC(), fromNs(cutoff), time.Unix(0, setAt).UTC()
		out = append(out, d)
	}
	return out, rows.Err()
}

// SetExtension grants a learner (by name) a new due date for a week or an
// exercise, replacing an earlier one for the same; ErrNotFound if there
// is no such learner.
func (s *Store) SetExtension(ctx context.Context, e Extension) error {
	r, err := s.db.ExecContext(ctx, `INSERT INTO extensions (user_id, week, exercise, until_ns, set_at_ns)
SELECT id, ?, ?, ?, ? FROM users WHERE name = ? AND role = 'learner'
ON CONFLICT (user_id, week, exercise) DO UPDATE SET until_ns = excluded.until_ns, set_at_ns = excluded.set_at_ns`,
		e.Week, e.Exercise, ns(e.Until), ns(s.clock.Now()), e.Learner)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if n, err := r.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("%w: no learner called %q", ErrNotFound, e.Learner)
	}
	return nil
}

// ClearExtension takes a learner's extension back; it reports whether
// there was one.
func (s *Store) ClearExtension(ctx context.Context, learner string, week int, exercise string) (bool, error) {
	r, err := s.db.ExecContext(ctx, `DELETE FROM extensions WHERE week = ? AND exercise = ?
AND user_id IN (SELECT id FROM users WHERE name = ? AND role = 'learner')`, week, exercise, learner)
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	n, err := r.RowsAffected()
	return n > 0, err
}

// Extensions returns every extension, by learner.
func (s *Store) Extensions(ctx context.Context) ([]Extension, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT e.user_id, u.name, e.week, e.exercise, e.until_ns, e.set_at_ns
FROM extensions e JOIN users u ON u.id = e.user_id ORDER BY u.name, e.exercise, e.week`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []Extension
	for rows.Next() {
		var (
			e            Extension
			until, setAt int64
		)
		if err := rows.Scan(&e.UserID, &e.Learner, &e.Week, &e.Exercise, &until, &setAt); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		e.Until, e.SetAt = time.Unix(0, until).UTC(), time.Unix(0, setAt).UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// AddDueChange records a change of the due dates, stamped now.
func (s *Store) AddDueChange(ctx context.Context, what string, remarked []Remark) (DueChange, error) {
	if remarked == nil {
		remarked = []Remark{}
	}
	body, err := json.Marshal(remarked)
	if err != nil {
		return DueChange{}, err
	}
	now := s.clock.Now().UTC()
	var id int64
	err = s.db.QueryRowContext(ctx, `INSERT INTO due_changes (at_ns, what, remarked) VALUES (?, ?, ?) RETURNING id`,
		ns(now), what, string(body)).Scan(&id)
	if err != nil {
		return DueChange{}, fmt.Errorf("store: %w", err)
	}
	return DueChange{ID: id, At: now, What: what, Remarked: remarked}, nil
}

// DueChanges returns the latest changes of the due dates, newest first, at
// most limit.
func (s *Store) DueChanges(ctx context.Context, limit int) ([]DueChange, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, at_ns, what, remarked FROM due_changes ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []DueChange
	for rows.Next() {
		var (
			c    DueChange
			at   int64
			body string
		)
		if err := rows.Scan(&c.ID, &at, &c.What, &body); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		c.At = time.Unix(0, at).UTC()
		if err := json.Unmarshal([]byte(body), &c.Remarked); err != nil {
			return nil, fmt.Errorf("store: due change %d: %w", c.ID, err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// SubmissionTimes returns when every submission was made, oldest first:
// what a change of the due dates re-marks. Checks are no submissions:
// none of theirs.
func (s *Store) SubmissionTimes(ctx context.Context) ([]SubmissionTime, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT s.id, u.name, s.exercise_id, s.created_at_ns
FROM submissions s JOIN users u ON u.id = s.user_id WHERE s.kind = 'submit' ORDER BY s.id`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []SubmissionTime
	for rows.Next() {
		var (
			st SubmissionTime
			at int64
		)
		if err := rows.Scan(&st.ID, &st.Learner, &st.Exercise, &at); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		st.CreatedAt = time.Unix(0, at).UTC()
		out = append(out, st)
	}
	return out, rows.Err()
}
