package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver

	"ratelab/grader/report"
)

// ErrNotFound is returned when there is nothing saved yet for what was asked.
var ErrNotFound = errors.New("store: not found")

// Clock tells the store what time it is when it saves something. The
// command passes the wall clock; tests pass a fixed one.
type Clock interface {
	Now() time.Time
}

// Store is the lab's database, SQLite or Postgres. It is safe for
// concurrent use; its zero value is not usable: call Open.
type Store struct {
	db    *db
	clock Clock
	url   string // the Postgres URL it was opened with; "" on SQLite
}

// Saved is a whole report as it was saved.
type Saved struct {
	ID      int64     // increases with every save; later saves have larger IDs
	SavedAt time.Time // clock time of the save, in UTC
	Report  report.Report
}

// Result is one exercise's result from the latest report that graded it.
type Result struct {
	ReportID int64     // the Saved.ID it came from
	SavedAt  time.Time // when that report was saved, in UTC
	Target   string    // "exercises" or "solutions"
	Seed     int64     // the property seed of that run
	Exercise report.Exercise
}

// busyTimeout is how long a connection waits for another writer before
// failing with SQLITE_BUSY.
const busyTimeout = 5 * time.Second

// Open opens (creating it and its folder if needed) the database at path and
// migrates it to the current schema. clock stamps each save. A path that is
// a Postgres URL (IsPostgresURL) opens that database instead, which must
// exist; its tables are created by the same migration step.
func Open(ctx context.Context, path string, clock Clock) (*Store, error) {
	return OpenWith(ctx, path, clock, Options{})
}

// Options tune OpenWith. The zero value is what Open uses.
type Options struct {
	// Durable makes every commit survive a power cut, not only a crash of
	// the process (PRAGMA synchronous = FULL instead of NORMAL). Class mode
	// sets it: a submission acknowledged is never lost.
	Durable bool
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, path string, clock Clock, o Options) (*Store, error) {
	if clock == nil {
		return nil, errors.New("store: Open needs a Clock")
	}
	if IsPostgresURL(path) {
		return openPostgres(ctx, path, clock)
	}
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	if o.Durable {
		q.Add("_pragma", "synchronous(FULL)")
	} else {
		q.Add("_pragma", "synchronous(NORMAL)")
	}
	q.Add("_pragma", "foreign_keys(1)")
	// Writers take the write lock when they begin, so two writers queue on
	// the busy timeout instead of deadlocking on a read-to-write upgrade.
	q.Set("_txlock", "immediate")
	dsn := "file:" + filepath.ToSlash(path) + "?" + q.Encode()
	sd, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if err := migrate(ctx, sd); err != nil {
		sd.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	return &Store{db: &db{DB: sd, d: sqliteDialect}, clock: clock}, nil
}

// maxPostgresConns bounds a Store's connections to Postgres.
const maxPostgresConns = 10

// openPostgres opens the Postgres database at url (pgx through
// database/sql) and migrates it. Every commit is durable there already
// (synchronous_commit), so Options.Durable changes nothing.
func openPostgres(ctx context.Context, url string, clock Clock) (*Store, error) {
	sd, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// Every process of a class (a server, each worker) holds connections:
	// bounded, so that a few processes stay within Postgres's default 100
	// (with River's pool and the listening connection, about 15 each).
	sd.SetMaxOpenConns(maxPostgresConns)
	if err := sd.PingContext(ctx); err != nil {
		sd.Close()
		return nil, fmt.Errorf("store: %s: %w", Redact(url), err)
	}
	if err := migratePostgres(ctx, sd); err != nil {
		sd.Close()
		return nil, fmt.Errorf("store: %s: %w", Redact(url), err)
	}
	return &Store{db: &db{DB: sd, d: postgresDialect}, clock: clock, url: url}, nil
}

// Redact returns a database's address fit for a log: a Postgres URL
// without its password; a path as it is.
func Redact(target string) string {
	if !IsPostgresURL(target) {
		return target
	}
	u, err := url.Parse(target)
	if err != nil {
		return "a Postgres URL that does not parse"
	}
	return u.Redacted()
}

// Backend returns the database the store runs on.
func (s *Store) Backend() Backend { return s.db.d.backend }

// DB returns the store's database handle: for the tools that live beside
// the store on the same database (the Postgres queue's), never for the
// store's own tables.
func (s *Store) DB() *sql.DB { return s.db.DB }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// SchemaVersion returns the database's schema version (PRAGMA user_version
// on SQLite, the schema_version table on Postgres).
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	if s.Backend() == Postgres {
		return postgresVersion(ctx, s.db)
	}
	var v int
	err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// SaveReport stores r, stamped with the clock's current time, and returns
// nothing else: read it back with LatestReport or LatestResult. An exercise
// that appears twice in r is stored once, the last one winning.
func (s *Store) SaveReport(ctx context.Context, r *report.Report) error {
	if r == nil {
		return errors.New("store: SaveReport(nil)")
	}
	body, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("store: encoding report: %w", err)
	}
	now := s.clock.Now().UTC()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx,
		`INSERT INTO reports (saved_at_ns, target, schema, seed, score, max_score, body)
		 VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		now.UnixNano(), r.Target, r.Schema, r.Seed, r.Score, r.MaxScore, string(body)).Scan(&id)
	if err != nil {
		return fmt.Errorf("store: saving report: %w", err)
	}
	for _, e := range r.Exercises {
		eb, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("store: encoding %s: %w", e.ID, err)
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO exercise_results (report_id, exercise_id, status, score, max_score, body)
			 VALUES (?, ?, ?, ?, ?, ?)
			 ON CONFLICT (report_id, exercise_id) DO UPDATE SET status = excluded.status,
			 	score = excluded.score, max_score = excluded.max_score, body = excluded.body`,
			id, e.ID, e.Status, e.Score, e.MaxScore, string(eb)); err != nil {
			return fmt.Errorf("store: saving %s: %w", e.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// LatestReport returns the report for target ("exercises" or "solutions")
// saved last, or ErrNotFound.
func (s *Store) LatestReport(ctx context.Context, target string) (Saved, error) {
	var (
		sv      Saved
		savedNs int64
		body    string
	)
	err := s.db.QueryRowContext(ctx,
		`SELECT id, saved_at_ns, body FROM reports WHERE target = ? ORDER BY id DESC LIMIT 1`,
		target).Scan(&sv.ID, &savedNs, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return Saved{}, ErrNotFound
	}
	if err != nil {
		return Saved{}, fmt.Errorf("store: %w", err)
	}
	if err := json.Unmarshal([]byte(body), &sv.Report); err != nil {
		return Saved{}, fmt.Errorf("store: report %d: %w", sv.ID, err)
	}
	sv.SavedAt = time.Unix(0, savedNs).UTC()
	return sv, nil
}

// latestResults selects, per exercise, the row from the latest report of
// the target that graded it (a report from `grade --exercise X` holds X only).
const latestResults = `
SELECT r.id, r.saved_at_ns, r.target, r.seed, e.body
FROM exercise_results e JOIN reports r ON r.id = e.report_id
WHERE r.target = ?1 AND e.report_id = (
	SELECT MAX(e2.report_id)
	FROM exercise_results e2 JOIN reports r2 ON r2.id = e2.report_id
	WHERE e2.exercise_id = e.exercise_id AND r2.target = ?1
)`

// LatestResults returns, for every exercise that target has a result for,
// the result from the latest report that graded it, keyed by exercise ID.
// The map is empty (not nil) when nothing is saved yet.
func (s *Store) LatestResults(ctx context.Context, target string) (map[string]Result, error) {
	rows, err := s.db.QueryContext(ctx, latestResults, target)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	out := map[string]Result{}
	for rows.Next() {
		res, err := scanResult(rows)
		if err != nil {
			return nil, err
		}
		out[res.Exercise.ID] = res
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return out, nil
}

// LatestResult returns the latest result for one exercise of target, or
// ErrNotFound if no saved report graded it.
func (s *Store) LatestResult(ctx context.Context, target, exerciseID string) (Result, error) {
	row := s.db.QueryRowContext(ctx, `
SELECT r.id, r.saved_at_ns, r.target, r.seed, e.body
FROM exercise_results e JOIN reports r ON r.id = e.report_id
WHERE r.target = ? AND e.exercise_id = ?
ORDER BY e.report_id DESC LIMIT 1`, target, exerciseID)
	res, err := scanResult(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Result{}, ErrNotFound
	}
	return res, err
}

type scanner interface{ Scan(dest ...any) error }

func scanResult(sc scanner) (Result, error) {
	var (
		res     Result
		savedNs int64
		body    string
	)
	if err := sc.Scan(&res.ReportID, &savedNs, &res.Target, &res.Seed, &body); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Result{}, err
		}
		return Result{}, fmt.Errorf("store: %w", err)
	}
	if err := json.Unmarshal([]byte(body), &res.Exercise); err != nil {
		return Result{}, fmt.Errorf("store: result in report %d: %w", res.ReportID, err)
	}
	res.SavedAt = time.Unix(0, savedNs).UTC()
	return res, nil
}
