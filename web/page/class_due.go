package page

import (
	"strconv"

	"ratelab/lab/course"
)

// Due dates on the class's pages: the instructor's panel and forms on the
// dashboard, and what a learner sees of their own. The words come from
// package due, through the server; these are plain values.

// ClassDueView is the dashboard's due-dates panel.
type ClassDueView struct {
	CSRF       string
	Zone       string // the course's time zone, e.g. "Europe/Paris"
	Rules      []ClassDueRule
	Extensions []ClassExtension
	Changes    []ClassDueChange // newest first
	Counted    []ClassCountedRow
	// For the forms' choices.
	Weeks     []int
	Exercises []course.Exercise
	Learners  []string
}

// ClassDueRule is one due date as set.
type ClassDueRule struct {
	Of     string // "week 3" or "exercise gcra"
	Target string // the forms' value: "week:3" or "exercise:gcra"
	Due    string // in the course's zone
	DueISO string
	Policy string // what happens to late work, in words
}

// ClassExtension is one learner's extension.
type ClassExtension struct {
	Learner, Of, Target, Until string
}

// ClassDueChange is one change of the due dates and the submissions
// whose on-time mark it changed.
type ClassDueChange struct {
	At       string
	What     string
	Remarked []ClassRemark
}

// ClassRemark is one submission a change re-marked.
type ClassRemark struct {
	Learner, Exercise string
	Submission        int64
	OnTime            bool // the new mark
}

// ClassCountedRow is one learner's scores that count under the due dates.
type ClassCountedRow struct {
	Learner string
	Cells   []ClassCounted // one per exercise, in course order
}

// ClassCounted is the score that counts for one exercise.
type ClassCounted struct {
	Exercise   string
	Text       string // "27" or "" when nothing counts
	Late       bool
	Due        bool // a due date holds
	Submission int64
}

// ClassDueLine is a learner's due date for one exercise, with the time
// left: "due in 2 days 3 h".
type ClassDueLine struct {
	Exercise, Title string
	Due, DueISO     string
	Left            string
	Extended        bool
	Passed          bool
}

// ClassSubmissionDue is a submission's mark against its due date.
type ClassSubmissionDue struct {
	Due    string // the due date, in the course's zone
	DueAt  string // the same, RFC 3339 in UTC
	Mark   string // "on time", "late by 5 h (−10% per started day: 1 day late, −10%)"
	OnTime bool
	Left   string // where the due date stands now: "due in 2 days 3 h", "due date passed …"
}

func weekTarget(w int) string { return "week:" + strconv.Itoa(w) }

func weekLabel(w int) string { return "Week " + strconv.Itoa(w) }
