package server_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ratelab/grader/report"
	"ratelab/internal/server"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

func TestClassSubmissionIsItsLearners(t *testing.T) {
	storetest.Each(t, testClassSubmissionIsItsLearners)
}

func testClassSubmissionIsItsLearners(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	id := f.submit(t, adaToken)
	path := "/class/submissions/" + strconv.FormatInt(id, 10)
	asJSON := func(token string) reply {
		return f.browser(t).get(path, "Authorization", "Bearer "+token)
	}

	r := asJSON(adaToken)
	var got server.SubmissionJSON
	if r.code != http.StatusOK || json.Unmarshal([]byte(r.body), &got) != nil || got.ID != id || got.Learner != "ada" || got.State != store.Queued {
		t.Errorf("ada: GET %s = %d %s; want 200 with her queued submission", path, r.code, r.body)
	}
	r = asJSON(bobToken)
	var refused apiError
	if r.code != http.StatusNotFound || json.Unmarshal([]byte(r.body), &refused) != nil || refused.Error != fmt.Sprintf("There is no submission %d of yours.", id) {
		t.Errorf("bob: GET %s = %d %s; want 404 as if it did not exist", path, r.code, r.body)
	}
	if strings.Contains(r.body, "bits.Mul64") {
		t.Errorf("bob: GET %s shows ada's code: %s", path, r.body)
	}
	if r := f.browser(t).get(path+"/live", "Authorization", "Bearer "+bobToken); r.code != http.StatusNotFound {
		t.Errorf("bob: GET %s/live = %d; want 404", path, r.code)
	}
	prof := f.instructor(t)
	if r := prof.get(path); r.code != http.StatusOK || !strings.Contains(r.body, "bits.Mul64") {
		t.Errorf("prof: GET %s = %d; want 200 with ada's code:\n%s", path, r.code, r.body)
	}
	if r := asJSON(adaToken + "x"); r.code != http.StatusUnauthorized {
		t.Errorf("an unknown token: GET %s = %d; want 401", path, r.code)
	}
}

func TestClassPitfallSubmissions(t *testing.T) { storetest.Each(t, testClassPitfallSubmissions) }

// Each count of the dashboard's pitfalls table links to the submissions
// behind it: GET /class/submissions?exercise=X&pitfall=Y lists each
// learner's latest graded submission that fails a check of that pitfall,
// the ones the count counts.
func testClassPitfallSubmissions(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	f.submit(t, adaToken)
	f.finish(t, 30) // fails a check of the pitfall overflow
	prof := f.instructor(t)
	link := "/class/submissions?exercise=tokenbucket&amp;pitfall=overflow"
	r := prof.get("/class/dashboard/pitfalls")
	if r.code != http.StatusOK || !strings.Contains(r.body, `data-testid="pitfall-tokenbucket-overflow"`) || !strings.Contains(r.body, `href="`+link+`"`) {
		t.Errorf("GET /class/dashboard/pitfalls = %d; want overflow's row linking to %s:\n%s", r.code, link, r.body)
	}
	r = prof.get("/class/submissions?exercise=tokenbucket&pitfall=overflow")
	if r.code != http.StatusOK || !strings.Contains(r.body, `data-testid="submission-1"`) || !strings.Contains(r.body, "fails a check for this pitfall: 1.") {
		t.Errorf("overflow's submissions = %d; want ada's submission 1 listed:\n%s", r.code, r.body)
	}
	r = prof.get("/class/submissions?exercise=tokenbucket&pitfall=capacity")
	if r.code != http.StatusOK || !strings.Contains(r.body, `data-testid="no-submissions"`) {
		t.Errorf("a pitfall nobody hits = %d; want an empty list:\n%s", r.code, r.body)
	}
	for path, want := range map[string]int{
		"/class/submissions":                                  http.StatusBadRequest,
		"/class/submissions?exercise=tokenbucket":             http.StatusBadRequest,
		"/class/submissions?exercise=nosuch&pitfall=overflow": http.StatusNotFound,
	} {
		if r := prof.get(path); r.code != want {
			t.Errorf("GET %s = %d; want %d", path, r.code, want)
		}
	}
}

// finish records a grading of the oldest queued job.
func (f *classFixture) finish(t *testing.T, score float64) {
	t.Helper()
	ctx := t.Context()
	job, ok, err := f.st.ClaimJob(ctx)
	if err != nil || !ok {
		t.Fatalf("ClaimJob = %v, %v; want a job", ok, err)
	}
	ex := &report.Exercise{ID: "tokenbucket", Status: report.Failed, Score: score, MaxScore: 35,
		Checks: []report.Check{{ID: "tokenbucket/overflow", Pitfall: "overflow", Status: report.Failed, MaxScore: 5}}}
	if err := f.st.FinishJob(ctx, job.ID, ex, 1, ""); err != nil {
		t.Fatal(err)
	}
}

func TestClassGradebookCSV(t *testing.T) { storetest.Each(t, testClassGradebookCSV) }

func testClassGradebookCSV(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	// Each graded before the next is sent: a newer submission replaces
	// one still waiting.
	f.submit(t, adaToken)
	f.finish(t, 30) // ada's first
	f.submit(t, adaToken)
	f.finish(t, 20) // ada's latest: lower
	r := f.instructor(t).get("/class/gradebook.csv")
	if r.code != http.StatusOK || r.header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		r.header.Get("Content-Disposition") != `attachment; filename="gradebook.csv"` {
		t.Fatalf("GET /class/gradebook.csv = %d, %q, %q; want 200, text/csv, an attachment",
			r.code, r.header.Get("Content-Type"), r.header.Get("Content-Disposition"))
	}
	rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("gradebook.csv = %q, %v; want a header and a row for ada and bob", r.body, err)
	}
	head := rows[0]
	if head[0] != "learner" || head[len(head)-1] != "total best" {
		t.Errorf("header = %q; want learner first, total best last", head)
	}
	col := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("header %q has no column %q", head, name)
		}
		return i
	}
	want := map[string]map[string]string{
		"ada": {"tokenbucket best": "30", "tokenbucket latest": "20", "tokenbucket max": "35", "total best": "30"},
		// Nothing graded: no scores and no total (0 read as graded and
		// failed), but the exercise is still worth its points.
		"bob": {"tokenbucket best": "", "tokenbucket latest": "", "tokenbucket max": "35", "total best": ""},
	}
	for _, row := range rows[1:] {
		w, ok := want[row[0]]
		if !ok {
			t.Errorf("row %q: no such learner", row)
			continue
		}
		delete(want, row[0])
		for name, v := range w {
			if got := row[col(name)]; got != v {
				t.Errorf("%s's %q = %q; want %q", row[0], name, got, v)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("gradebook.csv has no row for %v:\n%s", want, r.body)
	}
}
