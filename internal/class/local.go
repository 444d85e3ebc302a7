package class

import (
	"context"
	"errors"
	"sync"
	"time"

	"ratelab/grader/report"
	"ratelab/internal/store"
)

// local is the engine of a class on SQLite: the store's jobs table is the
// queue, this process's workers (Config.Workers) claim its jobs in fair
// order (store.ClaimJob) and grade them, and its events go to this
// process's subscribers alone. A job left running when the server died
// is graded again at the next start.
type local struct {
	c    *Class
	wake chan struct{} // jobs were queued: a worker looks
	wg   sync.WaitGroup
}

func newLocal(c *Class) *local { return &local{c: c, wake: make(chan struct{}, 1)} }

// start puts back in the queue what a previous run left running, and
// starts the workers.
func (l *local) start(ctx context.Context) error {
	c := l.c
	if c.cfg.PagesOnly {
		return errors.New("a class without workers needs a Postgres store, where `labserver worker` processes grade")
	}
	n, err := c.st.RequeueRunning(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		c.cfg.Log.Info("class: grading again the jobs a previous run left unfinished", "jobs", n)
	}
	for range c.cfg.Workers {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			l.work(ctx)
		}()
	}
	return nil
}

func (l *local) wait() { l.wg.Wait() }

// submit publishes the queued event while it holds the class's order, so
// that a worker of this process, claiming the job at once, says it runs
// only after.
func (l *local) submit(ctx context.Context, up store.Upload, learner string) (store.Submission, error) {
	c := l.c
	c.order.RLock()
	defer c.order.RUnlock()
	sub, err := c.st.SubmitUpload(ctx, up)
	if err != nil {
		return store.Submission{}, err
	}
	sub.Learner = learner
	ev := queuedEvent(sub)
	ev.Cell = l.cell(ctx, sub, store.Queued)
	c.publish(ev)
	return sub, nil
}

// changed wakes a worker; each worker that claims a job wakes another, so
// one wake-up reaches as many workers as there are jobs.
func (l *local) changed(context.Context) {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *local) publish(e Event) { l.c.deliver(e) }

// cell is nil for a check, which is in no gradebook.
func (l *local) cell(ctx context.Context, sub store.Submission, state store.JobState) *Cell {
	if sub.Kind == store.KindCheck {
		return nil
	}
	return l.c.changed(ctx, sub, state)
}

// booked is nil for a check, which is in no gradebook.
func (l *local) booked(ctx context.Context, sub store.Submission, job int64, ex *report.Exercise) *Gradebook {
	if sub.Kind == store.KindCheck {
		return nil
	}
	gb, err := l.c.finished(ctx, sub, job, ex)
	if err != nil {
		return nil
	}
	return gb
}

// work claims and grades jobs until ctx ends.
func (l *local) work(ctx context.Context) {
	c := l.c
	idle := time.NewTicker(time.Second) // another process (or a lost wake-up) may have queued
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
			case <-l.wake:
			case <-idle.C:
			}
			continue
		}
		// More may be waiting: let another worker look.
		l.changed(ctx)
		c.grade(ctx, job)
	}
}
