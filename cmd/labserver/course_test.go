package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// course due, extend and show as an instructor types them: a due date in
// Europe/Paris on either side of the spring's change of the clocks is
// stored as the right instant, a submission's mark changes when the due
// date moves later and the command says whose, and bad input says what
// to do.
func TestCourseCommand(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		db, _ = setupClassOn(t, db, "ada", "bob")
		st := openTestStore(t, db)
		course := func(args ...string) (string, string) {
			t.Helper()
			out, stderr, code := labserver(t, "", append([]string{"course"}, args...)...)
			if code != 0 {
				t.Fatalf("labserver course %s: exit %d\n%s%s", strings.Join(args, " "), code, out, stderr)
			}
			return out, stderr
		}
		course("due", "--db", db, "--week", "1", "--at", "2027-03-27T23:59", "--tz", "Europe/Paris",
			"--late", "penalty", "--penalty", "10", "--cutoff", "2027-03-30T23:59")
		course("due", "--db", db, "--exercise", "gcra", "--at", "2027-03-28T23:59", "--late", "refuse")
		dates, err := st.DueDates(t.Context())
		if err != nil || len(dates) != 2 {
			t.Fatalf("DueDates = %+v, %v; want week 1's and gcra's", dates, err)
		}
		want := map[string][2]time.Time{
			"":     {time.Date(2027, 3, 27, 22, 59, 0, 0, time.UTC), time.Date(2027, 3, 30, 21, 59, 0, 0, time.UTC)}, // CET, cut-off in CEST
			"gcra": {time.Date(2027, 3, 28, 21, 59, 0, 0, time.UTC)},                                                 // CEST
		}
		for _, d := range dates {
			if w := want[d.Exercise]; !d.At.Equal(w[0]) || !d.Cutoff.Equal(w[1]) {
				t.Errorf("stored %q: due %s, cut-off %s; want %s, %s", d.Exercise, d.At, d.Cutoff, w[0], w[1])
			}
		}

		// ada submits tokenbucket after week 1's due date: the command
		// that moves it later names her submission, now on time.
		u := learner(t, st, "ada")
		st2, err := store.Open(t.Context(), db, fixed(time.Date(2027, 3, 28, 8, 0, 0, 0, time.UTC)))
		if err != nil {
			t.Fatal(err)
		}
		sub, err := st2.Submit(t.Context(), u.ID, "tokenbucket", []store.File{{Name: "tokenbucket.go", Content: []byte("package tokenbucket")}})
		st2.Close()
		if err != nil {
			t.Fatal(err)
		}
		out, _ := course("due", "--db", db, "--week", "1", "--at", "2027-03-29T23:59", "--late", "accept")
		if !strings.Contains(out, "re-marked: ada's tokenbucket (submission "+strconv.FormatInt(sub.ID, 10)+") now on time (was late)") ||
			!strings.Contains(out, "was due Sat 27 Mar 2027 23:59 CET") {
			t.Errorf("moving week 1's due date printed:\n%s\nwant ada's submission re-marked on time and the old due date", out)
		}
		course("extend", "--db", db, "--learner", "bob", "--exercise", "gcra", "--until", "2027-03-31T12:00")
		out, _ = course("show", "--db", db)
		for _, w := range []string{
			"Time zone: Europe/Paris",
			"week 1         Mon 29 Mar 2027 23:59 CEST  late work is accepted, marked late",
			"exercise gcra  Sun 28 Mar 2027 23:59 CEST  late work is refused",
			"bob: exercise gcra until Wed 31 Mar 2027 12:00 CEST",
			"re-marked: ada's tokenbucket",
		} {
			if !strings.Contains(out, w) {
				t.Errorf("course show printed:\n%s\nwant a line with %q", out, w)
			}
		}
		course("due", "--db", db, "--exercise", "gcra", "--clear")
		course("extend", "--db", db, "--learner", "bob", "--exercise", "gcra", "--clear")
		if s, _ := course("show", "--db", db); strings.Contains(s, "exercise gcra  ") || strings.Contains(s, "bob: exercise gcra until") {
			t.Errorf("after clearing gcra's due date and bob's extension, course show printed:\n%s", s)
		}

		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"due", "--db", db, "--week", "1", "--at", "2027-03-28T02:30"}, "does not exist in Europe/Paris"},
			{[]string{"due", "--db", db, "--week", "1", "--at", "2027-03-28T12:00", "--tz", "Paris"}, "use an IANA name such as Europe/Paris"},
			{[]string{"due", "--db", db, "--week", "9", "--at", "2027-03-28T12:00"}, "no week 9"},
			{[]string{"due", "--db", db, "--week", "1"}, "give the due date"},
			{[]string{"due", "--db", db, "--week", "1", "--at", "2027-03-28T12:00", "--late", "never"}, "late policy \"never\""},
			{[]string{"extend", "--db", db, "--learner", "zed", "--week", "1", "--until", "2027-04-01T12:00"}, "no learner called \"zed\""},
			{[]string{"frobnicate"}, "unknown subcommand"},
		} {
			if _, stderr, code := labserver(t, "", append([]string{"course"}, c.args...)...); code != 2 || !strings.Contains(stderr, c.want) {
				t.Errorf("labserver course %s: exit %d\n%s\nwant 2, saying %q", strings.Join(c.args, " "), code, stderr, c.want)
			}
		}
	})
}

type fixed time.Time

func (f fixed) Now() time.Time { return time.Time(f) }

func learner(t *testing.T, st *store.Store, name string) store.User {
	t.Helper()
	us, err := st.Users(t.Context(), store.Learner)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range us {
		if u.Name == name {
			return u
		}
	}
	t.Fatalf("no learner %s", name)
	return store.User{}
}

// submit says when a submission is late, and prints the server's refusal
// (the due date, whom to ask) when the late policy refuses it.
func TestSubmitPastDueDate(t *testing.T) {
	db, tokens := setupClass(t, "ada")
	past := time.Now().Add(-5 * time.Hour).UTC().Format(time.RFC3339)
	if _, stderr, code := labserver(t, "", "course", "due", "--db", db, "--exercise", "tokenbucket", "--at", past); code != 0 {
		t.Fatalf("course due: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := labserver(t, "", "course", "due", "--db", db, "--exercise", "gcra", "--at", past, "--late", "refuse"); code != 0 {
		t.Fatalf("course due: exit %d\n%s", code, stderr)
	}
	s := startClassServer(t, db, "--no-bench")
	_, stderr, code := labserver(t, "", "submit", "--server", s.URL, "--token", tokens["ada"], "--no-follow",
		"--exercise", "tokenbucket", "--dir", "solutions/tokenbucket")
	if code != 0 || !strings.Contains(stderr, "tokenbucket: after its due date: late by 5 h") {
		t.Errorf("submit 5 h after tokenbucket's due date (accept): exit %d\n%s\nwant 0, saying it is late by 5 h", code, stderr)
	}
	_, stderr, code = labserver(t, "", "submit", "--server", s.URL, "--token", tokens["ada"], "--no-follow",
		"--exercise", "gcra", "--dir", "solutions/gcra")
	if code != 2 || !strings.Contains(stderr, "gcra: not accepted (403 Forbidden): Too late: gcra was due") || !strings.Contains(stderr, "Ask your instructor (prof) for an extension.") {
		t.Errorf("submit after gcra's due date (refuse): exit %d\n%s\nwant 2 with the server's refusal", code, stderr)
	}
}
