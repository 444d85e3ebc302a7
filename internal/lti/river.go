package lti

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"ratelab/internal/class"
)

// On a Postgres class, the scores go through River, the class's job queue
// (package class's river.go): queuing a score inserts a River job in the
// same transaction (store.QueueLTIScore's hand), so a score queued is a
// job River runs, once per version of the score (unique by its args).
// River retries a failed post with a doubling wait, on any server of the
// class, and one whose worker died; after MaxAttempts the score is marked
// failed. On SQLite, Run's own loop posts (PostDue).

// riverQueue is River's queue of score posts.
const riverQueue = "lti_scores"

// postArgs is a River job's arguments: the score row and its version.
type postArgs struct {
	Score   int64 `json:"score"`
	Version int64 `json:"version"`
}

// Kind names River's job kind.
func (postArgs) Kind() string { return "ratelab_lti_score" }

// insertOpts are a score post's: its queue and attempts, one job per
// version of a score.
func (t *Tool) insertOpts() *river.InsertOpts {
	return &river.InsertOpts{Queue: riverQueue, MaxAttempts: t.cfg.MaxAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// riverPoster is a Postgres tool's link to River.
type riverPoster struct {
	pool     *pgxpool.Pool
	client   *river.Client[pgx.Tx]
	inserter *river.Client[*sql.Tx]
}

// hand is what Sync hands each queued score to: a River job on Postgres,
// nothing on SQLite (Run's loop finds the row).
func (t *Tool) hand() func(context.Context, *sql.Tx, int64, int64) error {
	t.mu.Lock()
	r := t.river
	t.mu.Unlock()
	if r == nil {
		return nil
	}
	return func(ctx context.Context, tx *sql.Tx, id, version int64) error {
		_, err := r.inserter.InsertTx(ctx, tx, postArgs{Score: id, Version: version}, t.insertOpts())
		if err != nil {
			return fmt.Errorf("lti: queuing a score's post: %w", err)
		}
		return nil
	}
}

// startRiver starts the River client that posts scores, on a Postgres
// store, and gives a job to every score waiting without one (queued while
// River was not running here: it failed to start, or Run ran before).
func (t *Tool) startRiver(ctx context.Context) (*riverPoster, error) {
	url := t.st.URL()
	if err := class.MigrateQueue(ctx, url); err != nil {
		return nil, err
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("lti: river: %w", err)
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &postWorker{t: t})
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Workers:     workers,
		Queues:      map[string]river.QueueConfig{riverQueue: {MaxWorkers: 2}},
		RetryPolicy: doubling{clock: t.cfg.Clock, first: t.cfg.RetryDelay},
		MaxAttempts: t.cfg.MaxAttempts,
		JobTimeout:  postLease / 2,
		Logger:      t.log,
	})
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("lti: river: %w", err)
	}
	inserter, err := river.NewClient(riverdatabasesql.New(t.st.DB()), &river.Config{})
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("lti: river: %w", err)
	}
	if err := client.Start(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("lti: river: %w", err)
	}
	r := &riverPoster{pool: pool, client: client, inserter: inserter}
	pending, err := t.st.PendingLTIScores(ctx)
	for _, p := range pending {
		if err == nil {
			_, err = client.Insert(ctx, postArgs{Score: p[0], Version: p[1]}, t.insertOpts())
		}
	}
	if err != nil {
		r.stop(t.log)
		return nil, fmt.Errorf("lti: river: queuing the scores waiting: %w", err)
	}
	return r, nil
}

func (r *riverPoster) stop(log *slog.Logger) {
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.client.Stop(sctx); err != nil {
		log.Warn("lti: stopping river", "err", err)
	}
	r.pool.Close()
}

// postWorker posts one score's version.
type postWorker struct {
	river.WorkerDefaults[postArgs]
	t *Tool
}

// Work posts the job's score if it is still the version to post.
func (w *postWorker) Work(ctx context.Context, job *river.Job[postArgs]) error {
	t := w.t
	sc, ok, err := t.st.ClaimLTIScoreOf(ctx, job.Args.Score, job.Args.Version, t.cfg.Clock.Now().Add(postLease))
	if err != nil || !ok {
		return err // !ok: posted, or a newer version has a job of its own
	}
	err = t.post(ctx, sc)
	wctx := context.WithoutCancel(ctx)
	if err == nil {
		_, err := t.st.PostedLTIScore(wctx, sc.ID, sc.Version)
		return err
	}
	giveUp := job.Attempt >= t.cfg.MaxAttempts
	t.log.Warn("lti: posting a score", "learner", sc.UserID, "exercise", sc.Exercise, "attempt", job.Attempt, "giving up", giveUp, "err", err)
	next := doubling{clock: t.cfg.Clock, first: t.cfg.RetryDelay}.NextRetry(job.JobRow)
	if ferr := t.st.FailedLTIScore(wctx, sc.ID, sc.Version, err.Error(), next, giveUp); ferr != nil {
		return errors.Join(err, ferr)
	}
	if giveUp {
		return river.JobCancel(err)
	}
	return err
}

// doubling retries a River job after first, doubling each attempt up to
// maxWait.
type doubling struct {
	clock Clock
	first time.Duration
}

func (d doubling) NextRetry(job *rivertype.JobRow) time.Time {
	return d.clock.Now().Add(backoff(d.first, job.Attempt))
}

// backoff is the wait after the attempt-th failure: first, doubled each
// attempt, at most maxWait.
func backoff(first time.Duration, attempt int) time.Duration {
	return min(first<<min(max(attempt-1, 0), 20), maxWait)
}
