package class_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// startOn starts a class process on the Postgres database db: a server
// (pagesOnly) or a worker grading with grade. It stops when the returned
// stop is called (or the test ends).
func startOn(t *testing.T, db string, pagesOnly bool, grade func(context.Context, grader.Options) (*report.Report, error)) (*class.Class, *store.Store, func()) {
	t.Helper()
	return startWith(t, db, class.Config{PagesOnly: pagesOnly}, grade)
}

// startWith is startOn with a configuration.
func startWith(t *testing.T, db string, cfg class.Config, grade func(context.Context, grader.Options) (*report.Report, error)) (*class.Class, *store.Store, func()) {
	t.Helper()
	st, err := store.Open(t.Context(), db, wall{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store, cfg.Clock, cfg.Root, cfg.TempDir = st, wall{}, "../..", t.TempDir()
	c := class.New(cfg)
	if grade != nil {
		class.SetGradeForTest(c, grade)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			c.Wait()
			st.Close()
		}
	}
	t.Cleanup(stop)
	return c, st, stop
}

// A worker that stops mid-grading: River gives its job to another worker,
// whose grading the learner's page announces as a regrade after a worker
// stopped; the result is written once, by the second worker, and the
// server (which grades nothing) hears every step.
func TestWorkerStoppedJobRegradedElsewhere(t *testing.T) {
	db := storetest.PostgresURL(t)
	server, st, _ := startOn(t, db, true, nil)
	ada, err := st.AddLearner(t.Context(), "ada", []byte("ada"))
	if err != nil {
		t.Fatal(err)
	}
	events := server.Subscribe(0)
	defer events.Close()

	started := make(chan struct{})
	var firstCalls, secondCalls atomic.Int32
	_, _, stopFirst := startOn(t, db, false, func(ctx context.Context, _ grader.Options) (*report.Report, error) {
		firstCalls.Add(1)
		close(started)
		<-ctx.Done() // grades until its worker stops
		return nil, ctx.Err()
	})
	sub, err := server.Submit(t.Context(), ada, "tokenbucket", []store.File{{Name: "tokenbucket.go", Content: []byte(okSource)}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(20 * time.Second):
		t.Fatal("no worker took the job")
	}
	stopFirst()
	startOn(t, db, false, func(context.Context, grader.Options) (*report.Report, error) {
		secondCalls.Add(1)
		return result(report.Failed, ""), nil
	})

	var regrading bool
	deadline := time.After(30 * time.Second)
	for done := false; !done; {
		select {
		case e, ok := <-events.C:
			if !ok {
				t.Fatal("the server's subscription was dropped")
			}
			if e.Submission != sub.ID {
				continue
			}
			if e.Type == event.Running && e.Message == "regrading after a worker stopped" {
				regrading = true
			}
			if e.Type == event.Grade {
				done = true
				if e.Summary == nil || e.Status != report.Failed {
					t.Errorf("done event = %+v; want the second worker's result", e)
				}
			}
		case <-deadline:
			t.Fatal("the server heard no done event")
		}
	}
	if !regrading {
		t.Error(`the server heard no running event saying "regrading after a worker stopped"`)
	}
	if firstCalls.Load() != 1 || secondCalls.Load() != 1 {
		t.Errorf("gradings: first worker %d, second %d; want one each", firstCalls.Load(), secondCalls.Load())
	}
	got, err := st.Submission(t.Context(), sub.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Job.State != store.Done || got.Job.Result == nil || got.Job.Result.Status != report.Failed {
		t.Errorf("stored job = %+v; want done with the second worker's result", got.Job)
	}
	// Kept on the job, so that a page opened during the regrade says it.
	if got.Job.Note != "regrading after a worker stopped" {
		t.Errorf("stored job's note %q; want %q", got.Job.Note, "regrading after a worker stopped")
	}
	// River records the completion in batches, shortly after Work returned.
	var riverJobs, completed, attempt int
	for end := time.Now().Add(10 * time.Second); ; {
		if err := st.DB().QueryRow(`SELECT COUNT(*), COUNT(*) FILTER (WHERE state = 'completed'), MAX(attempt) FROM river_job WHERE (args->>'job')::bigint = $1`,
			got.Job.ID).Scan(&riverJobs, &completed, &attempt); err != nil {
			t.Fatal(err)
		}
		if completed > 0 || time.Now().After(end) {
			break
		}
		time.Sleep(20 * time.Millisecond) // polling River's table, with a deadline
	}
	if riverJobs != 1 || completed != 1 || attempt != 2 {
		t.Errorf("River jobs of the job: %d, %d completed, attempt %d; want one, completed on its second attempt", riverJobs, completed, attempt)
	}
}

// River's queue is fed in learner turns: with one River job waiting at a
// time, a learner who queued three submissions does not make the next
// wait behind all of them, and a regrade waits behind new submissions.
func TestDispatchInLearnerTurns(t *testing.T) {
	db := storetest.PostgresURL(t)
	const depth = 1
	server, st, _ := startWith(t, db, class.Config{PagesOnly: true, DispatchDepth: depth}, nil)
	events := server.Subscribe(0)
	defer events.Close()
	users := map[string]store.User{}
	for _, n := range []string{"ada", "bob"} {
		u, err := st.AddLearner(t.Context(), n, []byte(n))
		if err != nil {
			t.Fatal(err)
		}
		users[n] = u
	}
	names := map[int64]string{}
	submit := func(learner, exercise string) {
		t.Helper()
		sub, err := server.Submit(t.Context(), users[learner], exercise, []store.File{{Name: exercise + ".go", Content: []byte("package " + exercise)}})
		if err != nil {
			t.Fatal(err)
		}
		names[sub.ID] = learner + "/" + exercise
	}
	submit("ada", "tokenbucket")
	submit("ada", "gcra")
	submit("ada", "slidingwindow")
	// Wait for the dispatcher to fill River's queue (no worker runs yet),
	// then bob submits.
	for end := time.Now().Add(20 * time.Second); ; {
		n, err := st.CountJobs(t.Context(), store.Running)
		if err != nil {
			t.Fatal(err)
		}
		if n == min(depth, 3) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("%d jobs dispatched to River within 20s; want %d", n, min(depth, 3))
		}
		time.Sleep(10 * time.Millisecond) // polling the store, with a deadline
	}
	submit("bob", "tokenbucket")

	var order []string
	startWith(t, db, class.Config{Workers: 1}, func(_ context.Context, o grader.Options) (*report.Report, error) {
		return &report.Report{Exercises: []report.Exercise{{ID: o.Exercises[0], Status: report.Passed}}}, nil
	})
	deadline := time.After(30 * time.Second)
	for len(order) < 4 {
		select {
		case e := <-events.C:
			if e.Type == event.Running {
				order = append(order, names[e.Submission])
			}
		case <-deadline:
			t.Fatalf("graded %v within 30s; want four", order)
		}
	}
	// ada's first went to River before bob submitted, the others waited
	// in the store's fair queue: then bob's turn.
	want := "ada/tokenbucket,bob/tokenbucket,ada/gcra,ada/slidingwindow"
	if got := strings.Join(order, ","); got != want {
		t.Errorf("grading order %s; want %s", got, want)
	}
}

// A job whose worker stops every time it grades it is given up after three
// attempts, with a message, and never graded a fourth time.
func TestJobGivenUpAfterThreeStoppedWorkers(t *testing.T) {
	db := storetest.PostgresURL(t)
	server, st, _ := startOn(t, db, true, nil)
	ada, err := st.AddLearner(t.Context(), "ada", []byte("ada"))
	if err != nil {
		t.Fatal(err)
	}
	events := server.Subscribe(0)
	defer events.Close()
	sub, err := server.Submit(t.Context(), ada, "tokenbucket", []store.File{{Name: "tokenbucket.go", Content: []byte(okSource)}})
	if err != nil {
		t.Fatal(err)
	}
	for attempt := 1; attempt <= 3; attempt++ {
		started := make(chan struct{})
		_, _, stop := startOn(t, db, false, func(ctx context.Context, _ grader.Options) (*report.Report, error) {
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		})
		select {
		case <-started:
		case <-time.After(20 * time.Second):
			t.Fatalf("attempt %d: no worker took the job", attempt)
		}
		stop()
	}
	var graded atomic.Bool
	startOn(t, db, false, func(context.Context, grader.Options) (*report.Report, error) {
		graded.Store(true)
		return result(report.Passed, ""), nil
	})
	deadline := time.After(30 * time.Second)
	for {
		select {
		case e := <-events.C:
			if e.Type != event.Grade || e.Submission != sub.ID {
				continue
			}
			if e.Summary != nil || !strings.Contains(e.Message, "interrupted 3 times") {
				t.Errorf("done event = %+v; want no result, saying it was interrupted 3 times", e)
			}
			got, err := st.Submission(t.Context(), sub.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Job.State != store.Done || !got.Job.ServerFault || got.Job.Result != nil {
				t.Errorf("stored job = %+v; want done, the server's fault, no result", got.Job)
			}
			if graded.Load() {
				t.Error("the fourth worker graded the job; want it given up")
			}
			return
		case <-deadline:
			t.Fatal("no done event within 30s of the fourth worker starting")
		}
	}
}

// A store job whose River job River no longer runs (discarded: its worker
// was killed on River's last attempt) is given up with a message, not left
// running forever; a job River still has waiting is left alone. River's
// own limit is above the attempt on which the store gives up.
func TestLostRiverJobGivenUp(t *testing.T) {
	db := storetest.PostgresURL(t)
	server, st, _ := startWith(t, db, class.Config{PagesOnly: true, DispatchDepth: 2}, nil) // no worker: jobs wait in River
	events := server.Subscribe(0)
	defer events.Close()
	var subs []store.Submission
	for _, name := range []string{"ada", "bob"} {
		u, err := st.AddLearner(t.Context(), name, []byte(name))
		if err != nil {
			t.Fatal(err)
		}
		sub, err := server.Submit(t.Context(), u, "tokenbucket", []store.File{{Name: "tokenbucket.go", Content: []byte(okSource)}})
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, sub)
	}
	ada, bob := subs[0], subs[1]
	// Both handed to River (DispatchDepth 2), neither started.
	for end := time.Now().Add(20 * time.Second); ; {
		var n, maxAttempts int
		if err := st.DB().QueryRow(`SELECT COUNT(*), COALESCE(MIN(max_attempts), 0) FROM river_job WHERE kind = 'ratelab_grade'`).Scan(&n, &maxAttempts); err != nil {
			t.Fatal(err)
		}
		if n == 2 {
			if maxAttempts <= 4 {
				t.Errorf("River's max_attempts %d; want above 4, the attempt on which the store gives a job up", maxAttempts)
			}
			break
		}
		if time.Now().After(end) {
			t.Fatalf("%d River jobs after 20s; want 2", n)
		}
		time.Sleep(20 * time.Millisecond) // polling River's table, with a deadline
	}
	// What River's rescuer does to a job whose worker was killed on its
	// last attempt.
	if _, err := st.DB().Exec(`UPDATE river_job SET state = 'discarded', finalized_at = now() WHERE (args->>'job')::bigint = $1`, ada.Job.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(30 * time.Second)
	for done := false; !done; {
		select {
		case e := <-events.C:
			if e.Type != event.Grade {
				continue
			}
			if e.Submission != ada.ID {
				t.Fatalf("done event for submission %d; want only ada's %d given up", e.Submission, ada.ID)
			}
			if e.Summary != nil || !strings.Contains(e.Message, "not graded") {
				t.Errorf("done event = %+v; want no result and why", e)
			}
			done = true
		case <-deadline:
			t.Fatal("ada's job, its River job discarded, was not given up within 30s")
		}
	}
	got, err := st.Submission(t.Context(), ada.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Job.State != store.Done || !got.Job.ServerFault || got.Job.Error == "" {
		t.Errorf("ada's stored job = %+v; want done, the server's fault, with a message", got.Job)
	}
	if got, err := st.Submission(t.Context(), bob.ID); err != nil || got.Job.State != store.Running || !got.Job.Waiting() {
		t.Errorf("bob's job = %+v, %v; want still handed to River, waiting", got.Job, err)
	}
}
