package due_test

import (
	"testing"

	"ratelab/internal/due"
	"ratelab/internal/store"
)

// TestRefuse: an upload is refused after a refuse policy's due date and
// after a penalty's cut-off, with a message that says when and whom to ask.
func TestRefuse(t *testing.T) {
	s := &due.Schedule{Zone: paris, Dates: []store.DueDate{
		{Exercise: "gcra", At: at(t, "2027-02-10T23:59"), Policy: string(due.Refuse)},
		{Exercise: "tokenbucket", At: at(t, "2027-02-10T23:59"), Policy: string(due.Penalty), PenaltyPct: 10, Cutoff: at(t, "2027-02-13T23:59")},
	}}
	cases := []struct {
		exercise, at string
		want         string // "" when taken
	}{
		{"gcra", "2027-02-10T23:59", ""},
		{"gcra", "2027-02-11T00:00", "gcra was due Wed 10 Feb 2027 23:59 CET (exercise gcra's due date), and late work is refused. Ask your instructor (prof) for an extension."},
		{"tokenbucket", "2027-02-13T23:59", ""},
		{"tokenbucket", "2027-02-14T00:30", "tokenbucket was due Wed 10 Feb 2027 23:59 CET (exercise tokenbucket's due date); late work was accepted until Sat 13 Feb 2027 23:59 CET and is now refused. Ask your instructor (prof) for an extension."},
		{"leakybucket", "2030-01-01T00:00", ""}, // no due date
	}
	for _, c := range cases {
		le := s.Refuse("ada", c.exercise, at(t, c.at))
		got := ""
		if le != nil {
			le.Instructors = []string{"prof"}
			got = le.Error()
		}
		if got != c.want {
			t.Errorf("Refuse(ada, %s, %s) = %q; want %q", c.exercise, c.at, got, c.want)
		}
	}
}
