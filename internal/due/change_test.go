package due_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"ratelab/internal/due"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// clock is a time tests step by hand.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func remarks(c store.DueChange) []string {
	var out []string
	for _, r := range c.Remarked {
		mark := "late"
		if r.OnTime {
			mark = "on time"
		}
		out = append(out, r.Learner+" "+r.Exercise+" "+mark)
	}
	return out
}

// Moving a due date later lists who changes from late to on time, an
// extension lists its learner's, and the record keeps both; the time
// zone is stored with the course.
func TestChangesListWhoseMarkChanged(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		ctx := t.Context()
		clk := &clock{now: at(t, "2027-02-01T09:00")}
		st, err := store.Open(ctx, target, clk)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.SetCourseZone(ctx, "Europe/Paris"); err != nil {
			t.Fatal(err)
		}
		users := map[string]store.User{}
		for _, n := range []string{"ada", "bob", "cy"} {
			u, err := st.AddLearner(ctx, n, []byte("hash-"+n))
			if err != nil {
				t.Fatal(err)
			}
			users[n] = u
		}
		submit := func(who, exercise, when string) {
			t.Helper()
			clk.now = at(t, when)
			if _, err := st.Submit(ctx, users[who].ID, exercise, []store.File{{Name: exercise + ".go", Content: []byte("package " + exercise)}}); err != nil {
				t.Fatal(err)
			}
		}
		submit("ada", "tokenbucket", "2027-02-10T22:00") // on time
		submit("bob", "tokenbucket", "2027-02-11T10:00") // 10 h late
		submit("cy", "gcra", "2027-02-12T10:00")         // 34 h late
		submit("cy", "slidingwindow", "2027-02-12T10:00")

		clk.now = at(t, "2027-02-13T09:00")
		c, err := due.Set(ctx, st, due.Rule{Week: 1, At: at(t, "2027-02-10T23:59")})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := remarks(c), []string{"bob tokenbucket late", "cy gcra late"}; !slices.Equal(got, want) {
			t.Errorf("setting week 1's due date re-marked %q; want %q", got, want)
		}
		s, err := due.Load(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if s.Zone.String() != "Europe/Paris" || len(s.Dates) != 1 || !s.Dates[0].At.Equal(time.Date(2027, 2, 10, 22, 59, 0, 0, time.UTC)) {
			t.Errorf("schedule = zone %s, dates %+v; want Europe/Paris and week 1 due 22:59 UTC", s.Zone, s.Dates)
		}

		c, err = due.Set(ctx, st, due.Rule{Week: 1, At: at(t, "2027-02-11T23:59")})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := remarks(c), []string{"bob tokenbucket on time"}; !slices.Equal(got, want) {
			t.Errorf("moving week 1's due date a day later re-marked %q; want %q", got, want)
		}

		c, err = due.Extend(ctx, st, "cy", 0, "gcra", at(t, "2027-02-12T12:00"))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := remarks(c), []string{"cy gcra on time"}; !slices.Equal(got, want) {
			t.Errorf("extending cy's gcra re-marked %q; want %q", got, want)
		}
		if _, err := due.Extend(ctx, st, "nobody", 1, "", at(t, "2027-02-12T12:00")); err == nil {
			t.Error("extending for a learner not on the roster did not fail")
		}
		// An extension that would move a due date earlier, or one of a week
		// with no due date, would do nothing: refused, saying why.
		for _, bad := range []struct {
			week     int
			exercise string
			until    string
			want     string
		}{
			{1, "", "2027-02-11T12:00", "must come after the due date"},
			{0, "gcra", "2027-02-11T23:59", "must come after the due date"},
			{2, "", "2027-03-01T12:00", "week 2 has no due date to extend"},
		} {
			if _, err := due.Extend(ctx, st, "ada", bad.week, bad.exercise, at(t, bad.until)); err == nil || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("Extend(ada, week %d, %q, %s) = %v; want an error saying %q", bad.week, bad.exercise, bad.until, err, bad.want)
			}
		}

		c, err = due.Clear(ctx, st, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Remarked) != 0 { // every late one is on time without a due date, none was late still
			t.Errorf("clearing week 1 re-marked %q; want none (no submission was late any more)", remarks(c))
		}
		if _, err := due.Clear(ctx, st, 1, ""); err == nil {
			t.Error("clearing week 1 twice did not fail")
		}

		changes, err := st.DueChanges(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(changes) != 4 || changes[2].What != "week 1 due Thu 11 Feb 2027 23:59 CET; late work is accepted, marked late (was due Wed 10 Feb 2027 23:59 CET)" ||
			!slices.Equal(remarks(changes[2]), []string{"bob tokenbucket on time"}) {
			t.Errorf("DueChanges = %+v; want 4, newest first, the move's words and its re-mark kept", changes)
		}
	})
}

func TestSetRefusesNonsense(t *testing.T) {
	st, err := store.Open(t.Context(), t.TempDir()+"/class.db", &clock{now: time.Unix(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	when := at(t, "2027-02-10T23:59")
	for _, r := range []due.Rule{
		{At: when},
		{Week: 1, Exercise: "gcra", At: when},
		{Week: 99, At: when},
		{Exercise: "nosuch", At: when},
		{Week: 1, At: when, Policy: due.Penalty},
		{Week: 1, At: when, Policy: due.Penalty, PenaltyPct: 10, Cutoff: when.Add(-time.Hour)},
		{Week: 1, At: when, Policy: due.Accept, PenaltyPct: 10},
	} {
		if _, err := due.Set(t.Context(), st, r); err == nil {
			t.Errorf("Set(%+v) did not fail", r)
		}
	}
}
