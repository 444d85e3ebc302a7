package class

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"ratelab/grader"
	"ratelab/grader/buildcache"
	"ratelab/grader/report"
	"ratelab/grader/sandbox"
	"ratelab/internal/event"
	"ratelab/internal/fanout"
	"ratelab/internal/fingerprint"
	"ratelab/internal/quota"
	"ratelab/internal/store"
)

// Clock is the class's time: the command passes the wall clock, tests a
// fixed or stepped one.
type Clock interface{ Now() time.Time }

// Config is what New needs. A field left zero takes DefaultConfig's value
// (see there for those that are derived).
type Config struct {
	Store *store.Store
	Root  string // the ratelab module graded against (holding go.mod)
	Clock Clock
	// Workers grade in parallel.
	Workers int
	// MaxQueue bounds the jobs waiting; Submit refuses beyond it.
	MaxQueue int
	// Grading options: Seed, NoBench, CheckTimeout, BenchTimeout and
	// CallCPULimit (0: the grader's defaults).
	Seed                                     int64
	NoBench                                  bool
	CheckTimeout, BenchTimeout, CallCPULimit time.Duration
	// JobTimeout bounds one whole grading.
	JobTimeout time.Duration
	// Sandbox confines the grading; nil means a default sandbox.Sandbox.
	Sandbox *sandbox.Sandbox
	// SubmitBurst and SubmitEvery set each learner's throttle: that many
	// submissions at once, then one every SubmitEvery.
	SubmitBurst uint64
	SubmitEvery time.Duration
	// CheckBurst and CheckEvery set each learner's budget of checks (see
	// Check), apart from their submissions': that many at once, then one
	// every CheckEvery.
	CheckBurst uint64
	CheckEvery time.Duration
	Limits     Limits
	Log        *slog.Logger
	// TempDir is the class's own folder of temporary files: each grading
	// works in a folder of it named "job-<id>-…", removed when the grading
	// ends, and Start removes what a previous run left there (killed
	// mid-grading). "" means "ratelab-class-<hash of the database's
	// path>" in the system's temporary folder (a folder of the process's
	// for an in-memory database). The folders are searchable by anyone
	// (0711, nothing listable), because the sandbox runs the grading
	// child as another user, who must reach its binary and its folder; a
	// folder beside the database may sit in a private one.
	TempDir string
	// Retries is how many times a grading that failed for the server's
	// reasons (no descriptors, a sandbox that could not start, a toolchain
	// that could not run) is retried before it is reported as the
	// server's problem. RetryDelay is the wait before the first retry,
	// doubled each time.
	Retries    int
	RetryDelay time.Duration

	// On a Postgres store (see river.go), the gradings go through River:
	// PagesOnly starts no workers in this process (serve --class
	// --workers 0: `labserver worker` processes grade); Workers is then
	// this process's River workers. RescueAfter is how long a River job
	// may run before River gives it to another worker (its worker was
	// killed); 0 means JobTimeout plus a minute; it must exceed JobTimeout
	// by more than 5s (River's own deadline of the grading). River looks for
	// such jobs every 30 s. DispatchDepth is how many
	// River jobs may wait at once: River serves its jobs in the
	// order they came, so every job waiting there is one a learner who
	// submits next waits behind, and the dispatcher hands the next as soon
	// as a worker starts one (its notification wakes it).
	PagesOnly     bool
	RescueAfter   time.Duration
	DispatchDepth int
	// Lease is how long a River worker of this process holds a job
	// without renewing it (it renews every third of it while it grades):
	// a worker killed mid-grading loses its job that long after, and the
	// dispatcher hands it to another.
	Lease time.Duration
	// BuildCache, if set, keeps the graded programs by content (see
	// grader.Options.BuildCache).
	BuildCache *buildcache.Cache
}

// tempPrefix begins the name of every folder a grading works in, under
// Config.TempDir: Start removes only those.
const tempPrefix = "job-"

// DefaultConfig holds the values New gives a Config's zero fields, and
// the defaults of labserver's flags that set them. Three defaults are
// derived instead: Log is slog.Default(), Sandbox a sandbox.Sandbox that
// logs to Log, and RescueAfter JobTimeout plus a minute.
var DefaultConfig = Config{
	Workers:       1, // one benchmark at a time: its figures are comparable
	MaxQueue:      1000,
	Seed:          grader.DefaultSeed,
	JobTimeout:    5 * time.Minute,
	SubmitBurst:   5,
	SubmitEvery:   30 * time.Second,
	CheckBurst:    10,
	CheckEvery:    10 * time.Second,
	Retries:       3,
	RetryDelay:    30 * time.Second,
	DispatchDepth: 1, // see Config.DispatchDepth: River's queue is kept short
	Lease:         30 * time.Second,
}

// orDefault sets *v to d if it is zero (or negative).
func orDefault[T int | uint64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// maxAttempts is how many times a job is claimed before it is given up:
// a job that keeps killing the server is not retried for ever.
const maxAttempts = 3

// ErrQueueFull is returned by Submit when MaxQueue jobs are waiting.
var ErrQueueFull = errors.New("the grading queue is full")

// Class is a running class. Its methods are safe for concurrent use.
type Class struct {
	cfg      Config
	st       *store.Store
	Throttle *quota.PerUser
	// CheckThrottle is each learner's budget of checks.
	CheckThrottle *quota.PerUser

	// order keeps a submission's events in order in this process: submit
	// holds it (read) from storing a submission until its queued event is
	// published, and a grading takes it (write) before it publishes
	// running, so a job claimed at once still says "queued" first.
	order sync.RWMutex

	mu       sync.Mutex
	subs     *fanout.Hub[Event]
	progress map[int64][]Event // per running submission: its events so far
	away     Away              // the last time the database was away (see DatabaseAway)

	gradeFn    func(context.Context, grader.Options) (*report.Report, error) // grader.Grade; tests swap it
	storeRetry time.Duration                                                 // first wait before writing to a busy store again
	solutions  fingerprint.Solutions
	book       book
	engine     engine // local until Start picks River on Postgres
}

// New returns a class; call Start to grade.
func New(cfg Config) *Class {
	d := DefaultConfig
	orDefault(&cfg.Workers, d.Workers)
	orDefault(&cfg.MaxQueue, d.MaxQueue)
	if cfg.Seed == 0 { // a negative seed is a seed
		cfg.Seed = d.Seed
	}
	orDefault(&cfg.JobTimeout, d.JobTimeout)
	orDefault(&cfg.SubmitBurst, d.SubmitBurst)
	orDefault(&cfg.SubmitEvery, d.SubmitEvery)
	orDefault(&cfg.CheckBurst, d.CheckBurst)
	orDefault(&cfg.CheckEvery, d.CheckEvery)
	orDefault(&cfg.Retries, d.Retries)
	orDefault(&cfg.RetryDelay, d.RetryDelay)
	orDefault(&cfg.RescueAfter, cfg.JobTimeout+time.Minute)
	orDefault(&cfg.DispatchDepth, d.DispatchDepth)
	orDefault(&cfg.Lease, d.Lease)
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Sandbox == nil {
		log := cfg.Log
		cfg.Sandbox = &sandbox.Sandbox{Log: func(format string, args ...any) { log.Warn(fmt.Sprintf(format, args...)) }}
	}
	c := &Class{
		cfg: cfg, st: cfg.Store,
		Throttle:      quota.New(cfg.SubmitBurst, cfg.SubmitEvery, cfg.Clock.Now()),
		CheckThrottle: quota.New(cfg.CheckBurst, cfg.CheckEvery, cfg.Clock.Now()),
		subs:          fanout.New[Event](subscriberBuffer),
		progress:      map[int64][]Event{},
		gradeFn:       grader.Grade, storeRetry: 50 * time.Millisecond,
		solutions: fingerprint.Solutions{Root: cfg.Root},
	}
	c.engine = newLocal(c)
	return c
}

// Limits returns the upload limits in force.
func (c *Class) Limits() Limits { return c.cfg.Limits.withDefaults() }

// JobTimeout returns the bound of one whole grading (Config.JobTimeout).
func (c *Class) JobTimeout() time.Duration { return c.cfg.JobTimeout }

// Now returns the class's time (Config.Clock): sessions and throttles
// of the class's HTTP views are read on it too.
func (c *Class) Now() time.Time { return c.cfg.Clock.Now() }

// Store returns the class's store.
func (c *Class) Store() *store.Store { return c.st }

// Start starts grading, with the engine of the store's backend: on
// SQLite this process's workers (local.go), which first put back in the
// queue what a previous run left running; on Postgres River's client, the
// listener and the dispatcher (river.go), which put nothing back: what
// runs may run on another machine, and River gives a dead worker's jobs
// to another. The class stops when ctx ends; Wait waits for it.
func (c *Class) Start(ctx context.Context) error {
	if err := c.sweep(ctx); err != nil {
		return err
	}
	if c.st.Backend() == store.Postgres {
		return newRiver(c).start(ctx) // the class's engine once it runs
	}
	return c.engine.start(ctx)
}

// Wait waits for the class to stop after Start's context ended.
func (c *Class) Wait() { c.engine.wait() }

// Submit stores a validated upload and queues it. The submission is durable
// when Submit returns.
//
// An upload after its due date, under a policy that refuses it, is not
// stored: Submit returns a *due.LateError.
func (c *Class) Submit(ctx context.Context, user store.User, exercise string, files []store.File) (store.Submission, error) {
	// One instant judges the upload and is stored as its time: the one
	// its on-time mark is read from later.
	now := c.Now()
	if err := c.refuseLate(ctx, user, exercise, now); err != nil {
		return store.Submission{}, err
	}
	return c.queue(ctx, user, exercise, files, store.KindSubmit, now)
}

// Check stores a validated draft as a check (store.KindCheck) and queues
// it: it is graded as a submission is, by the same workers in the same
// sandbox, and counted nowhere a submission is (the gradebook, the
// dashboard's events, the lists, the exports). It supersedes the
// learner's check of the exercise still waiting, never a submission.
// Subscribe to its id for its done event.
func (c *Class) Check(ctx context.Context, user store.User, exercise string, files []store.File) (store.Submission, error) {
	return c.queue(ctx, user, exercise, files, store.KindCheck, c.Now())
}

// queue is Submit and Check.
func (c *Class) queue(ctx context.Context, user store.User, exercise string, files []store.File, kind store.Kind, at time.Time) (store.Submission, error) {
	n, err := c.st.CountJobs(ctx, store.Queued)
	if err != nil {
		return store.Submission{}, err
	}
	if n >= c.cfg.MaxQueue {
		// A submission that replaces the learner's waiting one adds
		// nothing to the queue: it is taken even when the queue is full.
		replaces, err := c.st.Waiting(ctx, user.ID, exercise, kind)
		if err != nil {
			return store.Submission{}, err
		}
		if !replaces {
			return store.Submission{}, ErrQueueFull
		}
	}
	up := store.Upload{UserID: user.ID, Exercise: exercise, Files: files, Kind: kind, At: at}
	if kind == store.KindSubmit { // a check is no work handed in: nothing to flag
		up.Fingerprint = fingerprint.Of(files)
		up.MatchesSolution = up.Fingerprint != "" && up.Fingerprint == c.solutions.Of(exercise)
	}
	sub, err := c.engine.submit(ctx, up, user.Name)
	if err != nil {
		return store.Submission{}, err
	}
	for _, id := range sub.Superseded {
		old := store.Submission{ID: id, Learner: user.Name, Exercise: exercise, Kind: kind}
		ev := gradeEvent(old, 0, nil, 0, store.SupersededMessage(kind, sub.ID))
		ev.Status = ""
		c.publish(ev)
	}
	c.engine.changed(ctx)
	return sub, nil
}

// Regrade queues every learner's latest submission of every exercise again,
// within MaxQueue and never twice for a submission already waiting, and
// returns how many jobs it queued. Regrades wait behind new submissions
// (see store.ClaimJob).
func (c *Class) Regrade(ctx context.Context) (int, error) {
	jobs, _, err := c.st.RegradeLatestWithin(ctx, c.cfg.MaxQueue)
	if err != nil {
		return 0, err
	}
	c.book.invalidate() // many cells change state: read again on the next view
	if len(jobs) > 0 {
		c.engine.changed(ctx)
	}
	return len(jobs), nil
}

// grade grades one claimed job and records its result.
func (c *Class) grade(ctx context.Context, job store.Job) { c.gradeNoted(ctx, job, "") }

// gradeNoted is grade whose running event carries note as its message
// (why it is graded again).
func (c *Class) gradeNoted(ctx context.Context, job store.Job, note string) {
	log := c.cfg.Log.With("job", job.ID, "submission", job.SubmissionID)
	sub, err := c.st.Submission(ctx, job.SubmissionID)
	if err != nil {
		log.Error("class: reading a submission", "err", err)
		c.serverFailed(ctx, job, store.Submission{ID: job.SubmissionID}, "the submission could not be read: "+err.Error())
		return
	}
	if job.Attempts > maxAttempts {
		c.finish(ctx, job, sub, store.Outcome{Error: fmt.Sprintf("not graded: grading it was interrupted %d times (the server stopped each time)", job.Attempts-1), ServerFault: true})
		return
	}
	base := Event{Submission: sub.ID, Job: job.ID, Learner: sub.Learner, Exercise: sub.Exercise, Kind: kindOf(sub)}
	c.mu.Lock()
	c.progress[sub.ID] = nil
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.progress, sub.ID)
		c.mu.Unlock()
	}()
	ev := base
	ev.Type, ev.Message, ev.Cell = event.Running, note, c.engine.cell(ctx, sub, store.Running)
	c.order.Lock() // the submission's queued event is out (see local.submit)
	c.order.Unlock()
	c.publish(ev)

	work, err := c.tempDir(job.ID)
	if err != nil {
		c.serverFailed(ctx, job, sub, "no temporary space to grade in: "+err.Error())
		return
	}
	cleanup := func() {
		if err := os.RemoveAll(work); err != nil {
			log.Warn("class: removing a grading's folder (the next start removes it)", "err", err)
		}
	}
	defer cleanup()
	dir := filepath.Join(work, sub.Exercise)
	if err := os.Mkdir(dir, 0o755); err != nil {
		c.serverFailed(ctx, job, sub, "no temporary space to grade in: "+err.Error())
		return
	}
	for _, f := range sub.Files {
		// Names were validated on upload; Base is a second fence.
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f.Name)), f.Content, 0o644); err != nil {
			c.serverFailed(ctx, job, sub, "could not write the files to grade: "+err.Error())
			return
		}
	}
	gctx, cancel := context.WithTimeout(ctx, c.cfg.JobTimeout)
	defer cancel()
	var spin *spinCut // a check stops at its first timeout (spin.go)
	if sub.Kind == store.KindCheck {
		gctx, spin = newSpinCut(gctx)
	}
	start := c.Now()
	r, err := c.gradeFn(gctx, grader.Options{
		Root:         c.cfg.Root,
		Exercises:    []string{sub.Exercise},
		Replace:      map[string]string{sub.Exercise: dir},
		Seed:         c.cfg.Seed,
		NoBench:      c.cfg.NoBench,
		CheckTimeout: c.cfg.CheckTimeout,
		BenchTimeout: c.cfg.BenchTimeout,
		CallCPULimit: c.cfg.CallCPULimit,
		Sandbox:      c.cfg.Sandbox,
		BuildCache:   c.cfg.BuildCache,
		TempDir:      work, // the grader's own folder too: removed with the job's, swept at start
		Progress: func(e grader.Event) {
			ev := base
			ev.Check, ev.Result = e.Check, e.Result
			if ev.Type = phaseEvents[e.Phase]; ev.Type != "" {
				c.publish(ev)
			}
			if spin != nil {
				spin.progress(e)
			}
			// Not the exercise's summary: event.Grade carries it, once stored.
		},
	})
	cleanup() // before the outcome is told: the folder is gone once it is
	if err != nil && spin != nil && ctx.Err() == nil && spin.cut(gctx) {
		r, err = spin.report(sub.Exercise), nil
	}
	switch {
	case err != nil && ctx.Err() != nil:
		// The server is stopping: the job stays running in the store and
		// is graded again at the next start (on Postgres, River gives it
		// to another worker).
		log.Info("class: grading interrupted by shutdown; it is graded again at the next start or by another worker")
		return
	case err != nil && gctx.Err() != nil:
		c.finish(ctx, job, sub, store.Outcome{Error: fmt.Sprintf("grading took longer than %s and was stopped", c.cfg.JobTimeout), TimedOut: true})
		return
	case err != nil:
		// Grade's error is the grader's own problem, never the learner's.
		c.serverFailed(ctx, job, sub, "the grader could not run: "+err.Error())
		return
	}
	ex := r.Find(sub.Exercise)
	if ex == nil {
		c.serverFailed(ctx, job, sub, "the grader returned no result for "+sub.Exercise)
		return
	}
	learnerPaths(ex, dir)
	if why, ok := serverFault(ex); ok {
		if strings.Contains(why, "no space left on device") {
			c.freeSpace(log)
		}
		c.serverFailed(ctx, job, sub, why)
		return
	}
	log.Info("class: graded", "learner", sub.Learner, "exercise", sub.Exercise, "status", ex.Status,
		"score", ex.Score, "max", ex.MaxScore, "took", c.Now().Sub(start).Round(time.Millisecond))
	c.finish(ctx, job, sub, store.Outcome{Result: ex, TimedOut: store.TimedOut(ex)})
}

// freeSpace empties the caches of built programs (the build cache, the
// sandbox's Go build cache) when a grading found the disk full, so that
// the retry, and the class, go on; the builds are done again.
func (c *Class) freeSpace(log *slog.Logger) {
	var freed int64
	if c.cfg.BuildCache != nil {
		freed += c.cfg.BuildCache.Clear()
	}
	freed += c.cfg.Sandbox.ClearBuildCache()
	log.Warn("class: the disk is full: emptied the build caches to go on", "freed MiB", freed>>20)
}

// serverFailed handles a grading that failed for the server's reasons: the
// job is queued again after a wait (doubling each time), and after
// Config.Retries such failures it is finished as the server's problem.
// Nothing of it is the learner's result.
func (c *Class) serverFailed(ctx context.Context, job store.Job, sub store.Submission, why string) {
	log := c.cfg.Log.With("job", job.ID, "submission", job.SubmissionID)
	if job.Retries >= c.cfg.Retries {
		log.Error("class: the server could not grade a submission; giving up", "retries", job.Retries, "why", why)
		c.finish(ctx, job, sub, store.Outcome{ServerFault: true, Error: "not graded: the server could not grade it (" + why +
			"). This is the server's problem, not your code's: your instructor has been told; it is graded again on the next regrade."})
		return
	}
	wait := c.cfg.RetryDelay << job.Retries
	log.Warn("class: the server could not grade a submission; it is retried", "in", wait, "why", why)
	err := c.retryStore(ctx, func(ctx context.Context) error { return c.st.RetryJob(ctx, job.ID, c.Now().Add(wait)) })
	if err != nil {
		log.Error("class: queuing a grading again", "err", err)
		return
	}
	c.publish(Event{Type: event.Queued, Submission: sub.ID, Job: job.ID, Learner: sub.Learner, Exercise: sub.Exercise,
		Kind: kindOf(sub), Cell: c.engine.cell(ctx, sub, store.Queued)})
}

// retryStore runs a write to the store until it succeeds, waiting longer
// each time (a busy database, one locked past its busy timeout, is retried
// and never loses a result). It gives up on store.ErrNotRunning, and once
// ctx has ended after a last try.
func (c *Class) retryStore(ctx context.Context, write func(context.Context) error) error {
	wctx := context.WithoutCancel(ctx)
	wait := c.storeRetry
	for {
		err := write(wctx)
		if err == nil || errors.Is(err, store.ErrNotRunning) || ctx.Err() != nil {
			return err
		}
		c.cfg.Log.Warn("class: the database refused a write; trying again", "in", wait, "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// finish records a job's outcome and tells the subscribers.
func (c *Class) finish(ctx context.Context, job store.Job, sub store.Submission, o store.Outcome) {
	o.Seed = c.cfg.Seed
	if err := c.retryStore(ctx, func(ctx context.Context) error { return c.st.Finish(ctx, job.ID, o) }); err != nil {
		// Still running in the store: graded again at the next start.
		c.cfg.Log.Error("class: recording a result", "job", job.ID, "err", err)
		return
	}
	ev := gradeEvent(sub, job.ID, o.Result, c.cfg.Seed, o.Error)
	if gb := c.engine.booked(ctx, sub, job.ID, o.Result); gb != nil {
		ev.fromBook(gb)
	}
	c.publish(ev)
}

// fromBook fills a done event with what the dashboard shows of it, from
// gb, the gradebook with its result: the learner's cell, worded, and the
// exercise's graded learners and pitfall counts.
func (e *Event) fromBook(gb *Gradebook) {
	e.Cell = worded(gb.Cell(e.Learner, e.Exercise))
	e.Pitfalls, e.Graded = gb.Pitfalls[e.Exercise], gb.Graded[e.Exercise]
	if e.Pitfalls == nil {
		e.Pitfalls = []PitfallCount{}
	}
}

// kindOf is sub's kind as an event carries it: "check" for a check, ""
// (left out of the JSON) for a submission, as events said before checks.
func kindOf(sub store.Submission) store.Kind {
	if sub.Kind == store.KindCheck {
		return store.KindCheck
	}
	return ""
}

// GradeEvent is the event.Grade of a submission whose latest job is done,
// read back from the store: what finish published, without the
// dashboard's cell and pitfall counts.
func GradeEvent(sub store.Submission) Event {
	return gradeEvent(sub, sub.Job.ID, sub.Job.Result, sub.Job.Seed, sub.Job.Error)
}

// gradeEvent is the event.Grade of job: its result ex, or (ex nil) errMsg.
func gradeEvent(sub store.Submission, job int64, ex *report.Exercise, seed int64, errMsg string) Event {
	ev := Event{Type: event.Grade, Submission: sub.ID, Job: job, Learner: sub.Learner, Exercise: sub.Exercise,
		Kind: kindOf(sub), Summary: ex, Seed: seed, Message: errMsg, Status: report.Error}
	if ex != nil {
		ev.Status, ev.Score, ev.MaxScore = ex.Status, ex.Score, ex.MaxScore
	}
	return ev
}

// phaseEvents are the events that pass on the grader's progress phases as
// they come; the exercise's result is not one: event.Grade carries it,
// once stored.
var phaseEvents = map[grader.Phase]event.Type{
	grader.PhaseBuild:  event.Build,
	grader.PhaseStart:  event.Start,
	grader.PhaseResult: event.Check,
}

// Phase returns the grader's progress phase an event passes on (Build,
// Start, Check), for a client that shows a grading as the grader's own
// progress does; ok is false for any other event.
func Phase(t event.Type) (p grader.Phase, ok bool) {
	for p, e := range phaseEvents {
		if e == t {
			return p, true
		}
	}
	return "", false
}
