package store_test

import (
	"testing"

	"ratelab/grader/report"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// A learner's Yours is built from each exercise's latest submission that
// compiled: a newer one that did not, or that waits for its grading, does
// not replace it; another learner's never counts.
func TestLatestBuilt(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		u := learners(t, s, "ada", "bob")
		compiled := func(ex *report.Exercise) bool { return ex.Message != "does not build" }
		file := func(src string) []store.File { return []store.File{{Name: "tokenbucket.go", Content: []byte(src)}} }
		up := func(user store.User, exercise, src string) store.Submission {
			sub, err := s.Submit(t.Context(), user.ID, exercise, file(src))
			if err != nil {
				t.Fatal(err)
			}
			return sub
		}
		finish := func(sub store.Submission, msg string) {
			job, ok, err := s.ClaimJob(t.Context())
			if err != nil || !ok || job.SubmissionID != sub.ID {
				t.Fatalf("claimed %+v, %v, %v; want submission %d's job", job, ok, err, sub.ID)
			}
			if err := s.Finish(t.Context(), job.ID, store.Outcome{Result: &report.Exercise{ID: sub.Exercise, Status: report.Failed, Message: msg}}); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := s.LatestBuilt(t.Context(), u["ada"].ID, compiled); err != nil || len(got) != 0 {
			t.Fatalf("before any submission: %v, %v; want none", got, err)
		}
		first := up(u["ada"], "tokenbucket", "package tokenbucket // first")
		finish(first, "")
		broken := up(u["ada"], "tokenbucket", "package tokenbucket // broken")
		finish(broken, "does not build")
		gcra := up(u["ada"], "gcra", "package gcra")
		finish(gcra, "")
		up(u["ada"], "tokenbucket", "package tokenbucket // waiting") // not graded yet
		up(u["bob"], "tokenbucket", "package tokenbucket // bob's")
		got, err := s.LatestBuilt(t.Context(), u["ada"].ID, compiled)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got["tokenbucket"].Submission != first.ID || got["gcra"].Submission != gcra.ID {
			t.Fatalf("LatestBuilt = %+v; want tokenbucket from submission %d, gcra from %d", got, first.ID, gcra.ID)
		}
		if fs := got["tokenbucket"].Files; len(fs) != 1 || string(fs[0].Content) != "package tokenbucket // first" {
			t.Errorf("tokenbucket's files = %+v; want the first submission's", fs)
		}
	})
}
