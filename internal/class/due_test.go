package class_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/due"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// stepClock is a time the test steps; safe for the class's goroutines.
type stepClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stepClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

var paris, _ = time.LoadLocation("Europe/Paris")

func parisTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := due.ParseTime(s, paris)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// dueFixture is a class that is not started: the test submits through
// Class.Submit and grades by hand in the store, at the times it sets.
type dueFixture struct {
	c     *class.Class
	st    *store.Store
	clock *stepClock
	users map[string]store.User
}

func newDueClass(t *testing.T, target string) *dueFixture {
	t.Helper()
	clk := &stepClock{now: parisTime(t, "2027-02-01T09:00")}
	st, err := store.Open(t.Context(), target, clk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &dueFixture{st: st, clock: clk, users: map[string]store.User{}}
	for _, n := range []string{"ada", "bob"} {
		u, err := st.AddLearner(t.Context(), n, []byte(n))
		if err != nil {
			t.Fatal(err)
		}
		f.users[n] = u
	}
	if _, err := st.AddInstructor(t.Context(), "prof", "$2a$x"); err != nil {
		t.Fatal(err)
	}
	if err := st.SetCourseZone(t.Context(), "Europe/Paris"); err != nil {
		t.Fatal(err)
	}
	f.c = class.New(class.Config{Store: st, Clock: clk, Root: "../..", TempDir: t.TempDir()})
	return f
}

// submit submits at when (Paris time) and, unless it is refused, grades
// it score out of 35 at once.
func (f *dueFixture) submit(t *testing.T, who, exercise, when string, score float64) error {
	t.Helper()
	f.clock.set(parisTime(t, when))
	sub, err := f.c.Submit(t.Context(), f.users[who], exercise, []store.File{{Name: exercise + ".go", Content: []byte("package " + exercise)}})
	if err != nil {
		return err
	}
	job, ok, err := f.st.ClaimJob(t.Context())
	if err != nil || !ok || job.SubmissionID != sub.ID {
		t.Fatalf("ClaimJob = %+v, %v, %v; want submission %d's job", job, ok, err, sub.ID)
	}
	res := &report.Exercise{ID: exercise, Status: report.Failed, Score: score, MaxScore: 35}
	if err := f.st.FinishJob(t.Context(), job.ID, res, 1, ""); err != nil {
		t.Fatal(err)
	}
	return nil
}

func TestDueDatesInClass(t *testing.T) { storetest.Each(t, testDueDatesInClass) }

func testDueDatesInClass(t *testing.T, target string) {
	f := newDueClass(t, target)
	ctx := t.Context()
	if _, err := due.Set(ctx, f.st, due.Rule{Week: 1, At: parisTime(t, "2027-02-10T23:59"), Policy: due.Penalty,
		PenaltyPct: 10, Cutoff: parisTime(t, "2027-02-13T23:59")}); err != nil {
		t.Fatal(err)
	}
	if _, err := due.Set(ctx, f.st, due.Rule{Exercise: "gcra", At: parisTime(t, "2027-02-10T23:59"), Policy: due.Refuse}); err != nil {
		t.Fatal(err)
	}
	mustSubmit := func(who, exercise, when string, score float64) {
		t.Helper()
		if err := f.submit(t, who, exercise, when, score); err != nil {
			t.Fatalf("%s submitting %s at %s: %v", who, exercise, when, err)
		}
	}
	mustSubmit("ada", "tokenbucket", "2027-02-10T20:00", 20) // on time: 20
	mustSubmit("ada", "tokenbucket", "2027-02-11T10:00", 30) // a day late: 27, counts
	mustSubmit("bob", "tokenbucket", "2027-02-12T10:00", 30) // two days late: 24
	mustSubmit("bob", "gcra", "2027-02-10T23:00", 25)        // on time under refuse

	// After the cut-off, and late under refuse: refused, saying when it
	// was due (in the course's zone) and whom to ask.
	err := f.submit(t, "bob", "tokenbucket", "2027-02-14T00:30", 35)
	var le *due.LateError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "Wed 10 Feb 2027 23:59 CET") ||
		!strings.Contains(err.Error(), "until Sat 13 Feb 2027 23:59 CET") || !strings.Contains(err.Error(), "Ask your instructor (prof) for an extension") {
		t.Errorf("submitting after the cut-off: err = %v; want a LateError with the due date, the cut-off and whom to ask", err)
	}
	err = f.submit(t, "ada", "gcra", "2027-02-11T00:00", 25)
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "exercise gcra's due date") || !strings.Contains(err.Error(), "late work is refused") {
		t.Errorf("submitting gcra a minute late under refuse: err = %v; want a LateError", err)
	}
	// An extension lets bob submit after the cut-off: his due date and
	// cut-off move by as much.
	if _, err := due.Extend(ctx, f.st, "bob", 1, "", parisTime(t, "2027-02-14T12:00")); err != nil {
		t.Fatal(err)
	}
	mustSubmit("bob", "tokenbucket", "2027-02-14T11:00", 33) // on time, extended

	gb, err := f.c.Gradebook(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		learner, exercise string
		want              class.Count
	}{
		{"ada", "tokenbucket", class.Count{Due: true, Graded: true, Score: 27, Late: true}},
		{"bob", "tokenbucket", class.Count{Due: true, Graded: true, Score: 33, Late: false}},
		{"bob", "gcra", class.Count{Due: true, Graded: true, Score: 25}},
		{"ada", "gcra", class.Count{Due: true}},
		{"ada", "slidingwindow", class.Count{}},
	} {
		got := gb.Count(c.learner, c.exercise)
		got.Submission = 0
		if got != c.want {
			t.Errorf("Count(%s, %s) = %+v; want %+v", c.learner, c.exercise, got, c.want)
		}
	}

	var b bytes.Buffer
	if err := gb.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	cell := func(learner, col string) string {
		for _, r := range rows[1:] {
			if r[0] == learner {
				return r[slices.Index(head, col)]
			}
		}
		return "no row"
	}
	if got := [4]string{cell("ada", "tokenbucket counted"), cell("ada", "tokenbucket late"), cell("ada", "tokenbucket best"), cell("ada", "total counted")}; got != [4]string{"27", "yes", "30", "27"} {
		t.Errorf("ada's CSV: counted, late, best, total counted = %q; want 27 yes 30 27", got)
	}
	b.Reset()
	if err := gb.WriteCanvasCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, _ = csv.NewReader(&b).ReadAll()
	col := slices.Index(rows[0], "ratelab: Token bucket")
	found := false
	for _, r := range rows[2:] {
		if r[0] == "ada" {
			found = true
			if col < 0 || r[col] != "27" {
				t.Errorf("Canvas CSV gives ada %q (column %d) for the token bucket; want the counted 27, not the best 30", r, col)
			}
		}
	}
	if !found {
		t.Errorf("Canvas CSV has no row for ada:\n%q", rows)
	}
}

func TestSubmitJudgesAndStampsOneInstant(t *testing.T) {
	storetest.Each(t, testSubmitJudgesAndStampsOneInstant)
}

// The instant that judges an upload against its due date is the time it
// is stored with, which its on-time mark is read from: an upload accepted
// just before a due date under "refuse" is never stored as past it. Here
// the store's own clock runs an hour later than the class's, as a slow
// path between the judging and the storing would make it.
func testSubmitJudgesAndStampsOneInstant(t *testing.T, target string) {
	f := newDueClass(t, target)
	ctx := t.Context()
	dueAt := parisTime(t, "2027-02-10T23:59")
	if _, err := due.Set(ctx, f.st, due.Rule{Exercise: "gcra", At: dueAt, Policy: due.Refuse}); err != nil {
		t.Fatal(err)
	}
	classClock := &stepClock{now: dueAt.Add(-time.Second)}
	c := class.New(class.Config{Store: f.st, Clock: classClock, Root: "../..", TempDir: t.TempDir()})
	f.clock.set(dueAt.Add(time.Hour))
	sub, err := c.Submit(ctx, f.users["bob"], "gcra", []store.File{{Name: "gcra.go", Content: []byte("package gcra")}})
	if err != nil {
		t.Fatalf("a submission a second before the due date: %v; want it accepted", err)
	}
	if got, err := f.st.Submission(ctx, sub.ID); err != nil || !got.CreatedAt.Equal(classClock.Now()) {
		t.Errorf("the submission is stored at %v (%v); want the instant it was judged at, %v", got.CreatedAt, err, classClock.Now())
	}
}
