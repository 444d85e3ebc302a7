package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations lists the schema changes in order. migrations[i] takes a
// database from user_version i to i+1. Append only: never edit or reorder a
// migration that has been released.
var migrations = []string{
	// 1: grade reports, and each exercise's result within them.
	`
CREATE TABLE reports (
	id          INTEGER PRIMARY KEY,
	saved_at_ns INTEGER NOT NULL, -- Unix nanoseconds, UTC, when SaveReport ran
	target      TEXT    NOT NULL, -- "exercises" or "solutions"
	schema      TEXT    NOT NULL, -- e.g. "ratelab.grade/v1"
	seed        INTEGER NOT NULL,
	score       REAL    NOT NULL,
	max_score   REAL    NOT NULL,
	body        TEXT    NOT NULL  -- the whole report as JSON
);
CREATE INDEX reports_by_target ON reports (target, id);

CREATE TABLE exercise_results (
	report_id   INTEGER NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
	exercise_id TEXT    NOT NULL,
	status      TEXT    NOT NULL,
	score       REAL    NOT NULL,
	max_score   REAL    NOT NULL,
	body        TEXT    NOT NULL, -- the report's Exercise, checks included, as JSON
	PRIMARY KEY (report_id, exercise_id)
);
CREATE INDEX exercise_results_by_exercise ON exercise_results (exercise_id, report_id);
`,
	// 2: class mode: accounts, sessions, submissions and their grading jobs.
	`
CREATE TABLE users (
	id            INTEGER PRIMARY KEY,
	name          TEXT    NOT NULL UNIQUE,
	role          TEXT    NOT NULL CHECK (role IN ('learner', 'instructor')),
	token_hash    BLOB    UNIQUE,   -- learners: SHA-256 of their token
	password_hash TEXT,             -- instructors: bcrypt
	created_at_ns INTEGER NOT NULL
);

CREATE TABLE sessions (
	id_hash       BLOB    PRIMARY KEY, -- SHA-256 of the cookie's value
	user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	expires_at_ns INTEGER NOT NULL
);

CREATE TABLE submissions (
	id            INTEGER PRIMARY KEY,
	user_id       INTEGER NOT NULL REFERENCES users (id),
	exercise_id   TEXT    NOT NULL,
	created_at_ns INTEGER NOT NULL
);
CREATE INDEX submissions_by_user ON submissions (user_id, exercise_id, id);

CREATE TABLE submission_files (
	submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
	name          TEXT    NOT NULL,
	content       BLOB    NOT NULL,
	PRIMARY KEY (submission_id, name)
);

-- One grading of a submission: the first on submit, more on regrade.
CREATE TABLE jobs (
	id             INTEGER PRIMARY KEY,
	submission_id  INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
	reason         TEXT    NOT NULL,          -- "submit" or "regrade"
	state          TEXT    NOT NULL CHECK (state IN ('queued', 'running', 'done')),
	attempts       INTEGER NOT NULL DEFAULT 0, -- times a worker claimed it
	queued_at_ns   INTEGER NOT NULL,
	started_at_ns  INTEGER,
	finished_at_ns INTEGER,
	status         TEXT,    -- the exercise's report status once done
	score          REAL,
	max_score      REAL,
	seed           INTEGER,
	error          TEXT,    -- why it could not be graded, if it could not
	result         TEXT     -- the report's Exercise as JSON
);
CREATE INDEX jobs_by_state ON jobs (state, id);
CREATE INDEX jobs_by_submission ON jobs (submission_id, id);
`,
	// 3: a fair queue. Jobs may be superseded (a newer submission of the
	// same exercise by the same learner replaced them while they waited),
	// wait before a retry, and say whether their error is the server's;
	// each learner's turn in the queue; each submission's code fingerprint.
	`
CREATE TABLE jobs_v3 (
	id             INTEGER PRIMARY KEY,
	submission_id  INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
	reason         TEXT    NOT NULL,          -- "submit" or "regrade"
	state          TEXT    NOT NULL CHECK (state IN ('queued', 'running', 'done', 'superseded')),
	attempts       INTEGER NOT NULL DEFAULT 0, -- times a worker claimed it, less the server's retries
	queued_at_ns   INTEGER NOT NULL,
	started_at_ns  INTEGER,
	finished_at_ns INTEGER,
	status         TEXT,    -- the exercise's report status once done
	score          REAL,
	max_score      REAL,
	seed           INTEGER,
	error          TEXT,    -- why it could not be graded, if it could not
	result         TEXT,    -- the report's Exercise as JSON, bounded (see Bound)
	not_before_ns  INTEGER NOT NULL DEFAULT 0, -- a retried job is not claimed before
	retries        INTEGER NOT NULL DEFAULT 0, -- gradings that failed for the server's reasons
	server_fault   INTEGER NOT NULL DEFAULT 0  -- 1: error is the server's problem, not the learner's
);
INSERT INTO jobs_v3 (id, submission_id, reason, state, attempts, queued_at_ns, started_at_ns, finished_at_ns,
	status, score, max_score, seed, error, result)
SELECT id, submission_id, reason, state, attempts, queued_at_ns, started_at_ns, finished_at_ns,
	status, score, max_score, seed, error, result FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_v3 RENAME TO jobs;
CREATE INDEX jobs_by_state ON jobs (state, id);
CREATE INDEX jobs_by_submission ON jobs (submission_id, id);

-- Each learner's place in the round robin: the claim counter when a job of
-- theirs was last claimed, and whether their last grading timed out.
CREATE TABLE queue_turns (
	user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	last_claim INTEGER NOT NULL DEFAULT 0,
	timed_out  INTEGER NOT NULL DEFAULT 0
);

ALTER TABLE submissions ADD COLUMN fingerprint TEXT; -- hash of the normalised syntax tree
ALTER TABLE submissions ADD COLUMN matches_solution INTEGER NOT NULL DEFAULT 0;
CREATE INDEX submissions_by_fingerprint ON submissions (exercise_id, fingerprint);
`,
	// 4: a running job's note, what the learner's page says of it beside
	// "running" (e.g. "regrading after a worker stopped"), kept so that a
	// page opened during the grading says it too.
	`
ALTER TABLE jobs ADD COLUMN note TEXT;
`,
	// 5: the lease of a job a worker of another process grades (River):
	// the time by which it must be renewed, or the job is handed on.
	`
ALTER TABLE jobs ADD COLUMN lease_ns INTEGER;
`,
	// 6: checks and drafts. A check is a submission of kind
	// 'check': the learner's draft graded in the same queue and sandbox,
	// counted nowhere a submission is (gradebook, lists, exports). A
	// draft is what a learner's editor last saved of an exercise, its
	// files as JSON ({"name.go": "source"}), numbered by version.
	`
ALTER TABLE submissions ADD COLUMN kind TEXT NOT NULL DEFAULT 'submit' CHECK (kind IN ('submit', 'check'));

CREATE TABLE drafts (
	user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	exercise_id   TEXT    NOT NULL,
	files         TEXT    NOT NULL, -- {"name.go": "source", ...}
	version       INTEGER NOT NULL, -- 1 for the first save, one more each save
	updated_at_ns INTEGER NOT NULL,
	PRIMARY KEY (user_id, exercise_id)
);
`,
	// 7: due dates (see due.go): the course's settings (its time zone),
	// each week's or exercise's due date and late policy, each learner's
	// extensions, and the record of every change of them with the
	// submissions whose on-time mark it changed.
	`
CREATE TABLE course_settings (
	name  TEXT PRIMARY KEY,
	value TEXT NOT NULL
);

CREATE TABLE due_dates (
	week        INTEGER NOT NULL DEFAULT 0,  -- a week's due date (exercise '')
	exercise    TEXT    NOT NULL DEFAULT '', -- or an exercise's own (week 0)
	due_ns      INTEGER NOT NULL,            -- Unix nanoseconds, UTC
	policy      TEXT    NOT NULL CHECK (policy IN ('accept', 'penalty', 'refuse')),
	penalty_pct REAL    NOT NULL DEFAULT 0,  -- per day late or part of one (penalty)
	cutoff_ns   INTEGER,                     -- penalty: refused after it
	set_at_ns   INTEGER NOT NULL,
	PRIMARY KEY (week, exercise)
);

CREATE TABLE extensions (
	user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	week      INTEGER NOT NULL DEFAULT 0,
	exercise  TEXT    NOT NULL DEFAULT '',
	until_ns  INTEGER NOT NULL,
	set_at_ns INTEGER NOT NULL,
	PRIMARY KEY (user_id, week, exercise)
);

CREATE TABLE due_changes (
	id       INTEGER PRIMARY KEY,
	at_ns    INTEGER NOT NULL,
	what     TEXT    NOT NULL, -- the change, in words
	remarked TEXT    NOT NULL  -- JSON: the submissions whose on-time mark it changed
);
`,
	// 8: LTI 1.3 (package lti): the learning platforms registered with
	// the class, their deployments, the tool's own signing keys, the
	// logins in flight (state and nonce, each used once), the platforms'
	// users as the class's, the resource links and courses seen in
	// launches, and the scores to send to the platforms' gradebooks.
	`
CREATE TABLE lti_platforms (
	id             INTEGER PRIMARY KEY,
	issuer         TEXT    NOT NULL,
	client_id      TEXT    NOT NULL,
	name           TEXT    NOT NULL DEFAULT '',
	auth_login_url TEXT    NOT NULL,
	token_url      TEXT    NOT NULL,
	jwks_url       TEXT    NOT NULL,
	created_at_ns  INTEGER NOT NULL,
	UNIQUE (issuer, client_id)
);

CREATE TABLE lti_deployments (
	platform_id   INTEGER NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
	deployment_id TEXT    NOT NULL,
	PRIMARY KEY (platform_id, deployment_id)
);

CREATE TABLE lti_keys (
	kid           TEXT    PRIMARY KEY,
	private_key   TEXT    NOT NULL, -- PKCS #8, PEM
	created_at_ns INTEGER NOT NULL,
	retired_at_ns INTEGER           -- signs no more; still published
);

CREATE TABLE lti_logins (
	nonce         TEXT    PRIMARY KEY,
	state_hash    BLOB    NOT NULL, -- SHA-256 of the state the browser's cookie holds
	platform_id   INTEGER NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
	expires_at_ns INTEGER NOT NULL,
	used_at_ns    INTEGER
);

CREATE TABLE lti_users (
	platform_id INTEGER NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
	sub         TEXT    NOT NULL,
	user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	PRIMARY KEY (platform_id, sub)
);

CREATE TABLE lti_contexts (
	platform_id     INTEGER NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
	context_id      TEXT    NOT NULL,
	title           TEXT    NOT NULL DEFAULT '',
	memberships_url TEXT    NOT NULL DEFAULT '',
	lineitems_url   TEXT    NOT NULL DEFAULT '',
	updated_at_ns   INTEGER NOT NULL,
	PRIMARY KEY (platform_id, context_id)
);

CREATE TABLE lti_links (
	platform_id      INTEGER NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
	resource_link_id TEXT    NOT NULL,
	context_id       TEXT    NOT NULL DEFAULT '',
	exercise         TEXT    NOT NULL,
	lineitem_url     TEXT    NOT NULL DEFAULT '',
	updated_at_ns    INTEGER NOT NULL,
	PRIMARY KEY (platform_id, resource_link_id)
);

CREATE TABLE lti_link_users (
	platform_id      INTEGER NOT NULL,
	resource_link_id TEXT    NOT NULL,
	user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	sub              TEXT    NOT NULL,
	PRIMARY KEY (platform_id, resource_link_id, user_id),
	FOREIGN KEY (platform_id, resource_link_id) REFERENCES lti_links (platform_id, resource_link_id) ON DELETE CASCADE
);

-- One row per line item and learner: the score that counts, to post.
CREATE TABLE lti_scores (
	id            INTEGER PRIMARY KEY,
	platform_id   INTEGER NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
	lineitem_url  TEXT    NOT NULL,
	user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	sub           TEXT    NOT NULL,
	exercise      TEXT    NOT NULL,
	submission_id INTEGER NOT NULL, -- the submission the score comes from
	score         REAL    NOT NULL,
	max_score     REAL    NOT NULL,
	version       INTEGER NOT NULL DEFAULT 1, -- one more each time the score to post changes
	state         TEXT    NOT NULL CHECK (state IN ('pending', 'posted', 'failed')),
	attempts      INTEGER NOT NULL DEFAULT 0,
	not_before_ns INTEGER NOT NULL DEFAULT 0,
	error         TEXT,
	changed_at_ns INTEGER NOT NULL,
	posted_at_ns  INTEGER,
	UNIQUE (lineitem_url, user_id)
);
CREATE INDEX lti_scores_by_state ON lti_scores (state, not_before_ns);

-- The origins a platform's pages are served from, as its launches name
-- them (Canvas's issuer is not the school's Canvas): they may frame the
-- class.
CREATE TABLE lti_origins (
	platform_id INTEGER NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
	origin      TEXT    NOT NULL,
	PRIMARY KEY (platform_id, origin)
);

-- Keys of the dynamic registration URLs an instructor made: each
-- registers one platform, before it lapses.
CREATE TABLE lti_registration_keys (
	key_hash      BLOB    PRIMARY KEY, -- SHA-256 of the URL's key
	expires_at_ns INTEGER NOT NULL,
	used_at_ns    INTEGER
);
`,
}

// migrate brings db up to SchemaVersion, one transaction per migration.
func migrate(ctx context.Context, db *sql.DB) error {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("reading schema version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("database schema version %d is newer than this program knows (%d): use a newer ratelab", v, len(migrations))
	}
	for ; v < len(migrations); v++ {
		if err := apply(ctx, db, v+1, migrations[v]); err != nil {
			return err
		}
	}
	return nil
}

func apply(ctx context.Context, db *sql.DB, version int, ddl string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Another process may have migrated between our read and this
	// (immediate) transaction: check again under the write lock.
	var cur int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&cur); err != nil {
		return err
	}
	if cur >= version {
		return nil
	}
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("migration %d: %w", version, err)
	}
	// PRAGMA takes no bound parameters; version is an int we control.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", version)); err != nil {
		return fmt.Errorf("migration %d: setting user_version: %w", version, err)
	}
	return tx.Commit()
}
