package main

import (
	"context"
	"encoding/csv"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket/wsjson"

	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store/storetest"
)

// TestClassEndToEnd runs a class through the real binary: roster, an
// instructor, a learner submitting with the command line and following it
// live, the dashboard (and its websocket), the drill-down, the CSV, who may
// see what, and the throttle; on each store (on Postgres, the server's
// own worker grades through River).
func TestClassEndToEnd(t *testing.T) {
	t.Parallel() // a server and a database of its own
	storetest.Each(t, testClassEndToEnd)
}

func testClassEndToEnd(t *testing.T, target string) {
	db, tokens := setupClassOn(t, target, "ada", "bob", "carol")
	s := startClassServer(t, db, "--submit-burst", "3", "--submit-every", "1h")
	prof, csrf := instructor(t, s)
	dash := dialDashboard(t, s, prof)

	// ada submits the reference token bucket with the CLI and follows it.
	stdout, stderr, code := labserver(t, "", "submit", "--server", s.URL, "--token", tokens["ada"],
		"--exercise", "tokenbucket", "--dir", "solutions/tokenbucket")
	if code != 0 && code != 1 {
		t.Fatalf("submit: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"submitted", "grading", "pass    starts-full", "budget"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("submit's live progress lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, "Token bucket (tokenbucket)") {
		t.Errorf("submit printed no report:\n%s", stdout)
	}
	if want := "(target " + filepath.Join("solutions", "tokenbucket") + "/,"; !strings.Contains(stdout, want) {
		t.Errorf("submit's report does not name the folder submitted (%q):\n%s", want, stdout)
	}

	// The dashboard's websocket saw it queued, running, done, with the cell.
	// The deadline only guards against a hang: the grading and the regrade
	// below share it, and under -race on a busy machine (other class tests
	// grade beside this one) 30 s was not enough.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var seen []string
	var done class.Event
	for done.Type != event.Grade {
		if err := wsjson.Read(ctx, dash, &done); err != nil {
			t.Fatalf("dashboard websocket after %v: %v", seen, err)
		}
		seen = append(seen, string(done.Type))
	}
	if strings.Join(seen, ",") != "queued,running,grade" || done.Learner != "ada" || done.Cell == nil || !done.Cell.Graded || done.Cell.Best < 31 {
		t.Errorf("dashboard events %v, grade %+v; want queued,running,grade for ada with a graded cell", seen, done)
	}
	id := done.Submission

	// The dashboard, the drill-down (with the reference figure measured
	// in the same run) and the CSV.
	code, page := get(t, prof, s.URL+"/class/dashboard")
	if code != http.StatusOK || !strings.Contains(page, `data-testid="cell-ada-tokenbucket"><a href="/class/submissions/`+strconv.FormatInt(id, 10)) {
		t.Errorf("dashboard: %d, ada's cell missing or not linked to submission %d", code, id)
	}
	code, page = get(t, prof, s.URL+"/class/submissions/"+strconv.FormatInt(id, 10))
	for _, want := range []string{`data-testid="report"`, `data-testid="check-tokenbucket/budget"`, `data-testid="ref-ns-per-op"`, `data-testid="file-tokenbucket.go"`} {
		if code != http.StatusOK || !strings.Contains(page, want) {
			t.Errorf("drill-down into submission %d: %d, lacks %s", id, code, want)
		}
	}
	code, body := get(t, prof, s.URL+"/class/gradebook.csv")
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if code != http.StatusOK || err != nil || len(rows) != 4 || rows[0][0] != "learner" || rows[1][0] != "ada" || rows[1][1] == "" {
		t.Errorf("gradebook.csv: %d %v\n%s", code, err, body)
	}

	// Who may see what.
	if st := getSubmission(t, s, tokens["bob"], id); st.State != "404 Not Found" {
		t.Errorf("bob reading ada's submission: %s, want 404", st.State)
	}
	anon := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, path := range []string{"/class/dashboard", "/class/gradebook.csv", "/class/me"} {
		if code, _ := get(t, anon, s.URL+path); code != http.StatusSeeOther {
			t.Errorf("GET %s signed out: %d, want 303 to the login page", path, code)
		}
	}
	for _, path := range []string{"/class/dashboard", "/class/gradebook.csv"} {
		req, _ := http.NewRequest(http.MethodGet, s.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+tokens["bob"])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("GET %s as a learner: %d, want 403", path, resp.StatusCode)
		}
	}
	if code, _ := get(t, anon, s.URL+"/class/submissions/"+strconv.FormatInt(id, 10)); code != http.StatusSeeOther {
		t.Errorf("a stranger reading a submission: %d, want 303 to the login page", code)
	}
	// A form without its CSRF token is refused; with it, regrade queues.
	resp, err := prof.PostForm(s.URL+"/class/regrade", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("regrade without the CSRF token: %d, want 403", resp.StatusCode)
	}
	resp, err = prof.PostForm(s.URL+"/class/regrade", map[string][]string{"_csrf": {csrf}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/class/dashboard?regraded=1" {
		t.Errorf("regrade: %d to %q, want 303 to /class/dashboard?regraded=1", resp.StatusCode, resp.Header.Get("Location"))
	}
	for done = (class.Event{}); done.Type != event.Grade; {
		if err := wsjson.Read(ctx, dash, &done); err != nil {
			t.Fatalf("dashboard websocket during the regrade: %v", err)
		}
	}
	if done.Submission != id {
		t.Errorf("regrade graded submission %d, want %d", done.Submission, id)
	}

	// The throttle: carol's budget is 3 at once, then one an hour.
	for i := range 4 {
		code, hdr, body := post(t, s, tokens["carol"], "tokenbucket", upload{"tokenbucket.go", "package main\n"})
		if i < 3 {
			if code != http.StatusUnprocessableEntity {
				t.Errorf("carol's submission %d: %d %v, want 422 (wrong package)", i, code, body)
			}
			continue
		}
		msg, _ := body["error"].(string)
		retry, _ := strconv.Atoi(hdr.Get("Retry-After"))
		if code != http.StatusTooManyRequests || retry < 3500 || retry > 3600 || !strings.Contains(msg, "refills in") {
			t.Errorf("carol's 4th submission: %d Retry-After %q %q; want 429, about 3600s, and when it refills", code, hdr.Get("Retry-After"), msg)
		}
	}
}
