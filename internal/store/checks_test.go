package store_test

import (
	"slices"
	"testing"

	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

func check(t *testing.T, s *store.Store, u store.User, exercise string) store.Submission {
	t.Helper()
	sub, err := s.SubmitUpload(t.Context(), store.Upload{UserID: u.ID, Exercise: exercise, Kind: store.KindCheck,
		Files: []store.File{{Name: "a.go", Content: []byte("package " + exercise + " // check")}}})
	if err != nil {
		t.Fatal(err)
	}
	if sub.Kind != store.KindCheck {
		t.Fatalf("SubmitUpload(check).Kind = %q", sub.Kind)
	}
	return sub
}

// A check is a job like a submission's, and is counted nowhere a
// submission is: lists, gradings, regrades, a removed learner's kept work.
func TestChecksAreNoSubmissions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		u := learners(t, s, "ada", "bob")
		sub := submit(t, s, u["ada"], "tokenbucket")
		claimAll(t, s, passed)
		chk := check(t, s, u["ada"], "tokenbucket")
		if got, err := s.Submission(ctx, chk.ID); err != nil || got.Kind != store.KindCheck || got.Job.State != store.Queued {
			t.Fatalf("Submission(check) = %+v, %v; want a queued check", got, err)
		}
		// The queue grades it as it grades a submission.
		if order := claimAll(t, s, passed); !slices.Equal(order, []string{"ada/tokenbucket/submit"}) {
			t.Fatalf("claimed %v; want ada's check", order)
		}
		if got, _ := s.Submission(ctx, chk.ID); got.Job.State != store.Done || got.Job.Result == nil {
			t.Fatalf("the check after grading: %+v; want done with a result", got.Job)
		}
		for _, uid := range []int64{0, u["ada"].ID} {
			subs, err := s.Submissions(ctx, uid, 100)
			if err != nil || len(subs) != 1 || subs[0].ID != sub.ID || subs[0].Kind != store.KindSubmit {
				t.Errorf("Submissions(%d) = %+v, %v; want ada's one submission", uid, subs, err)
			}
		}
		gs, err := s.Gradings(ctx)
		if err != nil || len(gs) != 1 || gs[0].SubmissionID != sub.ID {
			t.Errorf("Gradings = %+v, %v; want the submission's one", gs, err)
		}
		// Regrade takes the latest submission, not the later check.
		jobs, left, err := s.RegradeLatestWithin(ctx, 1000)
		if err != nil || left != 0 || len(jobs) != 1 || jobs[0].SubmissionID != sub.ID {
			t.Errorf("RegradeLatestWithin = %+v, %d, %v; want one regrade of submission %d", jobs, left, err, sub.ID)
		}
		// A learner with checks only has no submissions to keep.
		check(t, s, u["bob"], "gcra")
		if _, err := s.SaveDraft(ctx, u["bob"].ID, "gcra", []store.File{{Name: "a.go", Content: []byte("package gcra")}}); err != nil {
			t.Fatal(err)
		}
		r, err := s.RemoveLearner(ctx, "bob")
		if err != nil || r.Submissions != 0 || r.KeptAs != "" {
			t.Errorf("RemoveLearner(bob, checks only) = %+v, %v; want deleted with nothing kept", r, err)
		}
		r, err = s.RemoveLearner(ctx, "ada")
		if err != nil || r.Submissions != 1 {
			t.Errorf("RemoveLearner(ada) = %+v, %v; want her one submission kept", r, err)
		}
		if _, err := s.Submission(ctx, chk.ID); err == nil {
			t.Errorf("ada's check is still stored after her removal; want it deleted with her drafts")
		}
	})
}

// A check supersedes the learner's waiting check of the exercise, never a
// submission; a submission supersedes waiting submissions, never a check.
func TestCheckSupersedesOnlyChecks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		u := learners(t, s, "ada")
		sub1 := submit(t, s, u["ada"], "tokenbucket")
		chk1 := check(t, s, u["ada"], "tokenbucket")
		if len(chk1.Superseded) != 0 {
			t.Errorf("a check superseded %v; want nothing (submission %d waits)", chk1.Superseded, sub1.ID)
		}
		chk2 := check(t, s, u["ada"], "tokenbucket")
		if !slices.Equal(chk2.Superseded, []int64{chk1.ID}) {
			t.Errorf("second check superseded %v; want [%d]", chk2.Superseded, chk1.ID)
		}
		sub2 := submit(t, s, u["ada"], "tokenbucket")
		if !slices.Equal(sub2.Superseded, []int64{sub1.ID}) {
			t.Errorf("second submission superseded %v; want [%d], not the waiting check", sub2.Superseded, sub1.ID)
		}
		if w, err := s.Waiting(ctx, u["ada"].ID, "tokenbucket", store.KindCheck); err != nil || !w {
			t.Errorf("Waiting(check) = %v, %v; want true", w, err)
		}
		old, _ := s.Submission(ctx, chk1.ID)
		if old.Job.State != store.Superseded || old.Job.Error != store.SupersededMessage(store.KindCheck, chk2.ID) {
			t.Errorf("the first check's job = %+v; want superseded by check %d", old.Job, chk2.ID)
		}
	})
}

// Two learners' identical code are flagged to each other; a check of the
// same code is not (it is no submission), nor does it get flagged.
func TestSameAsIgnoresChecks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		u := learners(t, s, "ada", "bob")
		files := []store.File{{Name: "a.go", Content: []byte("package tokenbucket")}}
		a, err := s.SubmitUpload(ctx, store.Upload{UserID: u["ada"].ID, Exercise: "tokenbucket", Files: files, Fingerprint: "fp"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.SubmitUpload(ctx, store.Upload{UserID: u["bob"].ID, Exercise: "tokenbucket", Files: files, Fingerprint: "fp", Kind: store.KindCheck}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Submission(ctx, a.ID)
		if err != nil || len(got.SameAs) != 0 {
			t.Errorf("ada's SameAs = %v, %v; want none (bob only checked the same code)", got.SameAs, err)
		}
	})
}
