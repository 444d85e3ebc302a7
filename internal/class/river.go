package class

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"ratelab/grader/report"
	"ratelab/internal/event"
	"ratelab/internal/store"
)

// A class whose store is Postgres grades on as many machines as run
// `labserver worker`, through River (github.com/riverqueue/river):
//
//   - The store's jobs table stays the fair queue and the record of every
//     grading. A submission's row and its job's are one transaction, as on
//     SQLite: an acknowledged upload is never lost.
//   - A dispatcher moves jobs from the store to River in fair order
//     (store.DispatchJob: learners in turn, regrades last), inserting each
//     River job in the transaction that claims its store job, and keeps at
//     most Config.DispatchDepth River jobs waiting: River orders by
//     priority and time, not by learner, so its queue is kept short and
//     fed in learner turns. One process dispatches at a time: the one
//     holding a Postgres advisory lock on its listening connection (if it
//     dies, its connection closes and another takes over). That is our
//     own leader, not River's elected one, so the pages-only server
//     (--workers 0, an insert-only River client) may dispatch too.
//   - A River job carries the store job's id. A worker grades it only
//     while the store job is running: a retry of a finished job changes
//     nothing, and store.Finish writes a result once (ErrNotRunning
//     otherwise). A worker killed mid-grading leaves its River job
//     running until River's rescuer gives it back (Config.RescueAfter);
//     the next attempt, on any worker, tells the learner "regrading after
//     a worker stopped". A job interrupted maxAttempts times is given up
//     with a message, as on SQLite: River's own limit (riverMaxAttempts) is
//     above the store's, so the attempt that gives up may itself be
//     interrupted and retried. Should River finish with its job all the
//     same (discarded when a worker is killed on River's last attempt,
//     cancelled, deleted), the dispatcher gives the store job up
//     (giveUpLost), so no job stays running forever.
//   - Events go through Postgres (store.PublishEvent, LISTEN/NOTIFY), so a
//     worker on another machine drives the server's live views; every
//     process delivers to its own subscribers what it hears, its own
//     events included.

// riverQueue is River's queue name for gradings.
const riverQueue = "grading"

// dispatchLock is the key of the advisory lock the dispatcher holds.
const dispatchLock = 0x7261_7465_6c61_64 // "ratelad"

// riverMigrateLock is the key of the advisory lock River's migrations run
// under, so that processes starting together migrate once.
const riverMigrateLock = 0x7261_7465_6c61_6d // "rate lam"

// regradingMessage is what a learner's page shows when a grading starts
// again because the worker that had it stopped.
const regradingMessage = "regrading after a worker stopped"

// riverMaxAttempts is River's limit of attempts of a job: the store gives
// a job up on attempt maxAttempts+1 (Work), and that attempt, which only
// records it, gets two more chances should its worker be killed too.
const riverMaxAttempts = maxAttempts + 3

// lostEvery is how often the dispatcher looks for store jobs River no
// longer runs (giveUpLost).
const lostEvery = 5 * time.Second

// lostMessage is the error of a job given up because River stopped
// running it.
const lostMessage = "not graded: the queue gave its grading up (the worker grading it stopped, the last time for good)"

// gradeArgs is a River job's arguments: the store job to grade.
type gradeArgs struct {
	Job int64 `json:"job"`
	// Attempt is the store job's attempt handed on (its Attempts then): a
	// worker grades only that attempt (store.StartJob). 0, from a River job
	// inserted before attempts travelled, takes the store job's.
	Attempt int `json:"attempt,omitempty"`
}

// Kind names River's job kind.
func (gradeArgs) Kind() string { return "ratelab_grade" }

// MigrateQueue runs River's migrations on the Postgres database at url
// (labserver migrate and every start run it; it is a no-op when done).
func MigrateQueue(ctx context.Context, url string) error {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return fmt.Errorf("river: %w", err)
	}
	defer pool.Close()
	return migrateRiver(ctx, pool)
}

func migrateRiver(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("river: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(riverMigrateLock)); err != nil {
		return fmt.Errorf("river: waiting for another migration: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(riverMigrateLock))
	m, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return fmt.Errorf("river: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("river: migrating: %w", err)
	}
	return nil
}

// riverEngine is the engine of a class on Postgres: its link to River and
// to the other processes (see the notes above).
type riverEngine struct {
	c        *Class
	pool     *pgxpool.Pool
	client   *river.Client[pgx.Tx]  // grades (no queues when the process only serves pages)
	inserter *river.Client[*sql.Tx] // inserts in the store's transactions
	wake     chan struct{}          // the queue changed: dispatch
	wg       sync.WaitGroup
	// heard is closed once the listener first LISTENs (or first fails
	// to): start waits for it, so that no event published after
	// the class starts, a submission's queued first, goes unheard.
	heard     chan struct{}
	heardOnce sync.Once
}

// listening closes heard, once.
func (r *riverEngine) listening() { r.heardOnce.Do(func() { close(r.heard) }) }

func newRiver(c *Class) *riverEngine {
	return &riverEngine{c: c, wake: make(chan struct{}, 1), heard: make(chan struct{})}
}

// start starts the River client, the listener and the dispatcher, and
// makes r the class's engine once River runs.
func (r *riverEngine) start(ctx context.Context) error {
	c := r.c
	url := c.st.URL()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return fmt.Errorf("river: %w", err)
	}
	if err := migrateRiver(ctx, pool); err != nil {
		pool.Close()
		return err
	}
	if c.cfg.RescueAfter <= riverTimeout(c.cfg.JobTimeout) {
		pool.Close()
		return fmt.Errorf("a grading may run %s before River gives it to another worker: that must be longer than the job timeout (%s) and 5s", c.cfg.RescueAfter, c.cfg.JobTimeout)
	}
	r.pool = pool
	workers := river.NewWorkers()
	river.AddWorker(workers, &gradeWorker{c: c})
	cfg := &river.Config{
		Workers:              workers,
		JobTimeout:           riverTimeout(c.cfg.JobTimeout),
		RescueStuckJobsAfter: c.cfg.RescueAfter,
		RetryPolicy:          retryAfter{clock: c.cfg.Clock, wait: time.Second},
		MaxAttempts:          riverMaxAttempts,
		Logger:               slog.New(warnings{c.cfg.Log.Handler()}),
	}
	if !c.cfg.PagesOnly {
		cfg.Queues = map[string]river.QueueConfig{riverQueue: {MaxWorkers: c.cfg.Workers}}
	}
	r.client, err = river.NewClient(riverpgxv5.New(pool), cfg)
	if err != nil {
		pool.Close()
		return fmt.Errorf("river: %w", err)
	}
	r.inserter, err = river.NewClient(riverdatabasesql.New(c.st.DB()), &river.Config{})
	if err != nil {
		pool.Close()
		return fmt.Errorf("river: %w", err)
	}
	if !c.cfg.PagesOnly {
		if err := r.client.Start(ctx); err != nil {
			pool.Close()
			return fmt.Errorf("river: %w", err)
		}
	}
	c.engine = r
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer r.listening()
		r.listen(ctx)
	}()
	select {
	case <-r.heard:
	case <-ctx.Done():
	}
	return nil
}

// wait waits for the listener and stops River's client once ctx ended:
// jobs being graded are cancelled and River gives them to another worker.
func (r *riverEngine) wait() {
	r.wg.Wait()
	if !r.c.cfg.PagesOnly {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.client.StopAndCancel(sctx); err != nil {
			r.c.cfg.Log.Warn("river: stopping", "err", err)
		}
	}
	r.pool.Close()
}

// riverTimeout is River's deadline of a grading whose own is jobTimeout: a
// little later, so that the grading's own message says it timed out. River
// rescues only jobs running longer than their deadline (and than
// Config.RescueAfter), so it is never "none".
func riverTimeout(jobTimeout time.Duration) time.Duration { return jobTimeout + 5*time.Second }

// warnings passes on River's warnings and errors, not its routine
// information (a line every five seconds per worker).
type warnings struct{ slog.Handler }

func (w warnings) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && w.Handler.Enabled(ctx, l)
}

func (w warnings) WithAttrs(as []slog.Attr) slog.Handler { return warnings{w.Handler.WithAttrs(as)} }
func (w warnings) WithGroup(name string) slog.Handler    { return warnings{w.Handler.WithGroup(name)} }

// retryAfter retries a River job a fixed wait after it failed.
type retryAfter struct {
	clock Clock
	wait  time.Duration
}

func (p retryAfter) NextRetry(*rivertype.JobRow) time.Time { return p.clock.Now().Add(p.wait) }

// listen holds a connection that LISTENs to the store's channels, and
// dispatches while it holds the dispatcher's lock, until ctx ends. A lost
// connection is opened again; subscribers are told to resync, since
// events may have been missed.
func (r *riverEngine) listen(ctx context.Context) {
	wait := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := r.listenOnce(ctx)
		r.listening() // failed: the class starts all the same, and listen tries again
		if ctx.Err() != nil {
			return
		}
		r.c.cfg.Log.Warn("class: lost the connection that hears other processes; opening it again", "in", wait, "err", err)
		r.c.lostDatabase(r.c.Now())
		r.c.resyncAll()
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 10*time.Second)
	}
}

func (r *riverEngine) listenOnce(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, r.c.st.URL())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	for _, ch := range []string{store.EventsChannel, store.QueueChannel} {
		if _, err := conn.Exec(ctx, "LISTEN "+ch); err != nil {
			return err
		}
	}
	r.listening()
	if r.c.reachedDatabase(r.c.Now()) {
		// The pages read everything again, and the dashboard says the
		// database was away.
		r.c.cfg.Log.Info("class: the database answers again")
		r.c.resyncAll()
	}
	leader := false
	lastPrune, lastLost := time.Time{}, time.Time{}
	for ctx.Err() == nil {
		if !leader {
			if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, int64(dispatchLock)).Scan(&leader); err != nil {
				return err
			}
			if leader {
				r.c.cfg.Log.Info("class: this process dispatches the queue to River")
			}
		}
		if leader {
			// The database failing here is the database away (a restart):
			// back to listen, which connects again after a wait, instead
			// of trying again at once in a loop.
			n, err := r.c.st.ReclaimLapsed(ctx, r.c.Now(), regradingMessage)
			if err != nil {
				return fmt.Errorf("looking for gradings whose worker stopped: %w", err)
			}
			if n > 0 {
				r.c.cfg.Log.Warn("class: gradings whose worker stopped renewing them go to another worker", "jobs", n)
			}
			if err := r.dispatch(ctx); err != nil {
				return fmt.Errorf("dispatching: %w", err)
			}
			if now := time.Now(); now.Sub(lastLost) >= lostEvery {
				lastLost = now
				if err := r.giveUpLost(ctx); err != nil && ctx.Err() == nil {
					r.c.cfg.Log.Warn("class: looking for gradings River no longer runs", "err", err)
				}
			}
			if now := r.c.Now(); now.Sub(lastPrune) > time.Minute {
				lastPrune = now
				if err := r.c.st.PruneEvents(ctx, now.Add(-10*time.Minute)); err != nil && ctx.Err() == nil {
					r.c.cfg.Log.Warn("class: pruning old events", "err", err)
				}
			}
		}
		// A second without news: look again (a job due after a retry's
		// wait, a River job finished without a notification).
		wctx, cancel := context.WithTimeout(ctx, time.Second)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err != nil && ctx.Err() == nil && wctx.Err() != nil:
			continue
		case err != nil:
			return err
		}
		if n.Channel == store.EventsChannel {
			r.received(ctx, n.Payload)
		}
	}
	return ctx.Err()
}

// received delivers the event stored as id to this process's subscribers.
func (r *riverEngine) received(ctx context.Context, id string) {
	body, err := r.c.st.EventBody(ctx, id)
	if err != nil && ctx.Err() == nil {
		r.c.cfg.Log.Warn("class: reading an event", "err", err)
	}
	if err != nil {
		return
	}
	var e Event
	if err := json.Unmarshal(body, &e); err != nil {
		r.c.cfg.Log.Warn("class: an event that does not decode", "err", err)
		return
	}
	r.c.heard(ctx, e)
}

// dispatch moves jobs from the store to River, in fair order, until
// Config.DispatchDepth River jobs wait or no store job is due.
func (r *riverEngine) dispatch(ctx context.Context) error {
	res, err := r.inserter.JobList(ctx, river.NewJobListParams().Queues(riverQueue).
		States(rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable, rivertype.JobStateScheduled).
		First(r.c.cfg.DispatchDepth))
	if err != nil {
		return err
	}
	for room := r.c.cfg.DispatchDepth - len(res.Jobs); room > 0; room-- {
		_, ok, err := r.c.st.DispatchJob(ctx, func(ctx context.Context, tx *sql.Tx, j store.Job) error {
			_, err := r.inserter.InsertTx(ctx, tx, gradeArgs{Job: j.ID, Attempt: j.Attempts}, &river.InsertOpts{Queue: riverQueue, MaxAttempts: riverMaxAttempts})
			return err
		})
		if err != nil || !ok {
			return err
		}
	}
	return nil
}

// giveUpLost gives up, with lostMessage as the server's fault, every store
// job running whose River job is no longer to be run: none waiting,
// scheduled or running (discarded, cancelled, deleted, or completed with
// the store job left running). DispatchJob inserts a River job in the
// transaction that marks its store job running, so a running store job
// always has one until River finishes with it.
func (r *riverEngine) giveUpLost(ctx context.Context) error {
	rows, err := r.c.st.DB().QueryContext(ctx, `
SELECT j.id FROM jobs j WHERE j.state = 'running' AND NOT EXISTS (
	SELECT 1 FROM river_job rj WHERE rj.kind = $1 AND rj.queue = $2
	AND rj.state IN ('available', 'pending', 'retryable', 'scheduled', 'running')
	AND (rj.args->>'job')::bigint = j.id)
ORDER BY j.id`, gradeArgs{}.Kind(), riverQueue)
	if err != nil {
		return err
	}
	var lost []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		lost = append(lost, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range lost {
		job, err := r.c.st.Job(ctx, id)
		if err != nil {
			return err
		}
		sub, err := r.c.st.Submission(ctx, job.SubmissionID)
		if err != nil {
			return err
		}
		o := store.Outcome{ServerFault: true, Error: lostMessage, Seed: r.c.cfg.Seed}
		if err := r.c.st.Finish(ctx, id, o); errors.Is(err, store.ErrNotRunning) {
			continue // finished meanwhile
		} else if err != nil {
			return err
		}
		r.c.cfg.Log.Warn("class: gave up a grading River no longer runs", "job", id, "submission", sub.ID)
		r.c.publish(gradeEvent(sub, id, nil, r.c.cfg.Seed, o.Error))
	}
	return nil
}

// gradeWorker is River's worker of gradeArgs.
type gradeWorker struct {
	river.WorkerDefaults[gradeArgs]
	c *Class
}

// Work grades the store job of a River job, if it is still running (see
// the notes above). It returns an error, for River to try again, when the
// grading was interrupted (this worker stopping).
func (w *gradeWorker) Work(ctx context.Context, rj *river.Job[gradeArgs]) error {
	c := w.c
	job, err := c.st.Job(ctx, rj.Args.Job)
	if errors.Is(err, store.ErrNotFound) {
		return river.JobCancel(fmt.Errorf("no job %d in the store", rj.Args.Job))
	}
	if err != nil {
		return err
	}
	note := ""
	if rj.Attempt > 1 {
		note = regradingMessage // kept on the job: a page opened now says it too
	}
	attempt := rj.Args.Attempt
	if attempt == 0 {
		attempt = job.Attempts
	}
	if running, err := c.st.StartJob(ctx, job.ID, attempt, note, c.Now().Add(c.cfg.Lease)); err != nil {
		return err
	} else if !running {
		return nil // done already (a retry of a finished job), superseded, put back, or handed on again
	}
	if job.Note != "" && note == "" {
		note = job.Note // handed on again after its worker's lease ran out
	}
	// The lease: renewed while this worker grades, so that a worker killed
	// mid-grading loses the job within Config.Lease (ReclaimLapsed).
	renewing, stopRenewing := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRenewing()
	go func() {
		tick := time.NewTicker(c.cfg.Lease / 3)
		defer tick.Stop()
		for {
			select {
			case <-renewing.Done():
				return
			case <-tick.C:
				if _, err := c.st.RenewLease(renewing, job.ID, attempt, c.Now().Add(c.cfg.Lease)); err != nil && renewing.Err() == nil {
					c.cfg.Log.Warn("class: renewing a grading's lease", "job", job.ID, "err", err)
				}
			}
		}
	}()
	if rj.Attempt > maxAttempts {
		sub, err := c.st.Submission(ctx, job.SubmissionID)
		if err != nil {
			return err
		}
		c.finish(ctx, job, sub, store.Outcome{ServerFault: true,
			Error: fmt.Sprintf("not graded: grading it was interrupted %d times (the worker grading it stopped each time)", rj.Attempt-1)})
		return nil
	}
	c.gradeNoted(ctx, job, note)
	if after, err := c.st.Job(context.WithoutCancel(ctx), job.ID); err == nil && after.State == store.Running && ctx.Err() != nil {
		return fmt.Errorf("grading interrupted: %w", ctx.Err())
	}
	return nil
}

// publish sends an event to every process of the class (this one
// included) through the store.
func (r *riverEngine) publish(e Event) {
	c := r.c
	body, err := json.Marshal(e)
	if err == nil {
		err = c.retryStore(context.Background(), func(ctx context.Context) error { return c.st.PublishEvent(ctx, body) })
	}
	if err != nil {
		c.cfg.Log.Error("class: publishing an event", "type", e.Type, "submission", e.Submission, "err", err)
	}
	switch e.Type {
	case event.Queued, event.Grade:
		r.changed(context.Background())
	}
}

// submit publishes the queued event in the submission's transaction.
func (r *riverEngine) submit(ctx context.Context, up store.Upload, learner string) (store.Submission, error) {
	up.QueuedEvent = func(sub store.Submission) ([]byte, error) {
		sub.Learner = learner
		return json.Marshal(queuedEvent(sub))
	}
	r.c.order.RLock()
	sub, err := r.c.st.SubmitUpload(ctx, up)
	r.c.order.RUnlock()
	sub.Learner = learner
	return sub, err
}

// changed wakes the dispatcher, in whichever process holds its lock.
func (r *riverEngine) changed(ctx context.Context) {
	if err := r.c.st.NotifyQueue(ctx); err != nil {
		r.c.cfg.Log.Warn("class: notifying the dispatcher", "err", err)
	}
}

// cell is nil: every process that hears the event records it in its own
// gradebook and words its own cell (heard).
func (r *riverEngine) cell(context.Context, store.Submission, store.JobState) *Cell { return nil }

// booked is nil: every process that hears the done event records it in
// its own gradebook (heard).
func (r *riverEngine) booked(context.Context, store.Submission, int64, *report.Exercise) *Gradebook {
	return nil
}

// heard delivers an event another process (or this one) published: the
// gradebook kept here follows it, and a done event gets this gradebook's
// cell and pitfall counts.
func (c *Class) heard(ctx context.Context, e Event) {
	sub := store.Submission{ID: e.Submission, Learner: e.Learner, Exercise: e.Exercise}
	e.Cell = nil                   // the publisher's gradebook's, if it keeps one: this process words its own
	if e.Kind == store.KindCheck { // in no gradebook
		c.deliver(e)
		return
	}
	switch e.Type {
	case event.Queued:
		e.Cell = c.changed(ctx, sub, store.Queued)
	case event.Running:
		e.Cell = c.changed(ctx, sub, store.Running)
	case event.Grade:
		// Only a process with subscribers (a server with a dashboard open)
		// keeps a gradebook: a worker does not read the whole class.
		if c.watched() && e.Job != 0 {
			if gb, err := c.finished(ctx, sub, e.Job, e.Summary); err == nil {
				e.fromBook(gb)
			}
		}
	}
	c.deliver(e)
}

// resyncAll tells every subscriber to reload: events may have been lost.
func (c *Class) resyncAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.subs.CloseAll(Event{Type: event.Resync})
}
