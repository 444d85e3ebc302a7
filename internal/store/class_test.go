package store_test

import (
	"errors"
	"testing"

	"ratelab/grader/report"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

func TestClassAccountsAndJobs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		ada, err := s.AddLearner(ctx, "ada", []byte("hash-a"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddLearner(ctx, "ada", []byte("hash-b")); !errors.Is(err, store.ErrExists) {
			t.Errorf("AddLearner(ada) twice: err = %v, want ErrExists", err)
		}
		if u, err := s.LearnerByToken(ctx, []byte("hash-a")); err != nil || u.ID != ada.ID {
			t.Errorf("LearnerByToken = %+v, %v; want ada", u, err)
		}
		if _, err := s.LearnerByToken(ctx, []byte("nope")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LearnerByToken(unknown): err = %v, want ErrNotFound", err)
		}
		if _, err := s.AddInstructor(ctx, "prof", "$2a$bcrypt"); err != nil {
			t.Fatal(err)
		}
		if _, pw, err := s.Instructor(ctx, "prof"); err != nil || pw != "$2a$bcrypt" {
			t.Errorf("Instructor(prof) = %q, %v", pw, err)
		}

		files := []store.File{{Name: "tokenbucket.go", Content: []byte("package tokenbucket\n")}}
		sub, err := s.Submit(ctx, ada.ID, "tokenbucket", files)
		if err != nil {
			t.Fatal(err)
		}
		job, ok, err := s.ClaimJob(ctx)
		if err != nil || !ok || job.SubmissionID != sub.ID || job.Attempts != 1 || job.State != store.Running {
			t.Fatalf("ClaimJob = %+v, %v, %v; want the submission's job, running, attempt 1", job, ok, err)
		}
		if _, ok, _ := s.ClaimJob(ctx); ok {
			t.Error("ClaimJob claimed a job twice")
		}
		// The server dies: the running job is queued again and claimed again.
		if n, err := s.RequeueRunning(ctx); n != 1 || err != nil {
			t.Errorf("RequeueRunning = %d, %v; want 1", n, err)
		}
		job, ok, _ = s.ClaimJob(ctx)
		if !ok || job.Attempts != 2 {
			t.Fatalf("ClaimJob after requeue = %+v, %v; want attempt 2", job, ok)
		}
		res := &report.Exercise{ID: "tokenbucket", Status: report.Failed, Score: 20, MaxScore: 35}
		if err := s.FinishJob(ctx, job.ID, res, 1, ""); err != nil {
			t.Fatal(err)
		}
		if err := s.FinishJob(ctx, job.ID, res, 1, ""); err == nil {
			t.Error("FinishJob of a job already done succeeded")
		}
		got, err := s.Submission(ctx, sub.ID)
		if err != nil || got.Job.State != store.Done || got.Job.Result == nil || got.Job.Result.Score != 20 || len(got.Files) != 1 || got.Learner != "ada" {
			t.Errorf("Submission = %+v, %v", got, err)
		}
		jobs, _, err := s.RegradeLatestWithin(ctx, 1000)
		if err != nil || len(jobs) != 1 || jobs[0].SubmissionID != sub.ID || jobs[0].Reason != "regrade" {
			t.Errorf("RegradeLatest = %+v, %v; want one regrade of the submission", jobs, err)
		}
		gs, err := s.Gradings(ctx)
		if err != nil || len(gs) != 2 || gs[0].Score != 20 || gs[1].State != store.Queued {
			t.Errorf("Gradings = %+v, %v", gs, err)
		}
	})
}
