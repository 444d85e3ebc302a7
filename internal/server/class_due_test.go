package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"ratelab/internal/store/storetest"
)

// stepClock is a time a test steps by hand.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *stepClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func dueDoc(t *testing.T, r reply) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// dueForm posts one of the dashboard's due-date forms (formID) with the
// CSRF token the dashboard's form holds.
func dueForm(t *testing.T, b *browser, action, formID string, form url.Values) reply {
	t.Helper()
	d := b.get("/class/dashboard")
	tok, ok := dueDoc(t, d).Find(`[data-testid=` + formID + `] input[name=_csrf]`).Attr("value")
	if d.code != http.StatusOK || !ok {
		t.Fatalf("GET /class/dashboard = %d with no %s form", d.code, formID)
	}
	form.Set("_csrf", tok)
	return b.postForm(action, form)
}

type submissionMark struct {
	OnTime *bool  `json:"on_time"`
	DueAt  string `json:"due_at"`
}

func (f *classFixture) mark(t *testing.T, token string, id int64) submissionMark {
	t.Helper()
	r := f.browser(t).get("/class/submissions/"+strconv.FormatInt(id, 10), "Authorization", "Bearer "+token, "Accept", "application/json")
	var m submissionMark
	if r.code != http.StatusOK || json.Unmarshal([]byte(r.body), &m) != nil || m.OnTime == nil {
		t.Fatalf("GET submission %d = %d %s; want 200 with on_time", id, r.code, r.body)
	}
	return m
}

// The instructor sets a due date on the dashboard (in Europe/Paris); a
// submission before it is on time, one after it is refused under
// "refuse" with the due date and whom to ask, accepted and marked late
// under "accept"; moving it later lists the submission re-marked on
// time; an extension is listed; learners see their due date and the time
// left.
func TestClassDueDates(t *testing.T) { storetest.Each(t, testClassDueDates) }

func testClassDueDates(t *testing.T, target string) {
	clk := &stepClock{t: classNow} // Mon 2 Mar 2026 09:00 UTC, 10:00 in Paris
	f := newClassWith(t, fixtureOptions{target: target, clock: clk})
	prof := f.instructor(t)

	if d := dueDoc(t, prof.get("/class/dashboard")); d.Find("[data-testid=no-due-dates]").Length() != 1 {
		t.Error("the dashboard of a class without due dates does not say there are none")
	}
	set := func(form url.Values) {
		t.Helper()
		if r := dueForm(t, prof, "/class/course/due", "due-form", form); r.code != http.StatusSeeOther {
			t.Fatalf("POST /class/course/due %v = %d %s; want 303", form, r.code, r.body)
		}
	}
	set(url.Values{"target": {"week:1"}, "at": {"2026-03-02T12:00"}, "tz": {"Europe/Paris"}, "late": {"refuse"}})
	d := dueDoc(t, prof.get("/class/dashboard"))
	if got := d.Find("[data-testid='due-week:1']").Text(); !strings.Contains(got, "Mon 2 Mar 2026 12:00 CET") || !strings.Contains(got, "late work is refused") {
		t.Errorf("the dashboard's row of week 1 = %q; want due Mon 2 Mar 2026 12:00 CET, late work refused", got)
	}
	if zone, err := f.st.CourseZone(t.Context()); err != nil || zone != "Europe/Paris" {
		t.Errorf("the course's zone = %q, %v; want Europe/Paris (the form's tz sets it)", zone, err)
	}

	onTime := f.submit(t, adaToken)
	f.finish(t, 20)
	if m := f.mark(t, adaToken, onTime); !*m.OnTime || m.DueAt != "2026-03-02T11:00:00Z" {
		t.Errorf("ada's submission at 10:00 Paris: on_time %v, due_at %q; want true, 2026-03-02T11:00:00Z", *m.OnTime, m.DueAt)
	}

	clk.set(classNow.Add(2*time.Hour + 30*time.Minute)) // 12:30 in Paris
	ct, body := multipartBody(t, exercise("tokenbucket"), file("tokenbucket.go", okSource))
	r := f.upload(t, adaToken, ct, body)
	if r.code != http.StatusForbidden || !strings.Contains(r.body, "Too late: tokenbucket was due Mon 2 Mar 2026 12:00 CET") || !strings.Contains(r.body, "Ask your instructor (prof) for an extension") {
		t.Errorf("a submission after the due date under refuse = %d %s; want 403 saying the due date and whom to ask", r.code, r.body)
	}
	ada := f.browser(t)
	if r := ada.signIn(url.Values{"token": {adaToken}}); r.code != http.StatusSeeOther {
		t.Fatalf("ada signing in = %d", r.code)
	}
	if got := dueDoc(t, ada.get("/class/me")).Find("[data-testid=due-line-tokenbucket]").Text(); !strings.Contains(got, "due date passed 30 min ago — late work is refused") {
		t.Errorf("ada's page says of the token bucket %q; want the due date passed 30 min ago, late work refused", got)
	}
	if ex := dueDoc(t, ada.get("/class/exercises/tokenbucket")); ex.Find("[data-testid=due-lines] li").Length() != 1 ||
		!strings.Contains(ex.Find("[data-testid=due-line-tokenbucket]").Text(), "due date passed 30 min ago") {
		t.Error("ada's page of the token bucket does not say its due date passed 30 min ago (and only its own)")
	}

	set(url.Values{"target": {"week:1"}, "at": {"2026-03-02T12:00"}, "late": {"accept"}})
	ct, body = multipartBody(t, exercise("tokenbucket"), file("tokenbucket.go", okSource))
	r = f.upload(t, adaToken, ct, body)
	var accepted struct {
		ID     int64  `json:"id"`
		OnTime *bool  `json:"on_time"`
		Late   string `json:"late"`
	}
	if r.code != http.StatusAccepted || json.Unmarshal([]byte(r.body), &accepted) != nil || accepted.OnTime == nil || *accepted.OnTime || accepted.Late != "late by 30 min" {
		t.Fatalf("a submission 30 min late under accept = %d %s; want 202, on_time false, late by 30 min", r.code, r.body)
	}
	late := accepted.ID
	f.finish(t, 30)
	if got := dueDoc(t, prof.get("/class/dashboard")).Find("[data-testid=counted-ada-tokenbucket]").Text(); !strings.Contains(got, "30") || !strings.Contains(got, "late") {
		t.Errorf("the counted scores say of ada's token bucket %q; want 30, late (accept counts it whole)", got)
	}
	if m := f.mark(t, adaToken, late); *m.OnTime {
		t.Error("a submission 30 min after the due date under accept: on_time true; want false")
	}
	if got := dueDoc(t, ada.get("/class/submissions/"+strconv.FormatInt(late, 10))).Find("[data-testid=submission-due]").Text(); !strings.Contains(got, "late by 30 min") || !strings.Contains(got, "due date passed 30 min ago — late work is accepted, marked late") {
		t.Errorf("the late submission's page says %q; want late by 30 min, and the due date passed 30 min ago", got)
	}

	row := "[data-testid=submission-" + strconv.FormatInt(late, 10) + "] [data-testid=late]"
	if dueDoc(t, ada.get("/class/me")).Find(row).Length() != 1 || dueDoc(t, prof.get("/class/dashboard")).Find(row).Length() != 1 {
		t.Error("the late submission is not marked late in ada's list and the dashboard's")
	}
	if dueDoc(t, ada.get("/class/me")).Find("[data-testid=submission-"+strconv.FormatInt(onTime, 10)+"] [data-testid=late]").Length() != 0 {
		t.Error("the on-time submission is marked late in ada's list")
	}

	// Moved later: the dashboard lists ada's late submission as now on time.
	set(url.Values{"target": {"week:1"}, "at": {"2026-03-02T13:00"}, "late": {"accept"}})
	d = dueDoc(t, prof.get("/class/dashboard"))
	latest := d.Find("[data-testid=due-change]").First()
	if what, re := latest.Text(), latest.Find("[data-testid=remarked] li"); !strings.Contains(what, "was due Mon 2 Mar 2026 12:00 CET") || re.Length() != 1 ||
		!strings.Contains(re.Text(), "ada's tokenbucket (#"+strconv.FormatInt(late, 10)+")") || !strings.Contains(re.Text(), "now on time (was late)") {
		t.Errorf("the dashboard's latest change = %q; want the move, with ada's submission %d now on time", strings.Join(strings.Fields(what), " "), late)
	}
	if m := f.mark(t, adaToken, late); !*m.OnTime {
		t.Error("after the move, the late submission's on_time is still false")
	}
	if got := d.Find("[data-testid=counted-ada-tokenbucket]").Text(); !strings.Contains(got, "30") || !strings.Contains(got, "on time") {
		t.Errorf("the counted scores say of ada's token bucket %q; want 30, on time", got)
	}

	if r := dueForm(t, prof, "/class/course/extend", "extend-form", url.Values{"learner": {"bob"}, "target": {"week:1"}, "until": {"2026-03-04T12:00"}}); r.code != http.StatusSeeOther {
		t.Fatalf("POST /class/course/extend = %d %s; want 303", r.code, r.body)
	}
	if got := dueDoc(t, prof.get("/class/dashboard")).Find("[data-testid='extension-bob-week:1']").Text(); !strings.Contains(got, "Wed 4 Mar 2026 12:00 CET") {
		t.Errorf("the dashboard lists bob's extension as %q; want until Wed 4 Mar 2026 12:00 CET", got)
	}

	// Bad forms change nothing and say why; learners may not post them.
	for _, form := range []url.Values{
		{"target": {"week:1"}, "at": {"next friday"}},
		{"target": {"week:1"}, "at": {"2026-03-29T02:30"}, "tz": {"Europe/Paris"}}, // skipped by the clocks
		{"target": {"week:1"}, "at": {"2026-03-02T12:00"}, "tz": {"Mars/Olympus"}},
		{"target": {"week:1"}, "at": {"2026-03-02T12:00"}, "late": {"penalty"}, "penalty": {"ten"}},
		{"target": {"exercise:nosuch"}, "at": {"2026-03-02T12:00"}},
		// A zone that is fine with a rule that is not: the zone stays too.
		{"target": {"week:1"}, "at": {"2026-03-02T12:00"}, "tz": {"America/New_York"}, "late": {"penalty"}, "penalty": {"150"}},
	} {
		if r := dueForm(t, prof, "/class/course/due", "due-form", form); r.code != http.StatusUnprocessableEntity || !strings.Contains(r.body, "The due date was not changed") {
			t.Errorf("POST /class/course/due %v = %d; want 422 saying nothing changed", form, r.code)
		}
	}
	if zone, err := f.st.CourseZone(t.Context()); err != nil || zone != "Europe/Paris" {
		t.Errorf("the course's zone after the refused forms = %q, %v; want Europe/Paris still", zone, err)
	}
	if r := prof.postForm("/class/course/due", url.Values{"target": {"week:1"}, "clear": {"1"}}); r.code != http.StatusForbidden {
		t.Errorf("POST /class/course/due without the CSRF token = %d; want 403", r.code)
	}
	tok, _ := dueDoc(t, ada.get("/class/me")).Find("[data-testid=upload-form] input[name=_csrf]").Attr("value")
	if r := ada.postForm("/class/course/due", url.Values{"_csrf": {tok}, "target": {"week:1"}, "clear": {"1"}}); r.code == http.StatusSeeOther || r.code == http.StatusOK {
		t.Errorf("a learner clearing a due date = %d; want refused", r.code)
	}
}
