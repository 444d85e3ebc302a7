package store_test

import (
	"errors"
	"testing"
	"time"

	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

func TestReissuedTokenEndsSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		ada, err := s.AddLearner(ctx, "ada", store.Hash("old"))
		if err != nil {
			t.Fatal(err)
		}
		bob, err := s.AddLearner(ctx, "bob", store.Hash("bob"))
		if err != nil {
			t.Fatal(err)
		}
		far := t0.Add(time.Hour)
		for _, sess := range []struct {
			id   string
			user int64
		}{{"ada-1", ada.ID}, {"ada-2", ada.ID}, {"bob-1", bob.ID}} {
			if err := s.CreateSession(ctx, store.Hash(sess.id), sess.user, far); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.SetLearnerToken(ctx, "ada", store.Hash("new")); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"ada-1", "ada-2"} {
			if u, err := s.SessionUser(ctx, store.Hash(id), t0); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("SessionUser(%s) after ada's token was reissued = %+v, %v; want ErrNotFound", id, u, err)
			}
		}
		if u, err := s.SessionUser(ctx, store.Hash("bob-1"), t0); err != nil || u.ID != bob.ID {
			t.Errorf("SessionUser(bob-1) = %+v, %v; want bob, untouched", u, err)
		}
		if _, err := s.LearnerByToken(ctx, store.Hash("old")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LearnerByToken(old token) = %v; want ErrNotFound", err)
		}
		if err := s.SetLearnerToken(ctx, "nobody", store.Hash("x")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SetLearnerToken(nobody) = %v; want ErrNotFound", err)
		}

		// An instructor's new password ends their sessions too.
		prof, err := s.AddInstructor(ctx, "prof", "$2a$old")
		if err != nil {
			t.Fatal(err)
		}
		s.CreateSession(ctx, store.Hash("prof-1"), prof.ID, far)
		if err := s.SetInstructorPassword(ctx, "prof", "$2a$new"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SessionUser(ctx, store.Hash("prof-1"), t0); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SessionUser(prof-1) after a new password = %v; want ErrNotFound", err)
		}
	})
}

func TestRemoveLearner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		ada, _ := s.AddLearner(ctx, "ada", store.Hash("ada"))
		cy, _ := s.AddLearner(ctx, "cy", store.Hash("cy"))
		s.CreateSession(ctx, store.Hash("ada-1"), ada.ID, t0.Add(time.Hour))
		sub, err := s.Submit(ctx, ada.ID, "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package tokenbucket")}})
		if err != nil {
			t.Fatal(err)
		}

		r, err := s.RemoveLearner(ctx, "ada")
		want := store.RemovedName(ada, t0)
		if err != nil || r.User.ID != ada.ID || r.Submissions != 1 || r.KeptAs != want {
			t.Fatalf("RemoveLearner(ada) = %+v, %v; want her 1 submission kept as %q", r, err, want)
		}
		if _, err := s.LearnerByToken(ctx, store.Hash("ada")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LearnerByToken(ada's token) after removal = %v; want ErrNotFound", err)
		}
		if _, err := s.SessionUser(ctx, store.Hash("ada-1"), t0); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SessionUser(ada's session) after removal = %v; want ErrNotFound", err)
		}
		got, err := s.Submission(ctx, sub.ID)
		if err != nil || got.Learner != want {
			t.Errorf("ada's submission after removal = %+v, %v; want it kept, shown as %q", got, err, want)
		}
		// The name is free again.
		if _, err := s.AddLearner(ctx, "ada", store.Hash("ada-again")); err != nil {
			t.Errorf("AddLearner(ada) after removal = %v; want a new ada", err)
		}

		// A learner with nothing submitted is gone altogether.
		if r, err := s.RemoveLearner(ctx, "cy"); err != nil || r.Submissions != 0 || r.KeptAs != "" {
			t.Errorf("RemoveLearner(cy) = %+v, %v; want removed, nothing kept", r, err)
		}
		learners, _ := s.Users(ctx, store.Learner)
		for _, u := range learners {
			if u.ID == cy.ID {
				t.Errorf("cy is still a learner after removal: %+v", u)
			}
		}
		if _, err := s.RemoveLearner(ctx, "cy"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("RemoveLearner(cy) twice = %v; want ErrNotFound", err)
		}
		// Only learners are removed.
		s.AddInstructor(ctx, "prof", "$2a$x")
		if _, err := s.RemoveLearner(ctx, "prof"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("RemoveLearner(prof, an instructor) = %v; want ErrNotFound", err)
		}
	})
}

func TestRegradeLatestWithin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		var subs []store.Submission
		for _, name := range []string{"a", "b", "c", "d"} {
			u, err := s.AddLearner(ctx, name, store.Hash(name))
			if err != nil {
				t.Fatal(err)
			}
			sub, err := s.Submit(ctx, u.ID, "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package tokenbucket // " + name)}})
			if err != nil {
				t.Fatal(err)
			}
			subs = append(subs, sub)
		}
		// a's and b's are graded; c's and d's still wait.
		for range 2 {
			job, ok, err := s.ClaimJob(ctx)
			if err != nil || !ok {
				t.Fatalf("ClaimJob = %v, %v", ok, err)
			}
			if err := s.FinishJob(ctx, job.ID, nil, 1, "graded"); err != nil {
				t.Fatal(err)
			}
		}
		// Room for one more: a's is queued, b's left out; c's and d's are
		// waiting already and not queued twice.
		jobs, left, err := s.RegradeLatestWithin(ctx, 3)
		if err != nil || len(jobs) != 1 || jobs[0].SubmissionID != subs[0].ID || jobs[0].Reason != "regrade" || left != 1 {
			t.Fatalf("RegradeLatestWithin(3) with 2 waiting = %+v, %d left, %v; want a's queued, 1 left", jobs, left, err)
		}
		if n, _ := s.CountJobs(ctx, store.Queued); n != 3 {
			t.Errorf("%d jobs waiting; want 3, the limit", n)
		}
		// Full: nothing more, however often.
		if jobs, left, err := s.RegradeLatestWithin(ctx, 3); err != nil || len(jobs) != 0 || left != 1 {
			t.Errorf("RegradeLatestWithin(3) with 3 waiting = %+v, %d left, %v; want none, 1 left", jobs, left, err)
		}
		// With room, only b's is missing.
		if jobs, left, err := s.RegradeLatestWithin(ctx, 100); err != nil || len(jobs) != 1 || jobs[0].SubmissionID != subs[1].ID || left != 0 {
			t.Errorf("RegradeLatestWithin(100) = %+v, %d left, %v; want b's alone", jobs, left, err)
		}
	})
}
