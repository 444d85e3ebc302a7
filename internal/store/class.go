package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"ratelab/grader/report"
)

// ErrExists is returned when creating a user whose name is taken.
var ErrExists = errors.New("store: already exists")

// Role is what a user of a class may do: submit (Learner) or watch the
// whole class (Instructor). Its values are the users.role column's.
type Role string

// Roles of a user.
const (
	Learner    Role = "learner"
	Instructor Role = "instructor"
)

// User is a learner or an instructor of a class.
type User struct {
	ID        int64
	Name      string
	Role      Role
	CreatedAt time.Time
}

// JobState is where a grading job is: Queued, then Running, then Done;
// or Superseded, from Queued, when a newer submission of the same exercise
// by the same learner replaced it before it was graded. Its values are the
// jobs.state column's.
type JobState string

// Job states.
const (
	Queued     JobState = "queued"
	Running    JobState = "running"
	Done       JobState = "done"
	Superseded JobState = "superseded"
)

// Kind is what a submission is for: graded work (KindSubmit), or a check
// of the learner's draft (KindCheck). A check goes through the same queue,
// sandbox and workers as a submission, and is counted nowhere a
// submission is: gradebook, regrades, lists, exports, superseding of
// submissions. Its values are the submissions.kind column's.
type Kind string

// Kinds of submission.
const (
	KindSubmit Kind = "submit"
	KindCheck  Kind = "check"
)

// File is one uploaded source file.
type File struct {
	Name    string
	Content []byte
}

// Submission is one upload of an exercise's files by a learner, with its
// latest grading job.
type Submission struct {
	ID        int64
	UserID    int64
	Learner   string
	Exercise  string
	Kind      Kind // KindSubmit or KindCheck
	CreatedAt time.Time
	Files     []File // only from Submission (one), not from lists
	Job       Job    // the latest job
	// Fingerprint hashes the code's syntax tree, comments and names
	// ignored (see fingerprint.Of); "" for submissions stored before it.
	Fingerprint string
	// MatchesSolution: the fingerprint is the reference solution's.
	MatchesSolution bool
	// SameAs names the other learners who submitted code of the same
	// fingerprint for the exercise, by name. The instructor judges.
	SameAs []string
	// Number counts the learner's uploads of the exercise of this kind,
	// this one included, in the order made: her submissions are 1, 2, 3
	// whatever the class and her checks did in between (checks are
	// numbered among checks). Pages show it; URLs keep ID.
	Number int
	// Superseded lists, from Submit only, the older submissions whose
	// queued job this one superseded.
	Superseded []int64
}

// Job is one grading of a submission.
type Job struct {
	ID           int64
	SubmissionID int64
	Reason       string // "submit" or "regrade"
	State        JobState
	Attempts     int
	QueuedAt     time.Time
	StartedAt    time.Time // zero until claimed (on Postgres: until a worker starts it, see StartJob)
	FinishedAt   time.Time // zero until done
	Seed         int64
	Error        string           // set when it could not be graded at all
	Result       *report.Exercise // nil until done (and when Error is set); bounded (see Bound)
	Retries      int              // gradings that failed for the server's reasons and were retried
	ServerFault  bool             // Error is the server's problem, not the learner's
	// Note is what a grading's page says of it beside "running", set
	// when a worker starts it (StartJob): "regrading after a worker
	// stopped" on a retry; "" for none.
	Note string
}

// Waiting reports whether the job waits for a worker: queued, or on
// Postgres handed to River (running) but not started by a worker yet
// (see DispatchJob). A page reads such a job as queued.
func (j Job) Waiting() bool {
	return j.State == Queued || j.State == Running && j.StartedAt.IsZero()
}

func ns(t time.Time) int64 { return t.UTC().UnixNano() }

func fromNs(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.Unix(0, v.Int64).UTC()
}

// Hash returns the SHA-256 of a secret (a learner's token, a session's
// cookie value): the form the store keeps and looks secrets up by.
func Hash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// AddLearner creates a learner whose token hashes to tokenHash, or returns
// ErrExists if the name is taken.
func (s *Store) AddLearner(ctx context.Context, name string, tokenHash []byte) (User, error) {
	return s.addUser(ctx, name, Learner, tokenHash, "")
}

// AddInstructor creates an instructor with a bcrypt password hash, or
// returns ErrExists.
func (s *Store) AddInstructor(ctx context.Context, name, passwordHash string) (User, error) {
	return s.addUser(ctx, name, Instructor, nil, passwordHash)
}

func (s *Store) addUser(ctx context.Context, name string, role Role, tokenHash []byte, pw string) (User, error) {
	now := s.clock.Now().UTC()
	var pwv any
	if pw != "" {
		pwv = pw
	}
	var id int64
	err := s.db.QueryRowContext(ctx,
		`INSERT INTO users (name, role, token_hash, password_hash, created_at_ns) VALUES (?, ?, ?, ?, ?) RETURNING id`,
		name, string(role), tokenHash, pwv, ns(now)).Scan(&id)
	if isUnique(err) {
		return User{}, fmt.Errorf("%w: a user called %q", ErrExists, name)
	}
	if err != nil {
		return User{}, fmt.Errorf("store: %w", err)
	}
	return User{ID: id, Name: name, Role: role, CreatedAt: now}, nil
}

// SetLearnerToken replaces a learner's token hash (a token reissued) and
// ends their sessions: the old token signs in nowhere any more.
func (s *Store) SetLearnerToken(ctx context.Context, name string, tokenHash []byte) error {
	return s.replaceSecret(ctx, `UPDATE users SET token_hash = ? WHERE name = ? AND role = 'learner'`, tokenHash, name)
}

// SetInstructorPassword replaces an instructor's password hash and ends
// their sessions.
func (s *Store) SetInstructorPassword(ctx context.Context, name, passwordHash string) error {
	return s.replaceSecret(ctx, `UPDATE users SET password_hash = ? WHERE name = ? AND role = 'instructor'`, passwordHash, name)
}

const userCols = `id, name, role, created_at_ns`

func scanUser(sc scanner) (User, error) {
	var (
		u  User
		at int64
	)
	if err := sc.Scan(&u.ID, &u.Name, &u.Role, &at); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return User{}, ErrNotFound
		}
		return User{}, fmt.Errorf("store: %w", err)
	}
	u.CreatedAt = time.Unix(0, at).UTC()
	return u, nil
}

// LearnerByToken returns the learner whose token hashes to tokenHash.
func (s *Store) LearnerByToken(ctx context.Context, tokenHash []byte) (User, error) {
	return scanUser(s.db.QueryRowContext(ctx,
		`SELECT `+userCols+` FROM users WHERE token_hash = ? AND role = 'learner'`, tokenHash))
}

// Instructor returns an instructor and their bcrypt password hash.
func (s *Store) Instructor(ctx context.Context, name string) (User, string, error) {
	var pw sql.NullString
	var (
		u  User
		at int64
	)
	err := s.db.QueryRowContext(ctx,
		`SELECT `+userCols+`, password_hash FROM users WHERE name = ? AND role = 'instructor'`, name).
		Scan(&u.ID, &u.Name, &u.Role, &at, &pw)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, "", ErrNotFound
	}
	if err != nil {
		return User{}, "", fmt.Errorf("store: %w", err)
	}
	u.CreatedAt = time.Unix(0, at).UTC()
	return u, pw.String, nil
}

// Users returns every user with the role, by name.
func (s *Store) Users(ctx context.Context, role Role) ([]User, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+userCols+` FROM users WHERE role = ? ORDER BY name`, string(role))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// CreateSession records a login session whose cookie value hashes to idHash.
func (s *Store) CreateSession(ctx context.Context, idHash []byte, userID int64, expires time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO sessions (id_hash, user_id, expires_at_ns) VALUES (?, ?, ?)`,
		idHash, userID, ns(expires))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// SessionUser returns the user of an unexpired session, or ErrNotFound.
func (s *Store) SessionUser(ctx context.Context, idHash []byte, now time.Time) (User, error) {
	return scanUser(s.db.QueryRowContext(ctx, `
SELECT u.id, u.name, u.role, u.created_at_ns FROM sessions s JOIN users u ON u.id = s.user_id
WHERE s.id_hash = ? AND s.expires_at_ns > ?`, idHash, ns(now)))
}

// DeleteSession ends a session (logout), and every expired one.
func (s *Store) DeleteSession(ctx context.Context, idHash []byte, now time.Time) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE id_hash = ? OR expires_at_ns <= ?`, idHash, ns(now))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// Submit stores a submission, its files and its first job (queued) in one
// transaction: once it returns, nothing of it can be lost. It is SubmitUpload
// without a fingerprint.
func (s *Store) Submit(ctx context.Context, userID int64, exercise string, files []File) (Submission, error) {
	return s.SubmitUpload(ctx, Upload{UserID: userID, Exercise: exercise, Files: files})
}

// Upload is what SubmitUpload stores.
type Upload struct {
	UserID   int64
	Exercise string
	Kind     Kind // "" means KindSubmit
	// At is the submission's time, which its due date judges; zero means
	// the store's clock now.
	At              time.Time
	Files           []File
	Fingerprint     string // "" if none
	MatchesSolution bool
	// QueuedEvent, if set, makes the body of the event that tells
	// everyone the submission is queued (given the submission as stored).
	// On Postgres it is published in the submission's own transaction
	// (as PublishEvent does), so that no event of its grading, which a
	// worker of any process publishes once the job is committed, can be
	// heard before it. SQLite ignores it: its one process publishes.
	QueuedEvent func(Submission) ([]byte, error)
}

// SubmitUpload stores a submission, its files and its first job (queued)
// in one transaction: once it returns, nothing of it can be lost. The
// learner's jobs still queued for older submissions of the exercise, of
// the same kind, are superseded in the same transaction
// (Submission.Superseded lists them): only the newest is graded. A check
// never supersedes a submission, nor a submission a check.
func (s *Store) SubmitUpload(ctx context.Context, up Upload) (Submission, error) {
	userID, exercise, files := up.UserID, up.Exercise, up.Files
	kind := up.Kind
	if kind == "" {
		kind = KindSubmit
	}
	var fp any
	if up.Fingerprint != "" {
		fp = up.Fingerprint
	}
	now := up.At.UTC()
	if up.At.IsZero() {
		now = s.clock.Now().UTC()
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Submission{}, fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO submissions (user_id, exercise_id, kind, created_at_ns, fingerprint, matches_solution) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
		userID, exercise, string(kind), ns(now), fp, up.MatchesSolution).Scan(&id)
	if err != nil {
		return Submission{}, fmt.Errorf("store: saving the submission: %w", err)
	}
	for _, f := range files {
		if _, err := tx.ExecContext(ctx, `INSERT INTO submission_files (submission_id, name, content) VALUES (?, ?, ?)`,
			id, f.Name, f.Content); err != nil {
			return Submission{}, fmt.Errorf("store: saving %s: %w", f.Name, err)
		}
	}
	var jid int64
	err = tx.QueryRowContext(ctx, `INSERT INTO jobs (submission_id, reason, state, queued_at_ns) VALUES (?, 'submit', 'queued', ?) RETURNING id`,
		id, ns(now)).Scan(&jid)
	if err != nil {
		return Submission{}, fmt.Errorf("store: queuing: %w", err)
	}
	superseded, err := supersede(ctx, tx, userID, exercise, kind, id, now)
	if err != nil {
		return Submission{}, err
	}
	sub := Submission{ID: id, UserID: userID, Exercise: exercise, Kind: kind, CreatedAt: now, Files: files,
		Fingerprint: up.Fingerprint, MatchesSolution: up.MatchesSolution, Superseded: superseded,
		Job: Job{ID: jid, SubmissionID: id, Reason: "submit", State: Queued, QueuedAt: now}}
	if up.QueuedEvent != nil && s.Backend() == Postgres {
		body, err := up.QueuedEvent(sub)
		if err != nil {
			return Submission{}, fmt.Errorf("store: the queued event: %w", err)
		}
		if _, err := tx.ExecContext(ctx, publishEvent, ns(now), string(body)); err != nil {
			return Submission{}, fmt.Errorf("store: publishing the queued event: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return Submission{}, fmt.Errorf("store: %w", err)
	}
	return sub, nil
}

// waitingJob is the condition of a job not started yet: queued in the
// store, or handed to River (DispatchJob) and not started by a worker.
const waitingJob = `(state = 'queued' OR state = 'running' AND started_at_ns IS NULL)`

// CountJobs returns how many jobs are in state. Queued counts every job
// not started yet, those handed to River and waiting there included: what
// the dashboard shows as queued and the queue's limit counts.
func (s *Store) CountJobs(ctx context.Context, state JobState) (int, error) {
	q, args := `SELECT COUNT(*) FROM jobs WHERE state = ?`, []any{state}
	if state == Queued {
		q, args = `SELECT COUNT(*) FROM jobs WHERE `+waitingJob, nil
	}
	var n int
	if err := s.db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// Waiting reports whether the learner has a job of exercise of that kind
// not started yet: a new submission (or check) of it would supersede that
// job, not add one.
func (s *Store) Waiting(ctx context.Context, userID int64, exercise string, kind Kind) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs WHERE `+waitingJob+` AND submission_id IN (
	SELECT id FROM submissions WHERE user_id = ? AND exercise_id = ? AND kind = ?)`, userID, exercise, string(kind)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	return n > 0, nil
}

const jobCols = `id, submission_id, reason, state, attempts, queued_at_ns, started_at_ns, finished_at_ns, seed, error, result, retries, server_fault, note`

// jobRow receives a job's columns (jobCols, in order) from a scan; fill
// then completes the Job from its nullable and encoded ones.
type jobRow struct {
	queued                  int64
	started, finished, seed sql.NullInt64
	errMsg, result, note    sql.NullString
}

func (r *jobRow) dest(j *Job) []any {
	return []any{&j.ID, &j.SubmissionID, &j.Reason, &j.State, &j.Attempts, &r.queued, &r.started, &r.finished, &r.seed, &r.errMsg, &r.result, &j.Retries, &j.ServerFault, &r.note}
}

func (r *jobRow) fill(j *Job) error {
	j.QueuedAt = time.Unix(0, r.queued).UTC()
	j.StartedAt, j.FinishedAt = fromNs(r.started), fromNs(r.finished)
	j.Seed, j.Error, j.Note = r.seed.Int64, r.errMsg.String, r.note.String
	if r.result.Valid {
		j.Result = new(report.Exercise)
		if err := json.Unmarshal([]byte(r.result.String), j.Result); err != nil {
			return fmt.Errorf("store: result of job %d: %w", j.ID, err)
		}
	}
	return nil
}

func scanJob(sc scanner) (Job, error) {
	var (
		j Job
		r jobRow
	)
	if err := sc.Scan(r.dest(&j)...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Job{}, ErrNotFound
		}
		return Job{}, fmt.Errorf("store: %w", err)
	}
	if err := r.fill(&j); err != nil {
		return Job{}, err
	}
	return j, nil
}

// Job returns one job.
func (s *Store) Job(ctx context.Context, id int64) (Job, error) {
	return scanJob(s.db.QueryRowContext(ctx, `SELECT `+jobCols+` FROM jobs WHERE id = ?`, id))
}

// submissionCols are a submission's columns (s, its learner u), its
// number (Submission.Number), its fingerprint, and the other learners who
// submitted the same (their names joined by the unit separator, in no
// order).
const submissionCols = `s.id, s.user_id, u.name, s.exercise_id, s.kind, s.created_at_ns,
	(SELECT COUNT(*) FROM submissions s3 WHERE s3.user_id = s.user_id AND s3.exercise_id = s.exercise_id AND s3.kind = s.kind AND s3.id <= s.id),
	COALESCE(s.fingerprint, ''), s.matches_solution,
	(SELECT string_agg(u2.name, '` + "\x1f" + `') FROM submissions s2 JOIN users u2 ON u2.id = s2.user_id
	 WHERE s.fingerprint IS NOT NULL AND s2.kind = 'submit' AND s2.exercise_id = s.exercise_id AND s2.fingerprint = s.fingerprint AND s2.user_id != s.user_id)`

// latestJob joins a submission with its latest job.
const latestJob = `JOIN jobs j ON j.id = (SELECT MAX(id) FROM jobs WHERE submission_id = s.id)`

func scanSubmission(sc scanner) (Submission, error) {
	var (
		sub  Submission
		at   int64
		r    jobRow
		same sql.NullString
	)
	err := sc.Scan(append([]any{&sub.ID, &sub.UserID, &sub.Learner, &sub.Exercise, &sub.Kind, &at, &sub.Number, &sub.Fingerprint, &sub.MatchesSolution, &same}, r.dest(&sub.Job)...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return Submission{}, ErrNotFound
	}
	if err != nil {
		return Submission{}, fmt.Errorf("store: %w", err)
	}
	sub.CreatedAt = time.Unix(0, at).UTC()
	sub.SameAs = sameAs(same.String)
	if err := r.fill(&sub.Job); err != nil {
		return Submission{}, err
	}
	return sub, nil
}

// jobColsJ is jobCols of the table aliased j.
var jobColsJ = "j." + strings.ReplaceAll(jobCols, ", ", ", j.")

// Submission returns one submission with its files and latest job.
func (s *Store) Submission(ctx context.Context, id int64) (Submission, error) {
	sub, err := scanSubmission(s.db.QueryRowContext(ctx, `
SELECT `+submissionCols+`, `+jobColsJ+` FROM submissions s JOIN users u ON u.id = s.user_id `+latestJob+`
WHERE s.id = ?`, id))
	if err != nil {
		return Submission{}, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT name, content FROM submission_files WHERE submission_id = ? ORDER BY name`, id)
	if err != nil {
		return Submission{}, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var f File
		if err := rows.Scan(&f.Name, &f.Content); err != nil {
			return Submission{}, fmt.Errorf("store: %w", err)
		}
		sub.Files = append(sub.Files, f)
	}
	return sub, rows.Err()
}

// Submissions returns submissions (never checks) with their latest job,
// newest first: a learner's (userID > 0) or everyone's (userID 0), at
// most limit.
func (s *Store) Submissions(ctx context.Context, userID int64, limit int) ([]Submission, error) {
	q := `SELECT ` + submissionCols + `, ` + jobColsJ + ` FROM submissions s JOIN users u ON u.id = s.user_id ` + latestJob +
		` WHERE s.kind = 'submit'`
	args := []any{}
	if userID > 0 {
		q += ` AND s.user_id = ?`
		args = append(args, userID)
	}
	q += ` ORDER BY s.id DESC LIMIT ?`
	args = append(args, limit)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []Submission
	for rows.Next() {
		sub, err := scanSubmission(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	return out, rows.Err()
}

// Grading is one finished (or pending) job of the class, without its
// result body: what a gradebook is computed from.
type Grading struct {
	JobID, SubmissionID, UserID int64
	Learner, Exercise           string
	State                       JobState
	Status                      report.Status // the exercise's report status, "" until done with a result
	Score, MaxScore             float64
	FinishedAt                  time.Time
	SubmittedAt                 time.Time // the submission's time: what its due date judges
}

// Gradings returns every job of every submission (checks are no
// submissions: none of theirs), oldest first. A job
// handed to River and not started by a worker (Job.Waiting) reads as
// Queued: it waits for a worker.
func (s *Store) Gradings(ctx context.Context) ([]Grading, error) {
	rows, err := s.db.QueryContext(ctx, `
SELECT j.id, s.id, s.user_id, u.name, s.exercise_id,
	CASE WHEN j.state = 'running' AND j.started_at_ns IS NULL THEN 'queued' ELSE j.state END, COALESCE(j.status, ''), COALESCE(j.score, 0), COALESCE(j.max_score, 0), j.finished_at_ns, s.created_at_ns
FROM jobs j JOIN submissions s ON s.id = j.submission_id JOIN users u ON u.id = s.user_id
WHERE s.kind = 'submit'
ORDER BY j.id`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []Grading
	for rows.Next() {
		var (
			g  Grading
			fi sql.NullInt64
			at int64
		)
		if err := rows.Scan(&g.JobID, &g.SubmissionID, &g.UserID, &g.Learner, &g.Exercise, &g.State, &g.Status, &g.Score, &g.MaxScore, &fi, &at); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		g.FinishedAt, g.SubmittedAt = fromNs(fi), time.Unix(0, at).UTC()
		out = append(out, g)
	}
	return out, rows.Err()
}

// Results returns the result bodies of the given jobs (those done with a
// result), keyed by job id.
func (s *Store) Results(ctx context.Context, jobIDs []int64) (map[int64]report.Exercise, error) {
	out := map[int64]report.Exercise{}
	for len(jobIDs) > 0 {
		n := min(len(jobIDs), 500)
		batch := jobIDs[:n]
		jobIDs = jobIDs[n:]
		args := make([]any, len(batch))
		for i, id := range batch {
			args[i] = id
		}
		rows, err := s.db.QueryContext(ctx, `SELECT id, result FROM jobs WHERE result IS NOT NULL AND id IN (?`+
			strings.Repeat(", ?", len(batch)-1)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		for rows.Next() {
			var (
				id   int64
				body string
				ex   report.Exercise
			)
			if err := rows.Scan(&id, &body); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: %w", err)
			}
			if err := json.Unmarshal([]byte(body), &ex); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: result of job %d: %w", id, err)
			}
			out[id] = ex
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
	}
	return out, nil
}
