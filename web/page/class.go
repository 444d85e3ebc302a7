package page

import (
	"strconv"
	"strings"
	"time"

	"ratelab/grader/report"
	"ratelab/internal/store"
	"ratelab/lab/course"
)

// ClassSubmission is one submission of class mode with its latest grading.
type ClassSubmission struct {
	ID        int64
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
}

// ClassSubmissionView is one submission's page (the learner's, or the
// instructor's drill-down).
type ClassSubmissionView struct {
	Submission ClassSubmission
	Files      []ClassFile
	Instructor bool
	SavedAt    time.Time // when the grading finished, in the reader's zone
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
}

// ClassRow is one learner's line of the gradebook.
type ClassRow struct {
	Learner string
	Cells   []ClassCell // one per exercise, in course order
}

// ClassCell is a learner's standing on one exercise.
type ClassCell struct {
	Exercise     string
	Graded       bool
	Best, Latest float64
	Max          float64
	Status       report.Status  // of the latest graded submission
	State        store.JobState // of the latest submission's grading
	Submission   int64          // the latest submission, 0 if none
}

// ClassPitfalls counts, for one exercise, the learners whose latest graded
// result fails each pitfall.
type ClassPitfalls struct {
	Exercise string
	Graded   int
	Counts   []ClassPitfallCount
}

// ClassPitfallCount is one pitfall and how many learners hit it.
type ClassPitfallCount struct {
	Pitfall  string
	Learners int
}

func submissionURL(id int64) string { return "/class/submissions/" + strconv.FormatInt(id, 10) }

// cellText is a gradebook cell as text: the best score out of the
// exercise's maximum ("10 / 25": a bare "10 / 10" read as full marks), then
// the latest score when it is lower ("25 / 25 (latest 18)"); a dash before
// any grade. web/static/class.js writes the same for live updates.
func cellText(c ClassCell) string {
	if !c.Graded {
		if c.State == store.Queued || c.State == store.Running {
			return "grading…"
		}
		return "—"
	}
	s := num(c.Best) + " / " + num(c.Max)
	if c.Latest != c.Best {
		s += " (latest " + num(c.Latest) + ")"
	}
	return s
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
