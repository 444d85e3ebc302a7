package class_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// A submission that is the reference solution, or another learner's code,
// is flagged; nothing is refused.
func TestSubmissionCopyFlags(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		f := newClassOn(t, db, class.Config{}, func(context.Context, grader.Options) (*report.Report, error) {
			return result(report.Passed, ""), nil
		})
		paths, _ := filepath.Glob("../../solutions/tokenbucket/*.go")
		var sol []store.File
		for _, p := range paths {
			if filepath.Ext(p) == ".go" && !filepath.IsAbs(p) && filepath.Base(p) != "" && !isTest(p) {
				sol = append(sol, store.File{Name: filepath.Base(p), Content: must(os.ReadFile(p))})
			}
		}
		sub, err := f.c.Submit(t.Context(), f.ada, "tokenbucket", sol)
		if err != nil {
			t.Fatal(err)
		}
		bobs := f.submit(t, f.bob, okSource)
		adas := f.submit(t, f.ada, "// copied\npackage tokenbucket\n\nimport \"math/bits\"\n\nvar _ = bits.Mul64\n")
		for _, tt := range []struct {
			id   int64
			sol  bool
			same string
		}{{sub.ID, true, ""}, {bobs.ID, false, "ada"}, {adas.ID, false, "bob"}} {
			got, err := f.st.Submission(t.Context(), tt.id)
			same := ""
			if len(got.SameAs) > 0 {
				same = got.SameAs[0]
			}
			if err != nil || got.MatchesSolution != tt.sol || same != tt.same || got.Fingerprint == "" {
				t.Errorf("submission %d: MatchesSolution %v, SameAs %q, fingerprint %q, %v; want %v, %q", tt.id, got.MatchesSolution, got.SameAs, got.Fingerprint, err, tt.sol, tt.same)
			}
		}
	})
}

func isTest(p string) bool { return len(p) > 8 && p[len(p)-8:] == "_test.go" }

// TestNewTakesDefaultConfig: a Config's zero fields take DefaultConfig's
// values, and the values it sets are kept.
func TestNewTakesDefaultConfig(t *testing.T) {
	d := class.DefaultConfig
	c := class.New(class.Config{Clock: wall{}})
	if c.JobTimeout() != d.JobTimeout || c.Throttle.Burst != d.SubmitBurst || c.Throttle.Every != d.SubmitEvery ||
		c.CheckThrottle.Burst != d.CheckBurst || c.CheckThrottle.Every != d.CheckEvery {
		t.Errorf("New(Config{}): job timeout %s, submissions %d every %s, checks %d every %s; want DefaultConfig's %s, %d every %s, %d every %s",
			c.JobTimeout(), c.Throttle.Burst, c.Throttle.Every, c.CheckThrottle.Burst, c.CheckThrottle.Every,
			d.JobTimeout, d.SubmitBurst, d.SubmitEvery, d.CheckBurst, d.CheckEvery)
	}
	c = class.New(class.Config{Clock: wall{}, JobTimeout: time.Minute, SubmitBurst: 2, SubmitEvery: time.Hour, CheckBurst: 3, CheckEvery: 2 * time.Hour})
	if c.JobTimeout() != time.Minute || c.Throttle.Burst != 2 || c.Throttle.Every != time.Hour || c.CheckThrottle.Burst != 3 || c.CheckThrottle.Every != 2*time.Hour {
		t.Errorf("New kept job timeout %s, submissions %d every %s, checks %d every %s; want 1m, 2 every 1h, 3 every 2h",
			c.JobTimeout(), c.Throttle.Burst, c.Throttle.Every, c.CheckThrottle.Burst, c.CheckThrottle.Every)
	}
}
