package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"ratelab/grader/report"
)

// The grading queue is the jobs table; this file is how it is served.
//
// Fairness: ClaimJob serves learners in turn, round robin over the
// learners with a job waiting (queue_turns keeps when each was last
// served), oldest job first within a learner. New submissions come before
// regrades, and a learner whose last grading timed out comes after every
// learner whose did not: a submission that spins costs its learner, not the
// class. Deficit round robin would weigh each turn by the time it took;
// plain round robin per job, with the time-out penalty, is enough when one
// grading is bounded by the job timeout.

// ErrNotRunning is returned by FinishJob, Finish and RetryJob when the job
// is not running (it was finished already, or never claimed).
var ErrNotRunning = errors.New("store: the job is not running")

// RequeueRunning puts back in the queue every job left running by a server
// that stopped mid-grading, and returns how many there were.
func (s *Store) RequeueRunning(ctx context.Context) (int, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE jobs SET state = 'queued', started_at_ns = NULL WHERE state = 'running'`)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// nextJob picks the job to grade next among those queued and due at ?1
// (see the fairness note above).
const nextJob = `
SELECT j.id FROM jobs j
JOIN submissions s ON s.id = j.submission_id
LEFT JOIN queue_turns t ON t.user_id = s.user_id
WHERE j.state = 'queued' AND j.not_before_ns <= ?1
ORDER BY j.reason = 'regrade', COALESCE(t.timed_out, FALSE), COALESCE(t.last_claim, 0), j.id
LIMIT 1`

// ClaimJob takes the next job in fair order (see the package's queue
// notes), marks it running, counts the attempt and moves its learner to the
// back of the round. ok is false when no job is due. Claiming is atomic:
// two workers never get the same job.
func (s *Store) ClaimJob(ctx context.Context) (job Job, ok bool, err error) {
	return s.DispatchJob(ctx, nil)
}

// DispatchJob is ClaimJob that hands the claimed job, inside the claim's
// transaction, to hand (nil: nobody): what hand writes through the
// transaction commits with the claim, or neither does. The Postgres queue
// inserts the job's River job there, so a job claimed is a job River runs.
func (s *Store) DispatchJob(ctx context.Context, hand func(context.Context, *sql.Tx, Job) error) (job Job, ok bool, err error) {
	now := ns(s.clock.Now())
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Job{}, false, fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	// A job handed on is not started: a newer submission still supersedes
	// it until a worker starts it (StartJob), and it has no lease until
	// then (a lease left from an earlier attempt, run out, would read as
	// its new worker's death: ReclaimLapsed).
	var started any = now
	if hand != nil {
		started = nil
	}
	job, err = scanJob(tx.QueryRowContext(ctx, `
UPDATE jobs SET state = 'running', attempts = attempts + 1, started_at_ns = ?2, lease_ns = NULL
WHERE id = (`+nextJob+s.db.d.skipLocked+`)
RETURNING `+jobCols, now, started))
	if errors.Is(err, ErrNotFound) {
		return Job{}, false, nil
	}
	if err != nil {
		return Job{}, false, err
	}
	if _, err := tx.ExecContext(ctx, `
INSERT INTO queue_turns (user_id, last_claim)
SELECT s.user_id, (SELECT COALESCE(MAX(last_claim), 0) + 1 FROM queue_turns) FROM submissions s WHERE s.id = ?
ON CONFLICT (user_id) DO UPDATE SET last_claim = excluded.last_claim`, job.SubmissionID); err != nil {
		return Job{}, false, fmt.Errorf("store: %w", err)
	}
	if hand != nil {
		if err := hand(ctx, tx.Tx, job); err != nil {
			return Job{}, false, err
		}
	}
	if err := tx.Commit(); err != nil {
		return Job{}, false, fmt.Errorf("store: %w", err)
	}
	return job, true, nil
}

// Outcome is how a grading ended, as Finish records it.
type Outcome struct {
	Result *report.Exercise // nil when it could not be graded (Error says why)
	Seed   int64
	Error  string
	// TimedOut: the grading, or a check of it, ran out of time. The
	// learner's next job waits behind other learners' (see ClaimJob).
	TimedOut bool
	// ServerFault: Error is the server's problem, not the learner's.
	ServerFault bool
}

// FinishJob records a job's result (or why it could not be graded: errMsg,
// with r nil) and marks it done. It is Finish with TimedOut read from r.
func (s *Store) FinishJob(ctx context.Context, jobID int64, r *report.Exercise, seed int64, errMsg string) error {
	return s.Finish(ctx, jobID, Outcome{Result: r, Seed: seed, Error: errMsg, TimedOut: TimedOut(r)})
}

// TimedOut reports whether some check of r ran out of time.
func TimedOut(r *report.Exercise) bool {
	if r == nil {
		return false
	}
	for _, c := range r.Checks {
		if c.Status == report.Timeout {
			return true
		}
	}
	return false
}

// Finish records a running job's outcome and marks it done. The result is
// stored bounded (Bound). ErrNotRunning if the job is not running.
func (s *Store) Finish(ctx context.Context, jobID int64, o Outcome) error {
	now := s.clock.Now().UTC()
	var (
		body          any
		status        any
		score, maxSco any
	)
	if o.Result != nil {
		b, err := json.Marshal(Bound(*o.Result))
		if err != nil {
			return fmt.Errorf("store: encoding the result: %w", err)
		}
		body, status, score, maxSco = string(b), string(o.Result.Status), o.Result.Score, o.Result.MaxScore
	}
	var errv any
	if o.Error != "" {
		errv = cut(o.Error, MaxText)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `
UPDATE jobs SET state = 'done', finished_at_ns = ?, status = ?, score = ?, max_score = ?, seed = ?, error = ?, result = ?, server_fault = ?
WHERE id = ? AND state = 'running'`, ns(now), status, score, maxSco, o.Seed, errv, body, o.ServerFault, jobID)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("%w: job %d", ErrNotRunning, jobID)
	}
	if !o.ServerFault { // the server's failures say nothing of the learner's code
		if _, err := tx.ExecContext(ctx, `
INSERT INTO queue_turns (user_id, timed_out)
SELECT s.user_id, ? FROM jobs j JOIN submissions s ON s.id = j.submission_id WHERE j.id = ?
ON CONFLICT (user_id) DO UPDATE SET timed_out = excluded.timed_out`, o.TimedOut, jobID); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// RetryJob puts a running job back in the queue, not to be claimed before
// notBefore, after a grading that failed for the server's reasons: it
// counts a retry, not an attempt (Job.Attempts counts the server's
// interruptions).
func (s *Store) RetryJob(ctx context.Context, jobID int64, notBefore time.Time) error {
	res, err := s.db.ExecContext(ctx, `
UPDATE jobs SET state = 'queued', started_at_ns = NULL, retries = retries + 1, attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, not_before_ns = ?
WHERE id = ? AND state = 'running'`, ns(notBefore), jobID)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("%w: job %d", ErrNotRunning, jobID)
	}
	return nil
}

// supersede marks superseded the learner's jobs still queued for older
// submissions of the exercise than newest, of the same kind (or dispatched
// to River and not started: running without a start), and returns those
// submissions.
func supersede(ctx context.Context, tx *tx, userID int64, exercise string, kind Kind, newest int64, now time.Time) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `
UPDATE jobs SET state = 'superseded', finished_at_ns = ?, error = ?
WHERE `+waitingJob+` AND submission_id IN (
	SELECT id FROM submissions WHERE user_id = ? AND exercise_id = ? AND kind = ? AND id < ?)
RETURNING submission_id`, ns(now), SupersededMessage(kind, newest),
		userID, exercise, string(kind), newest)
	if err != nil {
		return nil, fmt.Errorf("store: superseding: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// SupersededMessage is the error of a job superseded by newest, a newer
// submission (or check) of the same exercise by the same learner.
func SupersededMessage(kind Kind, newest int64) string {
	if kind == KindCheck {
		return fmt.Sprintf("not checked: check %d, a newer one of the same exercise, replaced it while it waited", newest)
	}
	return fmt.Sprintf("not graded: submission %d, a newer one of the same exercise, replaced it while it waited", newest)
}

// sameAs splits submissionCols' list of other learners' names.
func sameAs(joined string) []string {
	if joined == "" {
		return nil
	}
	names := strings.Split(joined, "\x1f")
	slices.Sort(names)
	return slices.Compact(names)
}

// Path returns the database's file, "" for an in-memory one and for a
// Postgres database (which is no file of this machine's).
func (s *Store) Path(ctx context.Context) (string, error) {
	if s.Backend() == Postgres {
		return "", nil
	}
	rows, err := s.db.QueryContext(ctx, `PRAGMA database_list`)
	if err != nil {
		return "", fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			seq        int
			name, file string
		)
		if err := rows.Scan(&seq, &name, &file); err != nil {
			return "", fmt.Errorf("store: %w", err)
		}
		if name == "main" {
			return file, nil
		}
	}
	return "", rows.Err()
}

// StartJob marks a job handed on (DispatchJob) as started by a worker, with
// note (why it is graded again; "" keeps the job's), and reports whether the job is
// still the worker's to grade: running, and on the attempt the worker was
// handed (attempt, the Job's Attempts when DispatchJob handed it). A
// worker handed an earlier attempt (River retrying the job of a worker
// whose lease ran out, see ReclaimLapsed) is told no. lease, if not zero,
// is the time by which the worker must renew the job (RenewLease).
func (s *Store) StartJob(ctx context.Context, jobID int64, attempt int, note string, lease time.Time) (bool, error) {
	var nv, lv any
	if note != "" {
		nv = cut(note, MaxText)
	}
	if !lease.IsZero() {
		lv = ns(lease)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE jobs SET started_at_ns = COALESCE(started_at_ns, ?), note = COALESCE(?, note), lease_ns = ?
WHERE id = ? AND state = 'running' AND attempts = ?`,
		ns(s.clock.Now()), nv, lv, jobID, attempt)
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// RenewLease moves the lease of a job its worker still grades to until,
// and reports whether the job is still running on that attempt.
func (s *Store) RenewLease(ctx context.Context, jobID int64, attempt int, until time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE jobs SET lease_ns = ? WHERE id = ? AND state = 'running' AND attempts = ?`, ns(until), jobID, attempt)
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// ReclaimLapsed puts back in the queue every running job whose lease ran
// out before now (its worker was killed, or cut off), with note for the
// learner's page, and returns how many there were. DispatchJob hands each
// on again, as a new attempt: the lapsed worker's attempt can no longer
// start (StartJob) nor renew it, and a result is written once whoever
// finishes first (Finish).
func (s *Store) ReclaimLapsed(ctx context.Context, now time.Time, note string) (int, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE jobs SET state = 'queued', started_at_ns = NULL, lease_ns = NULL, note = ?
WHERE state = 'running' AND lease_ns IS NOT NULL AND lease_ns < ?`, cut(note, MaxText), ns(now))
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
