package lti_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/lti"
	"ratelab/internal/lti/ltitest"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// graded records a grading of a new submission of exercise by the
// learner called name, scoring score, submitted at the clock's time.
func (h *harness) graded(t *testing.T, name, exercise string, score, max float64) {
	t.Helper()
	ctx := t.Context()
	users, err := h.st.Users(ctx, store.Learner)
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	for _, u := range users {
		if u.Name == name {
			id = u.ID
		}
	}
	if id == 0 {
		t.Fatalf("no learner %q among %v", name, users)
	}
	if _, err := h.st.Submit(ctx, id, exercise, []store.File{{Name: exercise + ".go", Content: []byte("package " + exercise)}}); err != nil {
		t.Fatal(err)
	}
	job, ok, err := h.st.ClaimJob(ctx)
	if err != nil || !ok {
		t.Fatalf("ClaimJob = %v, %v", ok, err)
	}
	status := report.Failed
	if score == max {
		status = report.Passed
	}
	if err := h.st.FinishJob(ctx, job.ID, &report.Exercise{ID: exercise, Status: status, Score: score, MaxScore: max}, 1, ""); err != nil {
		t.Fatal(err)
	}
}

// sync queues and posts what changed, as Run does on each event. The
// gradings are recorded straight in the store (graded), not through a
// class, whose gradebook they would update: each sync reads the store
// through a new class.
func (h *harness) sync(t *testing.T) (queued, posted int) {
	t.Helper()
	queued, err := h.tool.Sync(t.Context(), h.class(), "")
	if err != nil {
		t.Fatal(err)
	}
	return queued, h.tool.PostDue(t.Context())
}

func (h *harness) class() *class.Class {
	return class.New(class.Config{Store: h.st, Root: "../..", Clock: h.clock, Log: slog.New(slog.DiscardHandler)})
}

func givens(scores []ltitest.Score) []float64 {
	var out []float64
	for _, s := range scores {
		out = append(out, s.ScoreGiven)
	}
	return out
}

func TestScoresReachTheLineItem(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		h := newHarness(t, target)
		ctx := t.Context()
		lineItem := h.platform.Links["link-gcra"].LineItem
		if code, _, body := h.launch(t, "sub-ada", "link-gcra"); code != 200 {
			t.Fatalf("launch = %d %q", code, body)
		}
		if q, p := h.sync(t); q != 0 || p != 0 {
			t.Errorf("sync before any grading = %d queued, %d posted; want none", q, p)
		}
		h.graded(t, "Ada Lovelace", "gcra", 20, 25)
		if q, p := h.sync(t); q != 1 || p != 1 {
			t.Errorf("sync after a grading = %d queued, %d posted; want 1, 1", q, p)
		}
		got := h.platform.Scores(lineItem)
		if len(got) != 1 || got[0].UserID != "sub-ada" || got[0].ScoreGiven != 20 || got[0].ScoreMaximum != 25 ||
			got[0].ActivityProgress != "Completed" || got[0].GradingProgress != "FullyGraded" {
			t.Fatalf("the platform's scores = %+v; want ada's 20 of 25, completed and fully graded", got)
		}
		// Told again, nothing new: never posted twice.
		if q, p := h.sync(t); q != 0 || p != 0 {
			t.Errorf("a second sync = %d queued, %d posted; want none", q, p)
		}
		// A due date an hour before the submission, 10% off per day late:
		// the score that counts is 18, posted again.
		due := h.clock.Now().Add(-time.Hour)
		if err := h.st.SetDueDate(ctx, store.DueDate{Exercise: "gcra", At: due, Policy: "penalty", PenaltyPct: 10}); err != nil {
			t.Fatal(err)
		}
		if q, p := h.sync(t); q != 1 || p != 1 {
			t.Errorf("sync after a due date = %d queued, %d posted; want 1, 1", q, p)
		}
		// An extension puts it back on time: 20 again.
		if err := h.st.SetExtension(ctx, store.Extension{Learner: "Ada Lovelace", Exercise: "gcra", Until: due.Add(2 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if q, p := h.sync(t); q != 1 || p != 1 {
			t.Errorf("sync after an extension = %d queued, %d posted; want 1, 1", q, p)
		}
		if g := givens(h.platform.Scores(lineItem)); len(g) != 3 || g[1] != 18 || g[2] != 20 {
			t.Errorf("scores posted = %v; want 20, then 18 (late), then 20 (extended)", g)
		}
		// The platform fails once: the score waits its retry, then arrives once.
		h.platform.FailScores(1)
		h.graded(t, "Ada Lovelace", "gcra", 25, 25)
		if q, p := h.sync(t); q != 1 || p != 0 {
			t.Errorf("sync while the platform fails = %d queued, %d posted; want 1, 0", q, p)
		}
		scores, err := h.tool.Scores(ctx, 10)
		if err != nil || len(scores) != 1 || scores[0].State != store.LTIPending || scores[0].Error == "" || scores[0].Attempts != 1 {
			t.Fatalf("scores after a failed post = %+v, %v; want one pending, with the error, after 1 attempt", scores, err)
		}
		if p := h.tool.PostDue(ctx); p != 0 {
			t.Errorf("PostDue before the retry is due posted %d", p)
		}
		h.clock.Add(2 * time.Second)
		if p := h.tool.PostDue(ctx); p != 1 {
			t.Errorf("PostDue once the retry is due posted %d, want 1", p)
		}
		if g := givens(h.platform.Scores(lineItem)); len(g) != 4 || g[3] != 25 {
			t.Errorf("scores posted = %v; want 25 last, once", g)
		}
		scores, err = h.tool.Scores(ctx, 10)
		if err != nil || len(scores) != 1 || scores[0].State != store.LTIPosted || scores[0].Error != "" || scores[0].Learner != "Ada Lovelace" {
			t.Errorf("scores after the retry = %+v, %v; want ada's posted, no error", scores, err)
		}
	})
}

func TestScoresGiveUpAfterMaxAttempts(t *testing.T) {
	h := newHarness(t, storetest.Backends[0].Target(t))
	h.launch(t, "sub-ada", "link-gcra")
	h.graded(t, "Ada Lovelace", "gcra", 10, 25)
	h.platform.FailScores(1000)
	if _, err := h.tool.Sync(t.Context(), h.class(), ""); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		h.tool.PostDue(context.Background())
		h.clock.Add(2 * time.Hour)
	}
	scores, err := h.tool.Scores(t.Context(), 10)
	if err != nil || len(scores) != 1 || scores[0].State != store.LTIFailed || scores[0].Attempts != 12 {
		t.Fatalf("scores after the platform failed every time = %+v, %v; want failed after 12 attempts", scores, err)
	}
	// The instructor asks for them again: they go.
	h.platform.FailScores(0)
	if n, err := h.tool.RetryFailed(t.Context()); n != 1 || err != nil {
		t.Errorf("RetryFailed = %d, %v; want the failed one queued", n, err)
	}
	if p := h.tool.PostDue(t.Context()); p != 1 {
		t.Errorf("PostDue after RetryFailed posted %d, want 1", p)
	}
	// A new score to post starts again.
	h.graded(t, "Ada Lovelace", "gcra", 15, 25)
	if q, p := h.sync(t); q != 1 || p != 1 {
		t.Errorf("sync after a new grading = %d queued, %d posted; want 1, 1", q, p)
	}
	if g := givens(h.platform.Scores(h.platform.Links["link-gcra"].LineItem)); len(g) != 2 || g[0] != 10 || g[1] != 15 {
		t.Errorf("scores posted = %v; want 10 (retried by hand), then 15", g)
	}
}

// TestScoresThroughRiver: on Postgres, Run hands each score to River,
// which retries the post the platform failed, and posts it once. A score
// queued while River was not running gets its job when River starts.
func TestScoresThroughRiver(t *testing.T) {
	h := newHarness(t, storetest.PostgresURL(t))
	lineItem := h.platform.Links["link-gcra"].LineItem
	h.launch(t, "sub-ada", "link-gcra")
	h.graded(t, "Ada Lovelace", "gcra", 20, 25)
	if n, err := h.tool.Sync(t.Context(), h.class(), ""); n != 1 || err != nil {
		t.Fatalf("Sync before Run = %d, %v; want the score queued", n, err)
	}
	h.platform.FailScores(1)
	cls := h.class()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.tool.Run(ctx, cls)
	}()
	defer func() {
		cancel()
		<-done
	}()
	awaitPosted := func(want []float64) {
		t.Helper()
		var g []float64
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			scores, err := h.tool.Scores(t.Context(), 10)
			if err != nil {
				t.Fatal(err)
			}
			if g = givens(h.platform.Scores(lineItem)); len(g) == len(want) && len(scores) == 1 && scores[0].State == store.LTIPosted {
				break
			}
		}
		if fmt.Sprint(g) != fmt.Sprint(want) {
			t.Fatalf("scores posted through River = %v; want %v", g, want)
		}
	}
	awaitPosted([]float64{20})
	if scores, err := h.tool.Scores(t.Context(), 1); err != nil || scores[0].Attempts != 2 {
		t.Errorf("the first score's row = %+v, %v; want posted on the second attempt (the platform failed the first)", scores, err)
	}
	// The next grading's score goes to River with the row that queues it.
	h.graded(t, "Ada Lovelace", "gcra", 25, 25)
	if _, err := h.tool.Sync(t.Context(), h.class(), ""); err != nil {
		t.Fatal(err)
	}
	awaitPosted([]float64{20, 25})
	var jobs int
	if err := h.st.DB().QueryRow(`SELECT COUNT(*) FROM river_job WHERE kind = 'ratelab_lti_score'`).Scan(&jobs); err != nil || jobs != 2 {
		t.Errorf("River jobs of score posts = %d, %v; want 2, one per score", jobs, err)
	}
}

// TestLineItemMadeForALinkWithoutOne: a link made by hand comes without a
// line item; the tool makes one in the course's container, worth the
// exercise's points, once, and posts there.
func TestLineItemMadeForALinkWithoutOne(t *testing.T) {
	h := newHarness(t, storetest.Backends[0].Target(t))
	h.platform.AddLink("link-by-hand", "slidingwindow", 0)
	before := len(h.platform.LineItems())
	h.launch(t, "sub-ada", "link-by-hand")
	h.launch(t, "sub-ada", "link-by-hand")
	h.launch(t, "sub-grace", "link-by-hand")
	items := h.platform.LineItems()
	if len(items) != before+1 {
		t.Fatalf("line items after three launches of a link without one = %+v; want one made", items)
	}
	made := items[len(items)-1]
	want := 0.0
	for _, w := range lti.Pickables() {
		for _, e := range w.Exercises {
			if e.ID == "slidingwindow" {
				want = e.Points
			}
		}
	}
	if made.ResourceLinkID != "link-by-hand" || made.ResourceID != "slidingwindow" || made.ScoreMaximum != want || want == 0 {
		t.Errorf("the line item made = %+v; want link-by-hand's, slidingwindow's, worth %v", made, want)
	}
	h.graded(t, "Ada Lovelace", "slidingwindow", 12, want)
	if q, p := h.sync(t); q != 1 || p != 1 {
		t.Errorf("sync = %d queued, %d posted; want 1, 1", q, p)
	}
	if g := givens(h.platform.Scores(made.ID)); len(g) != 1 || g[0] != 12 {
		t.Errorf("scores on the line item made = %v; want 12", g)
	}
}
