package due_test

import (
	"testing"
	"time"

	"ratelab/internal/due"
	"ratelab/internal/store"
)

var paris = mustZone("Europe/Paris")

func mustZone(name string) *time.Location {
	loc, err := due.Zone(name)
	if err != nil {
		panic(err)
	}
	return loc
}

func at(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := due.ParseTime(s, paris)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestJudge(t *testing.T) {
	dueAt := at(t, "2027-02-10T23:59")
	cutoff := at(t, "2027-02-13T23:59")
	accept := due.Deadline{Due: dueAt, Policy: due.Accept}
	penalty := due.Deadline{Due: dueAt, Policy: due.Penalty, PenaltyPct: 10, Cutoff: cutoff}
	refuse := due.Deadline{Due: dueAt, Policy: due.Refuse}
	cases := []struct {
		name    string
		d       due.Deadline
		at      time.Time
		onTime  bool
		refused bool
		days    int
		counted float64 // of a score of 33
	}{
		{"accept, on the due date itself", accept, dueAt, true, false, 0, 33},
		{"accept, a second before", accept, dueAt.Add(-time.Second), true, false, 0, 33},
		{"accept, a nanosecond late", accept, dueAt.Add(1), false, false, 1, 33},
		{"penalty, a minute late: one day", penalty, dueAt.Add(time.Minute), false, false, 1, 29.7},
		{"penalty, exactly a day late: one day", penalty, dueAt.Add(24 * time.Hour), false, false, 1, 29.7},
		{"penalty, a day and a second: two days", penalty, dueAt.Add(24*time.Hour + time.Second), false, false, 2, 26.4},
		{"penalty, at the cut-off", penalty, cutoff, false, false, 3, 23.1},
		{"penalty, after the cut-off: refused", penalty, cutoff.Add(time.Second), false, true, 4, 0},
		{"refuse, a second late", refuse, dueAt.Add(time.Second), false, true, 1, 0},
		{"refuse, on time", refuse, dueAt.Add(-time.Hour), true, false, 0, 33},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.d.Judge(c.at)
			if m.OnTime != c.onTime || m.Refused != c.refused || m.DaysLate != c.days {
				t.Errorf("Judge(%s) = %+v; want on time %v, refused %v, %d days late", c.at, m, c.onTime, c.refused, c.days)
			}
			if got := m.Counted(33); got != c.counted {
				t.Errorf("Counted(33) = %v; want %v", got, c.counted)
			}
		})
	}
}

func TestPenaltyRoundsToHundredthsAndStopsAtZero(t *testing.T) {
	d := due.Deadline{Due: at(t, "2027-02-10T23:59"), Policy: due.Penalty, PenaltyPct: 7}
	if got := d.Judge(d.Due.Add(time.Hour)).Counted(33.33); got != 31 { // 33.33 × 0.93 = 30.9969
		t.Errorf("33.33 one day late at 7%%/day counts %v; want 31 (30.9969 to hundredths)", got)
	}
	if got := d.Judge(d.Due.Add(20 * 24 * time.Hour)).Counted(35); got != 0 {
		t.Errorf("20 days late at 7%%/day counts %v; want 0, never negative", got)
	}
}

func TestForPrecedence(t *testing.T) {
	week1 := at(t, "2027-02-10T23:59")
	gcraOwn := at(t, "2027-02-12T23:59")
	s := &due.Schedule{Zone: paris,
		Dates: []store.DueDate{
			{Exercise: "gcra", At: gcraOwn, Policy: "refuse"},
			{Week: 1, At: week1, Policy: "penalty", PenaltyPct: 10, Cutoff: week1.Add(48 * time.Hour)},
		},
		Extensions: []store.Extension{
			{Learner: "ada", Week: 1, Until: week1.Add(24 * time.Hour)},
			{Learner: "bob", Exercise: "tokenbucket", Until: week1.Add(72 * time.Hour)},
			{Learner: "bob", Week: 1, Until: week1.Add(12 * time.Hour)},
			{Learner: "eve", Week: 1, Until: week1.Add(-time.Hour)},
		}}
	cases := []struct {
		learner, exercise string
		due, cutoff       time.Time
		of                string
		extended          bool
	}{
		{"cy", "tokenbucket", week1, week1.Add(48 * time.Hour), "week 1", false},
		{"cy", "gcra", gcraOwn, time.Time{}, "exercise gcra", false},
		{"ada", "tokenbucket", week1.Add(24 * time.Hour), week1.Add(72 * time.Hour), "week 1", true},
		{"ada", "gcra", gcraOwn, time.Time{}, "exercise gcra", false}, // the week's extension is earlier than gcra's own
		{"bob", "tokenbucket", week1.Add(72 * time.Hour), week1.Add(120 * time.Hour), "week 1", true},
		{"eve", "tokenbucket", week1, week1.Add(48 * time.Hour), "week 1", false}, // an extension never moves a due date earlier
	}
	for _, c := range cases {
		dl, ok := s.For(c.learner, c.exercise)
		if !ok || !dl.Due.Equal(c.due) || !dl.Cutoff.Equal(c.cutoff) || dl.Of != c.of || dl.Extended != c.extended {
			t.Errorf("For(%s, %s) = %+v, %v; want due %s, cut-off %s, of %s, extended %v", c.learner, c.exercise, dl, ok, c.due, c.cutoff, c.of, c.extended)
		}
	}
	if dl, ok := s.For("ada", "slidingwindow"); ok {
		t.Errorf("For(ada, slidingwindow) = %+v; want none (week 2 has no due date)", dl)
	}
}

// A due date given in Europe/Paris is stored as the right instant on
// either side of the spring's change of the clocks (28 March 2027), and
// a time the clocks skip is refused.
func TestParseTimeAcrossDST(t *testing.T) {
	cases := []struct{ in, utc string }{
		{"2027-03-27T23:59", "2027-03-27T22:59:00Z"}, // CET, UTC+1
		{"2027-03-28T23:59", "2027-03-28T21:59:00Z"}, // CEST, UTC+2
		{"2027-03-28T01:59", "2027-03-28T00:59:00Z"}, // the last minute before the change
		{"2027-03-28T03:00", "2027-03-28T01:00:00Z"}, // the first after it
		{"2027-10-31T02:30", "2027-10-31T01:30:00Z"}, // shown twice in autumn: the later, CET
		{"2027-02-10T23:59:00+01:00", "2027-02-10T22:59:00Z"},
	}
	for _, c := range cases {
		got, err := due.ParseTime(c.in, paris)
		if err != nil || got.Format(time.RFC3339) != c.utc {
			t.Errorf("ParseTime(%s, Paris) = %s, %v; want %s", c.in, got.Format(time.RFC3339), err, c.utc)
		}
	}
	if got, err := due.ParseTime("2027-03-28T02:30", paris); err == nil {
		t.Errorf("ParseTime(2027-03-28T02:30, Paris) = %s; want an error: the clocks skip 02:00 to 03:00 that day", got)
	}
	if _, err := due.ParseTime("10/02/2027", paris); err == nil {
		t.Error("ParseTime(10/02/2027) did not fail; want an error showing the form to use")
	}
}

func TestLeftWords(t *testing.T) {
	d := due.Deadline{Due: at(t, "2027-02-10T23:59"), Policy: due.Penalty, PenaltyPct: 10, Cutoff: at(t, "2027-02-13T23:59")}
	cases := []struct {
		now  time.Time
		want string
	}{
		{d.Due.Add(-(51*time.Hour + 10*time.Minute)), "due in 2 days 3 h"},
		{d.Due.Add(-90 * time.Second), "due in 1 min"},
		{d.Due.Add(5 * time.Hour), "due date passed 5 h ago — late work is accepted with −10% per started day until Sat 13 Feb 2027 23:59 CET"},
		{d.Cutoff.Add(time.Hour), "due date passed 3 days 1 h ago — late work was accepted until Sat 13 Feb 2027 23:59 CET and is now refused"},
	}
	for _, c := range cases {
		if got := d.Left(c.now, paris); got != c.want {
			t.Errorf("Left(%s) = %q; want %q", c.now, got, c.want)
		}
	}
}
