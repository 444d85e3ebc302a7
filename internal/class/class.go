package class

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/store"
)

// Clock is the class's time: the command passes the wall clock, tests a
// fixed or stepped one.
type Clock interface{ Now() time.Time }

// Config is what New needs.
type Config struct {
	Store *store.Store
	Root  string // the ratelab module graded against (holding go.mod)
	Clock Clock
	// Workers grade in parallel; 0 means 1, so one benchmark runs at a time
	// and benchmark figures are comparable.
	Workers int
	// MaxQueue bounds the jobs waiting; Submit refuses beyond it. 0 means 1000.
	MaxQueue int
	// Grading options: Seed (0 means grader.DefaultSeed), NoBench,
	// CheckTimeout and BenchTimeout (0: the grader's defaults).
	Seed                       int64
	NoBench                    bool
	CheckTimeout, BenchTimeout time.Duration
	// JobTimeout bounds one whole grading; 0 means DefaultJobTimeout.
	JobTimeout time.Duration
	// Sandbox confines the grading; nil means a default grader.Sandbox.
	Sandbox *grader.Sandbox
	// SubmitBurst and SubmitEvery set each learner's throttle: that many
	// submissions at once, then one every SubmitEvery. 0 means 5 and 30s.
	SubmitBurst uint64
	SubmitEvery time.Duration
	Limits      Limits
	Log         *slog.Logger
}

// DefaultJobTimeout is Config.JobTimeout's default, and the serve
// command's --job-timeout.
const DefaultJobTimeout = 5 * time.Minute

// maxAttempts is how many times a job is claimed before it is given up:
// a job that keeps killing the server is not retried for ever.
const maxAttempts = 3

// ErrQueueFull is returned by Submit when MaxQueue jobs are waiting.
var ErrQueueFull = errors.New("the grading queue is full")

// Class is a running class. Its methods are safe for concurrent use.
type Class struct {
	cfg      Config
	st       *store.Store
	Throttle *Throttle
	wake     chan struct{}
	wg       sync.WaitGroup

	mu       sync.Mutex
	subs     map[*Subscription]struct{}
	progress map[int64][]Event // per running submission: its events so far
}

// New returns a class; call Start to grade.
func New(cfg Config) *Class {
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.MaxQueue <= 0 {
		cfg.MaxQueue = 1000
	}
	if cfg.Seed == 0 {
		cfg.Seed = grader.DefaultSeed
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = DefaultJobTimeout
	}
	if cfg.SubmitBurst == 0 {
		cfg.SubmitBurst = 5
	}
	if cfg.SubmitEvery <= 0 {
		cfg.SubmitEvery = 30 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Sandbox == nil {
		log := cfg.Log
		cfg.Sandbox = &grader.Sandbox{Log: func(format string, args ...any) { log.Warn(fmt.Sprintf(format, args...)) }}
	}
	return &Class{
		cfg: cfg, st: cfg.Store,
		Throttle: NewThrottle(cfg.SubmitBurst, cfg.SubmitEvery, cfg.Clock.Now()),
		wake:     make(chan struct{}, 1),
		subs:     map[*Subscription]struct{}{},
		progress: map[int64][]Event{},
	}
}

// Limits returns the upload limits in force.
func (c *Class) Limits() Limits { return c.cfg.Limits.withDefaults() }

// Now returns the class's time (Config.Clock): sessions and throttles
// of the class's HTTP views are read on it too.
func (c *Class) Now() time.Time { return c.cfg.Clock.Now() }

// Store returns the class's store.
func (c *Class) Store() *store.Store { return c.st }

// Start puts back in the queue what a previous run left running, and starts
// the workers. They stop when ctx ends; Wait waits for them.
func (c *Class) Start(ctx context.Context) error {
	n, err := c.st.RequeueRunning(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		c.cfg.Log.Info("class: grading again the jobs a previous run left unfinished", "jobs", n)
	}
	for range c.cfg.Workers {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			c.work(ctx)
		}()
	}
	return nil
}

// Wait waits for the workers to stop after Start's context ended.
func (c *Class) Wait() { c.wg.Wait() }

func (c *Class) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Submit stores a validated upload and queues it. The submission is durable
// when Submit returns.
func (c *Class) Submit(ctx context.Context, user store.User, exercise string, files []store.File) (store.Submission, error) {
	n, err := c.st.CountJobs(ctx, store.Queued)
	if err != nil {
		return store.Submission{}, err
	}
	if n >= c.cfg.MaxQueue {
		return store.Submission{}, ErrQueueFull
	}
	sub, err := c.st.Submit(ctx, user.ID, exercise, files)
	if err != nil {
		return store.Submission{}, err
	}
	sub.Learner = user.Name
	c.publish(Event{Type: EventQueued, Submission: sub.ID, Job: sub.Job.ID, Learner: user.Name, Exercise: exercise})
	c.poke()
	return sub, nil
}

// Regrade queues every learner's latest submission of every exercise again
// and returns how many jobs it queued.
func (c *Class) Regrade(ctx context.Context) (int, error) {
	jobs, err := c.st.RegradeLatest(ctx)
	if err != nil {
		return 0, err
	}
	for range jobs {
		c.poke()
	}
	return len(jobs), nil
}

// work claims and grades jobs until ctx ends.
func (c *Class) work(ctx context.Context) {
	idle := time.NewTicker(time.Second) // another process (or a lost poke) may have queued
	defer idle.Stop()
	for ctx.Err() == nil {
		job, ok, err := c.st.ClaimJob(ctx)
		if err != nil {
			if ctx.Err() == nil {
				c.cfg.Log.Error("class: claiming a job", "err", err)
			}
		}
		if !ok {
			select {
			case <-ctx.Done():
			case <-c.wake:
			case <-idle.C:
			}
			continue
		}
		// More may be waiting: let another worker look.
		c.poke()
		c.grade(ctx, job)
	}
}

// grade grades one claimed job and records its result.
func (c *Class) grade(ctx context.Context, job store.Job) {
	log := c.cfg.Log.With("job", job.ID, "submission", job.SubmissionID)
	sub, err := c.st.Submission(ctx, job.SubmissionID)
	if err != nil {
		log.Error("class: reading a submission", "err", err)
		c.finish(ctx, job, store.Submission{ID: job.SubmissionID}, nil, "the submission could not be read: "+err.Error())
		return
	}
	if job.Attempts > maxAttempts {
		c.finish(ctx, job, sub, nil, fmt.Sprintf("not graded: grading it was interrupted %d times (the server stopped each time)", job.Attempts-1))
		return
	}
	base := Event{Submission: sub.ID, Job: job.ID, Learner: sub.Learner, Exercise: sub.Exercise}
	c.mu.Lock()
	c.progress[sub.ID] = nil
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.progress, sub.ID)
		c.mu.Unlock()
	}()
	ev := base
	ev.Type = EventRunning
	c.publish(ev)

	dir, err := os.MkdirTemp("", "ratelab-submission-")
	if err != nil {
		c.finish(ctx, job, sub, nil, "no temporary space to grade in: "+err.Error())
		return
	}
	defer os.RemoveAll(dir)
	for _, f := range sub.Files {
		// Names were validated on upload; Base is a second fence.
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f.Name)), f.Content, 0o644); err != nil {
			c.finish(ctx, job, sub, nil, "could not write the files to grade: "+err.Error())
			return
		}
	}
	gctx, cancel := context.WithTimeout(ctx, c.cfg.JobTimeout)
	defer cancel()
	start := c.Now()
	r, err := grader.Grade(gctx, grader.Options{
		Root:         c.cfg.Root,
		Exercises:    []string{sub.Exercise},
		Replace:      map[string]string{sub.Exercise: dir},
		Seed:         c.cfg.Seed,
		NoBench:      c.cfg.NoBench,
		CheckTimeout: c.cfg.CheckTimeout,
		BenchTimeout: c.cfg.BenchTimeout,
		Sandbox:      c.cfg.Sandbox,
		Progress: func(e grader.Event) {
			ev := base
			ev.Type, ev.Check, ev.Result = EventType(e.Phase), e.Check, e.Result
			switch ev.Type {
			case EventBuild, EventStart, EventResult:
				c.publish(ev)
			}
			// Not the exercise's summary: EventDone carries it, once stored.
		},
	})
	switch {
	case err != nil && ctx.Err() != nil:
		// The server is stopping: the job stays running in the store and
		// is graded again at the next start.
		log.Info("class: grading interrupted by shutdown; it is graded again at the next start")
		return
	case err != nil && gctx.Err() != nil:
		c.finish(ctx, job, sub, nil, fmt.Sprintf("grading took longer than %s and was stopped", c.cfg.JobTimeout))
		return
	case err != nil:
		c.finish(ctx, job, sub, nil, "could not grade: "+err.Error())
		return
	}
	ex := r.Find(sub.Exercise)
	if ex == nil {
		c.finish(ctx, job, sub, nil, "the grader returned no result for "+sub.Exercise)
		return
	}
	log.Info("class: graded", "learner", sub.Learner, "exercise", sub.Exercise, "status", ex.Status,
		"score", ex.Score, "max", ex.MaxScore, "took", c.Now().Sub(start).Round(time.Millisecond))
	c.finish(ctx, job, sub, ex, "")
}

// finish records a job's outcome and tells the subscribers.
func (c *Class) finish(ctx context.Context, job store.Job, sub store.Submission, ex *report.Exercise, errMsg string) {
	if err := c.st.FinishJob(context.WithoutCancel(ctx), job.ID, ex, c.cfg.Seed, errMsg); err != nil {
		c.cfg.Log.Error("class: recording a result", "job", job.ID, "err", err)
		return
	}
	ev := doneEvent(sub, job.ID, ex, c.cfg.Seed, errMsg)
	if gb, err := c.Gradebook(context.WithoutCancel(ctx)); err == nil {
		cell := gb.Cell(sub.Learner, sub.Exercise)
		ev.Cell = &cell
		ev.Pitfalls, ev.Graded = gb.Pitfalls[sub.Exercise], gb.Graded[sub.Exercise]
		if ev.Pitfalls == nil {
			ev.Pitfalls = []PitfallCount{}
		}
	}
	c.publish(ev)
}

// DoneEvent is the EventDone of a submission whose latest job is done,
// read back from the store: what finish published, without the
// dashboard's cell and pitfall counts.
func DoneEvent(sub store.Submission) Event {
	return doneEvent(sub, sub.Job.ID, sub.Job.Result, sub.Job.Seed, sub.Job.Error)
}

// doneEvent is the EventDone of job: its result ex, or (ex nil) errMsg.
func doneEvent(sub store.Submission, job int64, ex *report.Exercise, seed int64, errMsg string) Event {
	ev := Event{Type: EventDone, Submission: sub.ID, Job: job, Learner: sub.Learner, Exercise: sub.Exercise,
		Summary: ex, Seed: seed, Message: errMsg, Status: report.Error}
	if ex != nil {
		ev.Status, ev.Score, ev.MaxScore = ex.Status, ex.Score, ex.MaxScore
	}
	return ev
}
