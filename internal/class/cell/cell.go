package cell

import (
	"strconv"

	"ratelab/internal/store"
)

// Standing is what a dashboard cell says of one learner and one exercise.
// The zero value is a learner who has submitted nothing.
type Standing struct {
	// Graded reports whether some grading of theirs finished with a result.
	Graded bool
	// Best is the best score over every grading, Latest that of the latest
	// graded submission, Max the exercise's points.
	Best, Latest, Max float64
	// State is the state of the latest submission's latest job: queued or
	// running while it is graded (a new submission, or a regrade).
	State store.JobState
}

// grading reports whether the latest submission's grading is under way.
func (s Standing) grading() bool { return s.State == store.Queued || s.State == store.Running }

// Text is the cell's score: the best score out of the exercise's points
// ("10 / 25": a bare "10 / 10" read as full marks), then the latest score
// when it differs ("25 / 25 (latest 18)"); "grading…" before any grade,
// while one is under way, and "—" before any submission.
//
// A grading under way never changes it: the standing score stays until
// the new result is stored whole (Note says it is being graded), so a
// regrade never shows a lower score in its middle.
func (s Standing) Text() string {
	if !s.Graded {
		if s.grading() {
			return "grading…"
		}
		return "—"
	}
	t := num(s.Best) + " / " + num(s.Max)
	if s.Latest != s.Best {
		t += " (latest " + num(s.Latest) + ")"
	}
	return t
}

// Note is the small word beside a graded cell's score while a newer
// grading of it is under way ("grading…", a new submission or a regrade
// alike), and "" otherwise.
func (s Standing) Note() string {
	if s.Graded && s.grading() {
		return "grading…"
	}
	return ""
}

// num writes a score as the pages do: whole numbers bare, others with one
// decimal.
func num(f float64) string {
	if f == float64(int64(f)) && f < 1e15 && f > -1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', 1, 64)
}
