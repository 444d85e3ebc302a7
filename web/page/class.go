package page

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"ratelab/grader/report"
	"ratelab/internal/class/cell"
	"ratelab/internal/store"
	"ratelab/lab/course"
)

// ClassSubmission is one submission of class mode with its latest grading.
type ClassSubmission struct {
	ID        int64 // the class's, in URLs
	Number    int   // the learner's: her nth submission of the exercise (store.Submission.Number)
	Learner   string
	Exercise  string
	CreatedAt time.Time
	State     store.JobState
	Error     string // why it could not be graded, if so
	Result    *report.Exercise
	Seed      int64
	// ServerFault: Error is the server's problem, not the learner's.
	ServerFault bool
	// MatchesSolution and SameAs flag a possible copy for the instructor
	// to judge: the code's syntax tree (comments and names ignored) is the
	// reference solution's, or other learners' (SameAs names them).
	MatchesSolution bool
	SameAs          []string
	// Late says how late it was against its due date and how its penalty
	// was counted ("late by 5 h (−10% per started day: 1 day late,
	// −10%)"), "" when on time or without one.
	Late string
	// Counts is the score that counts of a graded submission made late,
	// after its penalty ("28"; "0" when the policy refuses it); "" when
	// it is on time (its score counts as it is) or not graded.
	Counts string
}

// copyNote says why a submission is flagged as a possible copy, "" if not.
func copyNote(s ClassSubmission) string {
	var parts []string
	if s.MatchesSolution {
		parts = append(parts, "the reference solution")
	}
	if len(s.SameAs) > 0 {
		parts = append(parts, "the submission of "+strings.Join(s.SameAs, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Same code as " + strings.Join(parts, " and as ") + " (comments and names aside): for the instructor to judge."
}

// ClassFile is one submitted source file.
type ClassFile struct {
	Name    string
	Content string
}

// ClassLearnerView is a learner's class page: their submissions and the
// upload form.
type ClassLearnerView struct {
	Name, CSRF                  string
	Exercises                   []course.Exercise
	Submissions                 []ClassSubmission // newest first
	MaxFileBytes, MaxTotalBytes int64
	Due                         []ClassDueLine // the learner's due dates (class_due.go)
	// Lessons: the class serves the lessons with the learner's code as
	// Yours (/class/lessons/:slug); the page links them.
	Lessons bool
	// Counted is the score that counts of each exercise she has a graded
	// submission of or a due date for, in course order.
	Counted []ClassLearnerCount
}

// ClassLearnerCount is a learner's score that counts for one exercise.
type ClassLearnerCount struct {
	Exercise, Title string
	Text            string // "28 / 35", or "—" when nothing counts yet
	Number          int    // the submission it comes from, 0 if none
	Submission      int64
	Late            bool
}

// ClassSubmissionView is one submission's page (the learner's, or the
// instructor's drill-down).
type ClassSubmissionView struct {
	Submission ClassSubmission
	Files      []ClassFile
	Instructor bool
	SavedAt    time.Time           // when the grading finished, in the reader's zone
	Due        *ClassSubmissionDue // its mark against its due date; nil: none holds
}

// ClassDashboardView is the instructor's dashboard.
type ClassDashboardView struct {
	Instructor, CSRF string
	Exercises        []course.Exercise
	Rows             []ClassRow
	Pitfalls         []ClassPitfalls // one per exercise, in course order
	Recent           []ClassSubmission
	Queued           int
	Regraded         string // "n" after a regrade was queued
	DatabaseAway     string // when the database was last away, if lately; "" if not
	Due              ClassDueView
}

// ClassRow is one learner's line of the gradebook.
type ClassRow struct {
	Learner string
	Cells   []ClassCell // one per exercise, in course order
}

// ClassCell is a learner's standing on one exercise: the scores and the
// state of its grading (cell.Standing, which words them as the live
// updates do), and where it links.
type ClassCell struct {
	cell.Standing
	Exercise   string
	Status     report.Status // of the latest graded submission
	Submission int64         // the latest submission, 0 if none
}

// ClassPitfalls counts, for one exercise, the learners whose latest graded
// result fails each pitfall.
type ClassPitfalls struct {
	Exercise, Title string
	Graded          int                 // learners with a graded result
	Counts          []ClassPitfallCount // the pitfalls hit, most hit first
}

// ClassPitfallCount is one pitfall and how many learners hit it.
type ClassPitfallCount struct {
	Pitfall  string
	Learners int
}

// ClassSubmissionsView is the instructor's list of the submissions behind
// one cell of the pitfalls table: each learner's latest graded submission
// of Exercise whose result fails a check of Pitfall.
type ClassSubmissionsView struct {
	Instructor, CSRF string
	Exercise         course.Exercise
	Pitfall          string
	Submissions      []ClassSubmission
}

func submissionURL(id int64) string { return "/class/submissions/" + strconv.FormatInt(id, 10) }

// submissionName is how a page names a submission: the learner's own
// count, "submission 3".
func submissionName(s ClassSubmission) string { return "submission " + strconv.Itoa(s.Number) }

// pitfallURL lists the submissions counted in one cell of the pitfalls
// table.
func pitfallURL(exercise, pitfall string) string {
	return "/class/submissions?" + url.Values{"exercise": {exercise}, "pitfall": {pitfall}}.Encode()
}

// pitfallRow is one row of the dashboard's pitfalls table.
type pitfallRow struct {
	Exercise, Title, Pitfall string
	Learners, Graded         int
}

// pitfallRows are the table's rows: one per pitfall some learner hits,
// grouped by exercise in course order, most hit first within each (the
// order the page opens in; class.js sorts them by count or back).
//
// Rows are (exercise, pitfall) pairs rather than a matrix of exercises ×
// pitfalls: each exercise has pitfalls of its own (75 in all, few shared:
// exactness, overflow, backward-time, budget), so a matrix would be mostly
// empty cells, and sorting the class's worst pitfalls first would need
// both axes. Pitfalls nobody hits are left out (an exercise lists 5 to 14),
// and an exercise with none hit takes a word in one line under the table
// (quietExercises), not a row.
func pitfallRows(ps []ClassPitfalls) []pitfallRow {
	var rows []pitfallRow
	for _, p := range ps {
		for _, c := range p.Counts {
			rows = append(rows, pitfallRow{Exercise: p.Exercise, Title: p.Title, Pitfall: c.Pitfall, Learners: c.Learners, Graded: p.Graded})
		}
	}
	return rows
}

// quietExercises are the exercises no learner's latest graded result fails
// a pitfall of (graded or not).
func quietExercises(ps []ClassPitfalls) []ClassPitfalls {
	var out []ClassPitfalls
	for _, p := range ps {
		if len(p.Counts) == 0 {
			out = append(out, p)
		}
	}
	return out
}

// heat is the shade of a count, 0 to 4: the share of the exercise's graded
// learners who hit the pitfall, in quarters (1: up to a quarter, 4: more
// than three quarters). Three learners of three is worse than three of
// thirty; lab.css gives each level a background and a text colour that
// keep 4.5:1 contrast in both colour schemes.
func heat(learners, graded int) string {
	if learners <= 0 || graded <= 0 {
		return "0"
	}
	return strconv.Itoa(min(4, max(1, (4*learners+graded-1)/graded)))
}

// stateLabel says where a submission is.
func stateLabel(s ClassSubmission) string {
	switch {
	case s.State == store.Queued:
		return "queued"
	case s.State == store.Running:
		return "grading"
	case s.State == store.Superseded:
		return "superseded by a newer submission"
	case s.Error != "" && s.ServerFault:
		return "not graded (server problem)"
	case s.Error != "":
		return "not graded"
	case s.Result != nil:
		return statusLabel(s.Result.Status) + " · " + points(s.Result.Score, s.Result.MaxScore)
	}
	return string(s.State)
}

func kib(n int64) string { return strconv.FormatInt(n>>10, 10) + " KiB" }

// showsReport reports whether a submission's page shows its report: it
// was graded, and is neither waiting, running again, superseded nor in
// error.
func showsReport(s ClassSubmission) bool {
	return s.State != store.Queued && s.State != store.Running && s.State != store.Superseded && s.Error == "" && s.Result != nil
}
