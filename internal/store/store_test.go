package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ratelab/grader/report"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// stepClock returns t0, then t0+1s, t0+2s, ... on successive calls.
type stepClock struct {
	t time.Time
}

func (c *stepClock) Now() time.Time {
	t := c.t
	c.t = c.t.Add(time.Second)
	return t
}

var t0 = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)

func open(t *testing.T, path string) *store.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "nested", "lab.db")
	}
	s, err := store.Open(t.Context(), path, &stepClock{t: t0})
	if err != nil {
		t.Fatalf("Open(%q) = %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func ex(id string, status report.Status, score, max float64) report.Exercise {
	return report.Exercise{ID: id, Week: 1, Title: id, Status: status, Score: score, MaxScore: max}
}

func rep(target string, seed int64, exs ...report.Exercise) *report.Report {
	r := &report.Report{Schema: report.Schema, Target: target, Seed: seed, Exercises: exs}
	r.Total()
	return r
}

func TestLatestReportRoundTrip(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		if _, err := s.LatestReport(ctx, "exercises"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("LatestReport on an empty store: err = %v, want ErrNotFound", err)
		}
		ns := 31.5
		first := rep("exercises", 1, ex("tokenbucket", report.Failed, 20, 35))
		first.Exercises[0].Checks = []report.Check{{
			ID: "tokenbucket/fractional-tokens", Kind: report.Property, Status: report.Failed,
			MaxScore: 5, NsPerOp: &ns,
			Counterexample: &report.Counterexample{
				Setup: "New(capacity=1, ratePerSec=1000, nowNs=0)",
				Steps: []report.Step{{Call: "Available(nowNs=1200000)", Got: "0", Want: "1"}},
			},
		}}
		second := rep("exercises", 2, ex("gcra", report.Passed, 30, 30))
		for _, r := range []*report.Report{first, second} {
			if err := s.SaveReport(ctx, r); err != nil {
				t.Fatalf("SaveReport: %v", err)
			}
		}
		got, err := s.LatestReport(ctx, "exercises")
		if err != nil {
			t.Fatalf("LatestReport: %v", err)
		}
		if got.Report.Seed != 2 || len(got.Report.Exercises) != 1 || got.Report.Exercises[0].ID != "gcra" {
			t.Errorf("LatestReport = seed %d %+v; want the second report (seed 2, gcra)", got.Report.Seed, got.Report.Exercises)
		}
		if want := t0.Add(time.Second); !got.SavedAt.Equal(want) {
			t.Errorf("LatestReport SavedAt = %v, want %v", got.SavedAt, want)
		}
		if _, err := s.LatestReport(ctx, "solutions"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LatestReport(solutions): err = %v, want ErrNotFound", err)
		}

		tb, err := s.LatestResult(ctx, "exercises", "tokenbucket")
		if err != nil {
			t.Fatalf("LatestResult(tokenbucket): %v", err)
		}
		c := tb.Exercise.Checks
		if len(c) != 1 || c[0].Counterexample == nil || c[0].Counterexample.Steps[0].Want != "1" || c[0].NsPerOp == nil || *c[0].NsPerOp != ns {
			t.Errorf("LatestResult(tokenbucket) checks = %+v; want the saved check with its counterexample and ns/op", c)
		}
		if !tb.SavedAt.Equal(t0) || tb.Seed != 1 || tb.Target != "exercises" {
			t.Errorf("LatestResult(tokenbucket) = saved %v seed %d target %q; want %v, 1, exercises", tb.SavedAt, tb.Seed, tb.Target, t0)
		}
	})
}

func TestLatestResultsPerExercise(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		saves := []*report.Report{
			rep("exercises", 1, ex("tokenbucket", report.NotStarted, 0, 35), ex("gcra", report.NotStarted, 0, 30)),
			rep("solutions", 1, ex("tokenbucket", report.Passed, 35, 35), ex("gcra", report.Passed, 30, 30)),
			// `grade --exercise tokenbucket`: gcra keeps its older result.
			rep("exercises", 1, ex("tokenbucket", report.Failed, 12, 35)),
		}
		for _, r := range saves {
			if err := s.SaveReport(ctx, r); err != nil {
				t.Fatalf("SaveReport: %v", err)
			}
		}
		got, err := s.LatestResults(ctx, "exercises")
		if err != nil {
			t.Fatalf("LatestResults: %v", err)
		}
		want := map[string]struct {
			status report.Status
			score  float64
			saved  time.Time
		}{
			"tokenbucket": {report.Failed, 12, t0.Add(2 * time.Second)},
			"gcra":        {report.NotStarted, 0, t0},
		}
		if len(got) != len(want) {
			t.Errorf("LatestResults returned %d exercises, want %d: %v", len(got), len(want), got)
		}
		for id, w := range want {
			g, ok := got[id]
			if !ok {
				t.Errorf("LatestResults has no %s", id)
				continue
			}
			if g.Exercise.Status != w.status || g.Exercise.Score != w.score || !g.SavedAt.Equal(w.saved) {
				t.Errorf("LatestResults[%s] = %s %v saved %v; want %s %v saved %v",
					id, g.Exercise.Status, g.Exercise.Score, g.SavedAt, w.status, w.score, w.saved)
			}
		}
		empty, err := s.LatestResults(ctx, "nobody")
		if err != nil || empty == nil || len(empty) != 0 {
			t.Errorf("LatestResults(nobody) = %v, %v; want an empty map, nil", empty, err)
		}
		if _, err := s.LatestResult(ctx, "exercises", "slidingwindow"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LatestResult(slidingwindow): err = %v, want ErrNotFound", err)
		}
	})
}

func TestReopenKeepsDataAndSchema(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		path := target
		ctx := t.Context()
		s, err := store.Open(ctx, path, &stepClock{t: t0})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SaveReport(ctx, rep("exercises", 7, ex("gcra", report.Failed, 1, 30))); err != nil {
			t.Fatal(err)
		}
		v1, err := s.SchemaVersion(ctx)
		if err != nil || v1 < 1 {
			t.Fatalf("SchemaVersion = %d, %v; want >= 1", v1, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}

		s2 := open(t, path)
		v2, err := s2.SchemaVersion(ctx)
		if err != nil || v2 != v1 {
			t.Errorf("SchemaVersion after reopening = %d, %v; want %d", v2, err, v1)
		}
		got, err := s2.LatestReport(ctx, "exercises")
		if err != nil || got.Report.Seed != 7 {
			t.Errorf("LatestReport after reopening = seed %d, %v; want seed 7", got.Report.Seed, err)
		}
	})
}

func TestWALAndBusyTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lab.db")
	s := open(t, path)
	if err := s.SaveReport(t.Context(), rep("exercises", 1)); err != nil {
		t.Fatal(err)
	}
	// WAL mode persists in the file and leaves a -wal file beside it while open.
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Errorf("no WAL file beside the database: %v", err)
	}
	// A second Store on the same file (the grade command while the server
	// runs) writes without SQLITE_BUSY, and the first sees its save.
	other := open(t, path)
	if err := other.SaveReport(t.Context(), rep("exercises", 99, ex("gcra", report.Passed, 30, 30))); err != nil {
		t.Fatalf("SaveReport from a second connection: %v", err)
	}
	got, err := s.LatestReport(t.Context(), "exercises")
	if err != nil || got.Report.Seed != 99 {
		t.Errorf("LatestReport after another Store saved = seed %d, %v; want 99", got.Report.Seed, err)
	}
}

func TestRefusesNewerSchema(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		path := target
		s := open(t, path)
		v, err := s.SchemaVersion(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		// Simulate a database written by a future ratelab.
		if err := store.SetUserVersionForTest(t.Context(), path, v+1); err != nil {
			t.Fatal(err)
		}
		if s, err := store.Open(t.Context(), path, &stepClock{t: t0}); err == nil {
			s.Close()
			t.Errorf("Open of a database at schema version %d succeeded; want an error", v+1)
		}
	})
}

func TestOpenNeedsClock(t *testing.T) {
	if _, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "x.db"), nil); err == nil {
		t.Error("Open(nil clock) succeeded; want an error")
	}
}

type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }

// The grade command saves a report after grading; the server reads it back.
func ExampleStore_SaveReport() {
	dir, _ := os.MkdirTemp("", "ratelab")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	st, err := store.Open(ctx, filepath.Join(dir, ".ratelab", "lab.db"), fixedClock(t0))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()

	r := &report.Report{Schema: report.Schema, Target: "exercises", Seed: 1, Exercises: []report.Exercise{
		{ID: "tokenbucket", Week: 1, Title: "Token bucket", Status: report.Failed, Score: 20, MaxScore: 35},
	}}
	r.Total()
	if err := st.SaveReport(ctx, r); err != nil {
		fmt.Println(err)
		return
	}

	latest, _ := st.LatestResults(ctx, "exercises")
	tb := latest["tokenbucket"]
	fmt.Printf("%s: %s %g/%g, saved %s\n", tb.Exercise.ID, tb.Exercise.Status, tb.Exercise.Score, tb.Exercise.MaxScore, tb.SavedAt.Format(time.RFC3339))
	// Output:
	// tokenbucket: failed 20/35, saved 2026-03-02T09:30:00Z
}
