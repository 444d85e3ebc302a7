package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ratelab/grader/report"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

func learners(t *testing.T, s *store.Store, names ...string) map[string]store.User {
	t.Helper()
	out := map[string]store.User{}
	for _, n := range names {
		u, err := s.AddLearner(t.Context(), n, []byte("hash-"+n))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = u
	}
	return out
}

func submit(t *testing.T, s *store.Store, u store.User, exercise string) store.Submission {
	t.Helper()
	sub, err := s.Submit(t.Context(), u.ID, exercise, []store.File{{Name: "a.go", Content: []byte("package " + exercise)}})
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// claimAll claims and finishes every job due, and returns whose each was.
func claimAll(t *testing.T, s *store.Store, finish func(store.Job) store.Outcome) []string {
	t.Helper()
	var order []string
	for range 100 {
		job, ok, err := s.ClaimJob(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return order
		}
		sub, err := s.Submission(t.Context(), job.SubmissionID)
		if err != nil {
			t.Fatal(err)
		}
		order = append(order, sub.Learner+"/"+sub.Exercise+"/"+job.Reason)
		if err := s.Finish(t.Context(), job.ID, finish(job)); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the queue never emptied")
	return nil
}

func passed(store.Job) store.Outcome {
	return store.Outcome{Result: &report.Exercise{ID: "x", Status: report.Passed}}
}

// One learner who queued four submissions does not make the next learner
// wait behind all of them: learners are served in turn.
func TestClaimJobRoundRobin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		u := learners(t, s, "hog", "ada", "bob")
		for _, ex := range []string{"tokenbucket", "gcra", "slidingwindow", "governor"} {
			submit(t, s, u["hog"], ex)
		}
		submit(t, s, u["ada"], "tokenbucket")
		submit(t, s, u["bob"], "tokenbucket")
		submit(t, s, u["ada"], "gcra")
		got := claimAll(t, s, passed)
		want := []string{
			"hog/tokenbucket/submit", "ada/tokenbucket/submit", "bob/tokenbucket/submit",
			"hog/gcra/submit", "ada/gcra/submit", "hog/slidingwindow/submit", "hog/governor/submit",
		}
		if !slices.Equal(got, want) {
			t.Errorf("claim order = %q;\nwant %q", got, want)
		}
	})
}

// A learner whose last grading timed out waits behind the others; regrades
// wait behind every new submission.
func TestClaimJobTimeoutsAndRegradesWait(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		u := learners(t, s, "hog", "ada")
		submit(t, s, u["hog"], "tokenbucket")
		spin := func(store.Job) store.Outcome {
			return store.Outcome{Result: &report.Exercise{ID: "tokenbucket", Status: report.Failed,
				Checks: []report.Check{{ID: "c", Status: report.Timeout}}}, TimedOut: true}
		}
		if got := claimAll(t, s, spin); len(got) != 1 {
			t.Fatalf("claimed %q", got)
		}
		// hog submits first, ada after: hog timed out last, so ada goes first.
		submit(t, s, u["hog"], "gcra")
		submit(t, s, u["ada"], "tokenbucket")
		submit(t, s, u["ada"], "gcra")
		if _, _, err := s.RegradeLatestWithin(t.Context(), 1000); err != nil {
			t.Fatal(err)
		}
		submit(t, s, u["ada"], "governor") // after the regrade, still before it
		got := claimAll(t, s, passed)
		// The regrade queued a job only for the one submission not already
		// waiting (hog's tokenbucket), and it goes last.
		want := []string{"ada/tokenbucket/submit", "ada/gcra/submit", "ada/governor/submit", "hog/gcra/submit", "hog/tokenbucket/regrade"}
		if !slices.Equal(got, want) {
			t.Fatalf("claim order = %q;\nwant %q", got, want)
		}
	})
}

// A new submission of an exercise supersedes the learner's older one still
// waiting; the others' and other exercises' are untouched.
func TestSubmitSupersedesQueued(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		u := learners(t, s, "ada", "bob")
		old := submit(t, s, u["ada"], "tokenbucket")
		other := submit(t, s, u["ada"], "gcra")
		bobs := submit(t, s, u["bob"], "tokenbucket")
		newer := submit(t, s, u["ada"], "tokenbucket")
		if !slices.Equal(newer.Superseded, []int64{old.ID}) {
			t.Errorf("Submit: Superseded = %v; want [%d]", newer.Superseded, old.ID)
		}
		got, err := s.Submission(ctx, old.ID)
		if err != nil || got.Job.State != store.Superseded || !strings.Contains(got.Job.Error, fmt.Sprint(newer.ID)) {
			t.Errorf("old submission: state %q, error %q, %v; want superseded by %d", got.Job.State, got.Job.Error, err, newer.ID)
		}
		for _, id := range []int64{other.ID, bobs.ID, newer.ID} {
			if got, _ := s.Submission(ctx, id); got.Job.State != store.Queued {
				t.Errorf("submission %d: state %q; want queued", id, got.Job.State)
			}
		}
		if n, _ := s.CountJobs(ctx, store.Queued); n != 3 {
			t.Errorf("CountJobs(queued) = %d; want 3", n)
		}
		// A running job is not superseded: it is being graded.
		job, _, _ := s.ClaimJob(ctx)
		running, _ := s.Submission(ctx, job.SubmissionID)
		again := submit(t, s, store.User{ID: running.UserID}, running.Exercise)
		if got, _ := s.Submission(ctx, running.ID); got.Job.State != store.Running || len(again.Superseded) != 0 {
			t.Errorf("a running job: state %q, superseded %v; want running, none", got.Job.State, again.Superseded)
		}
	})
}

// A grading that failed for the server's reasons goes back in the queue,
// waits, and does not count as an interrupted attempt.
func TestRetryJob(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		clk := &stepClock{t: t0}
		s, err := store.Open(t.Context(), target, clk)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := t.Context()
		u := learners(t, s, "ada")
		submit(t, s, u["ada"], "tokenbucket")
		job, _, _ := s.ClaimJob(ctx)
		if err := s.RetryJob(ctx, job.ID, clk.t.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := s.ClaimJob(ctx); ok {
			t.Error("ClaimJob claimed a retried job before its time")
		}
		clk.t = clk.t.Add(2 * time.Hour)
		again, ok, err := s.ClaimJob(ctx)
		if !ok || err != nil || again.ID != job.ID || again.Attempts != 1 || again.Retries != 1 {
			t.Errorf("ClaimJob after the wait = %+v, %v, %v; want job %d, attempt 1, retry 1", again, ok, err, job.ID)
		}
		if err := s.Finish(ctx, job.ID, store.Outcome{Error: "the server could not grade it", ServerFault: true}); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Job(ctx, job.ID); !got.ServerFault || got.State != store.Done {
			t.Errorf("Job = %+v; want done, the server's fault", got)
		}
		if err := s.RetryJob(ctx, job.ID, clk.t); !errors.Is(err, store.ErrNotRunning) {
			t.Errorf("RetryJob of a job done: err = %v; want ErrNotRunning", err)
		}
	})
}

// A result is stored bounded, whatever the grader handed over.
func TestFinishBoundsTheResult(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		u := learners(t, s, "ada")
		sub := submit(t, s, u["ada"], "tokenbucket")
		huge := strings.Repeat("panic: é", 2<<20) // 18 MiB, multi-byte characters
		ce := &report.Counterexample{Setup: huge}
		for range 10000 {
			ce.Steps = append(ce.Steps, report.Step{Call: huge[:5000], Got: huge[:5000], Want: "1"})
		}
		res := &report.Exercise{ID: "tokenbucket", Status: report.Failed, Message: huge, Checks: []report.Check{
			{ID: "c1", Status: report.Error, Message: huge, Hint: huge, Counterexample: ce},
			{ID: "c2", Status: report.Passed, Message: "fine"},
		}}
		job, _, _ := s.ClaimJob(ctx)
		if err := s.Finish(ctx, job.ID, store.Outcome{Result: res, Error: huge}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Submission(ctx, sub.ID)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(got.Job)
		if len(b) > 200<<10 {
			t.Errorf("stored job is %d bytes; want at most 200 KiB", len(b))
		}
		r := got.Job.Result
		note := fmt.Sprintf("… cut: %d bytes in all", len(huge))
		for what, s := range map[string]string{"message": r.Message, "check message": r.Checks[0].Message,
			"hint": r.Checks[0].Hint, "setup": r.Checks[0].Counterexample.Setup, "error": got.Job.Error} {
			if !strings.HasSuffix(s, note) || len(s) > store.MaxText+len(note)+1 {
				t.Errorf("%s: %d bytes ending %q; want at most %d and the note %q", what, len(s), s[max(0, len(s)-40):], store.MaxText, note)
			}
		}
		steps := r.Checks[0].Counterexample.Steps
		if len(steps) != store.MaxSteps || !strings.Contains(steps[len(steps)-1].Call, "10000 steps in all") {
			t.Errorf("counterexample: %d steps, last %+v; want %d, the last saying 10000 in all", len(steps), steps[len(steps)-1], store.MaxSteps)
		}
		if r.Checks[1].Message != "fine" || len(res.Message) != len(huge) {
			t.Error("Bound changed a short text, or the caller's result")
		}
	})
}

// Submissions with the same fingerprint by other learners name each other.
func TestSubmissionSameAs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		u := learners(t, s, "ada", "bob", "cy")
		up := func(who, ex, fp string, sol bool) store.Submission {
			sub, err := s.SubmitUpload(ctx, store.Upload{UserID: u[who].ID, Exercise: ex, Fingerprint: fp, MatchesSolution: sol,
				Files: []store.File{{Name: "a.go", Content: []byte("package x")}}})
			if err != nil {
				t.Fatal(err)
			}
			return sub
		}
		a := up("ada", "tokenbucket", "f1", false)
		up("ada", "tokenbucket", "f1", false) // her own resubmission is no copy
		up("bob", "tokenbucket", "f1", false)
		up("cy", "gcra", "f1", false) // another exercise
		c := up("cy", "tokenbucket", "f2", true)
		tests := []struct {
			id   int64
			same []string
			sol  bool
		}{{a.ID, []string{"bob"}, false}, {c.ID, nil, true}}
		for _, tt := range tests {
			got, err := s.Submission(ctx, tt.id)
			if err != nil || !slices.Equal(got.SameAs, tt.same) || got.MatchesSolution != tt.sol {
				t.Errorf("Submission(%d): SameAs %q, MatchesSolution %v, %v; want %q, %v", tt.id, got.SameAs, got.MatchesSolution, err, tt.same, tt.sol)
			}
		}
		list, _ := s.Submissions(ctx, 0, 10)
		for _, sub := range list {
			if sub.Learner == "bob" && !slices.Equal(sub.SameAs, []string{"ada"}) {
				t.Errorf("Submissions: bob's SameAs = %q; want [ada]", sub.SameAs)
			}
		}
	})
}

// Workers claiming at once (on Postgres, from many connections) never get
// the same job, and every job is claimed.
func TestClaimJobConcurrently(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		// A fixed clock: the stepping one is not for many goroutines.
		s, err := store.Open(t.Context(), target, fixedClock(t0))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		us := learners(t, s, "ada", "bob", "cy", "dee")
		const perLearner = 10
		want := 0
		for _, n := range []string{"ada", "bob", "cy", "dee"} {
			for i := range perLearner {
				submit(t, s, us[n], fmt.Sprintf("ex%d", i))
				want++
			}
		}
		var (
			mu      sync.Mutex
			claimed = map[int64]int{}
			wg      sync.WaitGroup
		)
		for range 4 {
			wg.Go(func() {
				for {
					job, ok, err := s.ClaimJob(t.Context())
					if err != nil {
						t.Error(err)
						return
					}
					if !ok {
						return
					}
					mu.Lock()
					claimed[job.ID]++
					mu.Unlock()
					if err := s.Finish(t.Context(), job.ID, passed(job)); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if len(claimed) != want {
			t.Errorf("%d jobs claimed; want %d", len(claimed), want)
		}
		for id, n := range claimed {
			if n != 1 {
				t.Errorf("job %d claimed %d times; want once", id, n)
			}
		}
	})
}

// A job handed on by DispatchJob and not started by a worker waits: the
// gradebook's Gradings read it as queued, until StartJob, which keeps the
// job's note for the pages opened during the grading.
func TestDispatchedJobWaitsUntilStarted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		u := learners(t, s, "ada")
		sub := submit(t, s, u["ada"], "tokenbucket")
		handed := 0
		job, ok, err := s.DispatchJob(ctx, func(context.Context, *sql.Tx, store.Job) error { handed++; return nil })
		if err != nil || !ok || handed != 1 || !job.Waiting() {
			t.Fatalf("DispatchJob = %+v, %v, %v, handed %d; want a job handed once, not started", job, ok, err, handed)
		}
		state := func() store.JobState {
			t.Helper()
			gs, err := s.Gradings(ctx)
			if err != nil || len(gs) != 1 {
				t.Fatalf("Gradings = %v, %v; want one", gs, err)
			}
			return gs[0].State
		}
		got, err := s.Submission(ctx, sub.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st := state(); st != store.Queued || !got.Job.Waiting() {
			t.Errorf("handed on, not started: Gradings state %q, Waiting %v; want queued, true", st, got.Job.Waiting())
		}
		// The dashboard's queued count and the queue's limit count it, and
		// a new submission of the exercise would replace it.
		if n, err := s.CountJobs(ctx, store.Queued); err != nil || n != 1 {
			t.Errorf("CountJobs(Queued) with a job handed on = %d, %v; want 1", n, err)
		}
		if w, err := s.Waiting(ctx, u["ada"].ID, "tokenbucket", store.KindSubmit); err != nil || !w {
			t.Errorf("Waiting(ada, tokenbucket) with her job handed on = %v, %v; want true", w, err)
		}
		const note = "regrading after a worker stopped"
		if running, err := s.StartJob(ctx, job.ID, job.Attempts, note, time.Time{}); err != nil || !running {
			t.Fatalf("StartJob = %v, %v; want running", running, err)
		}
		got, err = s.Submission(ctx, sub.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st := state(); st != store.Running || got.Job.Waiting() || got.Job.Note != note {
			t.Errorf("started: Gradings state %q, Waiting %v, Note %q; want running, false, %q", st, got.Job.Waiting(), got.Job.Note, note)
		}
		if n, err := s.CountJobs(ctx, store.Queued); err != nil || n != 0 {
			t.Errorf("CountJobs(Queued) once the job started = %d, %v; want 0", n, err)
		}
		// A job claimed on this machine (SQLite's queue) runs at once.
		submit(t, s, u["ada"], "gcra")
		claimed, ok, err := s.ClaimJob(ctx)
		if err != nil || !ok || claimed.Waiting() || claimed.Note != "" {
			t.Errorf("ClaimJob = %+v, %v, %v; want a running job, no note", claimed, ok, err)
		}
	})
}

// startedWithLease submits one of ada's, hands its job on and starts it,
// with a lease that runs out 30 s after now.
func startedWithLease(t *testing.T, s *store.Store) (sub store.Submission, job store.Job, now time.Time) {
	t.Helper()
	ctx := t.Context()
	u := learners(t, s, "ada")
	sub = submit(t, s, u["ada"], "tokenbucket")
	job, ok, err := s.DispatchJob(ctx, func(context.Context, *sql.Tx, store.Job) error { return nil })
	if err != nil || !ok {
		t.Fatalf("DispatchJob = %v, %v", ok, err)
	}
	now = time.Now()
	if running, err := s.StartJob(ctx, job.ID, job.Attempts, "", now.Add(30*time.Second)); err != nil || !running {
		t.Fatalf("StartJob = %v, %v; want running", running, err)
	}
	return sub, job, now
}

// A job the server put back in the queue (RetryJob: the database away as
// its worker read the submission) and handed on again has no lease until
// a worker starts it: the lease its first worker took, long run out by
// then, is not read as that worker's death, and the job is not taken from
// the River job it was just handed to (a second hand-on, and the learner
// told "regrading after a worker stopped" when none stopped).
func TestRetriedJobHandedOnHasNoOldLease(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		_, first, now := startedWithLease(t, s)
		hand := func(context.Context, *sql.Tx, store.Job) error { return nil }
		if err := s.RetryJob(ctx, first.ID, t0); err != nil { // due at once
			t.Fatal(err)
		}
		again, ok, err := s.DispatchJob(ctx, hand)
		if err != nil || !ok || again.ID != first.ID {
			t.Fatalf("DispatchJob after the retry = %+v, %v, %v; want job %d again", again, ok, err, first.ID)
		}
		// Its worker has not started it yet, and the first lease has run out.
		if n, err := s.ReclaimLapsed(ctx, now.Add(time.Minute), "regrading after a worker stopped"); err != nil || n != 0 {
			t.Fatalf("ReclaimLapsed of a job handed on and not yet started = %d, %v; want 0: the lease of its first worker is gone", n, err)
		}
		if running, err := s.StartJob(ctx, again.ID, again.Attempts, "", now.Add(90*time.Second)); err != nil || !running {
			t.Fatalf("StartJob of the job handed on = %v, %v; want running", running, err)
		}
	})
}

// A worker that stops renewing its job's lease (killed mid-grading, or
// between grading and writing the result) loses it: ReclaimLapsed puts it
// back with a note, DispatchJob hands it on as a new attempt, and the
// lapsed attempt can neither start nor renew it; one result is written.
func TestLapsedLeaseIsHandedOn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		sub, first, now := startedWithLease(t, s)
		hand := func(context.Context, *sql.Tx, store.Job) error { return nil }
		if n, err := s.ReclaimLapsed(ctx, now.Add(29*time.Second), "regrading after a worker stopped"); err != nil || n != 0 {
			t.Fatalf("ReclaimLapsed before the lease ends = %d, %v; want 0", n, err)
		}
		if ok, err := s.RenewLease(ctx, first.ID, first.Attempts, now.Add(60*time.Second)); err != nil || !ok {
			t.Fatalf("RenewLease = %v, %v; want renewed", ok, err)
		}
		if n, _ := s.ReclaimLapsed(ctx, now.Add(59*time.Second), "x"); n != 0 {
			t.Fatalf("ReclaimLapsed before the renewed lease ends = %d; want 0", n)
		}
		// The worker dies: its lease runs out.
		if n, err := s.ReclaimLapsed(ctx, now.Add(61*time.Second), "regrading after a worker stopped"); err != nil || n != 1 {
			t.Fatalf("ReclaimLapsed after the lease = %d, %v; want 1", n, err)
		}
		if ok, _ := s.RenewLease(ctx, first.ID, first.Attempts, now.Add(90*time.Second)); ok {
			t.Error("the lapsed worker renewed a job put back in the queue")
		}
		second, ok, err := s.DispatchJob(ctx, hand)
		if err != nil || !ok || second.ID != first.ID || second.Attempts != first.Attempts+1 {
			t.Fatalf("DispatchJob after the lapse = %+v, %v, %v; want job %d again, attempt %d", second, ok, err, first.ID, first.Attempts+1)
		}
		// River retrying the dead worker's attempt finds it no longer its.
		if running, _ := s.StartJob(ctx, first.ID, first.Attempts, "", now.Add(120*time.Second)); running {
			t.Error("the lapsed attempt started the job handed on again")
		}
		if running, err := s.StartJob(ctx, second.ID, second.Attempts, "", now.Add(120*time.Second)); err != nil || !running {
			t.Fatalf("StartJob of the new attempt = %v, %v; want running", running, err)
		}
		got, err := s.Submission(ctx, sub.ID)
		if err != nil || got.Job.Note != "regrading after a worker stopped" {
			t.Errorf("the job handed on: note %q, %v; want the learner told it is graded again", got.Job.Note, err)
		}
		if err := s.FinishJob(ctx, second.ID, &report.Exercise{ID: "tokenbucket", Status: report.Passed}, 1, ""); err != nil {
			t.Fatal(err)
		}
		if err := s.FinishJob(ctx, first.ID, &report.Exercise{ID: "tokenbucket", Status: report.Failed}, 1, ""); !errors.Is(err, store.ErrNotRunning) {
			t.Errorf("a second result for the job = %v; want ErrNotRunning (one result)", err)
		}
	})
}
