package live

import (
	"time"

	"ratelab/grader/report"
	"ratelab/internal/event"
)

// Event is one message to the open pages, JSON over a websocket. Its Type
// is one of the live loop's events (package event): Hello, Saved, Built,
// BuildFailed, Check, Grade, NotBuilt, GradeFailed, Resync.
type Event struct {
	Type event.Type `json:"type"`
	// Version is the Yours build served (hello, built): 0 is the lab.wasm
	// the server started with, then 1, 2, ... for each build since.
	Version int64 `json:"version,omitempty"`
	// Files are the Yours builds served anew, as names under /static/
	// (built): a page running Yours from another goes on with it.
	Files []string `json:"files,omitempty"`
	// Exercises are the exercises a save changed (saved), or the one that
	// does not compile (not_built).
	Exercises []string `json:"exercises,omitempty"`
	// Message is the compiler's or the grader's message (hello,
	// build_failed, not_built, grade_failed).
	Message string `json:"message,omitempty"`
	// Check is a check's result (check).
	Check *report.Check `json:"check,omitempty"`
	// Grade is an exercise's grade, final or so far (check, grade).
	Grade *Grade `json:"grade,omitempty"`
	// Grades are the latest saved grades (hello), filled by the server.
	Grades []Grade `json:"grades,omitempty"`
	// Report is the exercise page's report of Grade, as HTML, filled by
	// the server only for the page of that exercise (check, grade).
	Report string `json:"report,omitempty"`
}

// Grade is one exercise's grade as the pages' badges show it.
type Grade struct {
	Exercise string        `json:"exercise"`
	Status   report.Status `json:"status"`
	Score    float64       `json:"score"`
	MaxScore float64       `json:"max_score"`
	// Pending: checks (or the benchmarks) are still to come.
	Pending bool      `json:"pending,omitempty"`
	SavedAt time.Time `json:"saved_at"`
	Seed    int64     `json:"seed"`
	// Label, Class, Points and When are the badge's text, CSS class, score
	// ("20 / 35") and time as the pages write them, filled by the server.
	Label  string `json:"label,omitempty"`
	Class  string `json:"class,omitempty"`
	Points string `json:"points,omitempty"`
	When   string `json:"when,omitempty"`
	// Result is the exercise's result behind the grade, for the server to
	// render the report; not sent.
	Result *report.Exercise `json:"-"`
}

// GradeOf returns the grade of an exercise's result.
func GradeOf(ex *report.Exercise, savedAt time.Time, seed int64, pending bool) Grade {
	return Grade{
		Exercise: ex.ID, Status: ex.Status, Score: ex.Score, MaxScore: ex.MaxScore,
		Pending: pending, SavedAt: savedAt, Seed: seed, Result: ex,
	}
}
