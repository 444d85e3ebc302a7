package server

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/store"
	"ratelab/lab/course"
	"ratelab/web/page"
)

// The class's pages (a learner's home, a submission, the instructor's
// dashboard), their JSON for programs, the CSV gradebook and regrading.

// index sends each user to their page: the login, a learner's home or the
// dashboard.
func (h *classHandlers) index(c echo.Context) error {
	u, ok := currentUser(c)
	switch {
	case !ok:
		return c.Redirect(http.StatusSeeOther, "/class/login")
	case u.Role == store.Instructor:
		return c.Redirect(http.StatusSeeOther, "/class/dashboard")
	}
	return c.Redirect(http.StatusSeeOther, "/class/me")
}

func (h *classHandlers) learnerHome(c echo.Context) error {
	u, _ := currentUser(c)
	subs, err := h.submissions.Submissions(c.Request().Context(), u.ID, 100)
	if err != nil {
		return err
	}
	lim := h.grading.Limits()
	dues, err := h.learnerDue(c.Request().Context(), u.Name, "")
	if err != nil {
		return err
	}
	listed := pageSubmissions(subs, false)
	if err := h.markLate(c.Request().Context(), listed); err != nil {
		return err
	}
	gb, err := h.grading.Gradebook(c.Request().Context())
	if err != nil {
		return err
	}
	numbers := map[int64]int{}
	for _, s := range listed {
		numbers[s.ID] = s.Number
	}
	return render(c, http.StatusOK, page.ClassLearner(page.ClassLearnerView{
		Name: u.Name, CSRF: csrfToken(c), Exercises: grader.Gradable(), Submissions: listed,
		MaxFileBytes: lim.MaxFileBytes, MaxTotalBytes: lim.MaxTotalBytes, Due: dues, Lessons: h.builds != nil,
		Counted: learnerCounted(gb, u.Name, numbers),
	}, h.pageAssets()))
}

// userAssets are the assets of u's class pages: a learner's Yours (the
// lessons' visualizations, Replay) runs her build when the class builds
// them.
func (h *classHandlers) userAssets(u store.User) page.Assets {
	a := h.pageAssets()
	if u.Role == store.Learner && h.builds != nil {
		a = a.WithClassYours(yoursAPI)
	}
	return a
}

// ownSubmission loads submission :id if the user may see it: its learner,
// or an instructor. Others get 404, as if it did not exist.
func (h *classHandlers) ownSubmission(c echo.Context) (store.Submission, error) {
	u, _ := currentUser(c)
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return store.Submission{}, notFound("There is no submission %q.", c.Param("id"))
	}
	sub, err := h.submissions.Submission(c.Request().Context(), id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && u.Role != store.Instructor && sub.UserID != u.ID) {
		return store.Submission{}, notFound("There is no submission %d of yours.", id)
	}
	return sub, err
}

// SubmissionJSON is GET /class/submissions/:id for programs.
type SubmissionJSON struct {
	ID       int64            `json:"id"`
	Learner  string           `json:"learner"`
	Exercise string           `json:"exercise"`
	State    store.JobState   `json:"state"`
	Error    string           `json:"error,omitempty"`
	Result   *report.Exercise `json:"result"`
	// Number is the learner's count of her submissions of the exercise:
	// 1, 2, 3 (ID is the class's).
	Number int `json:"number"`
	// OnTime: made at or before the due date that holds for it now (by
	// the server's clock at submit); true when none holds. DueAt is that
	// due date (RFC 3339, UTC), omitted when none.
	OnTime bool   `json:"on_time"`
	DueAt  string `json:"due_at,omitempty"`
	// Late says how late it was and how its penalty was counted; Counts
	// is its score that counts after the penalty, once graded. Both are
	// omitted when it is on time.
	Late   string   `json:"late,omitempty"`
	Counts *float64 `json:"counts,omitempty"`
}

func (h *classHandlers) submission(c echo.Context) error {
	sub, err := h.ownSubmission(c)
	if err == nil && sub.Kind == store.KindCheck {
		err = notFound("There is no submission %d: it is a check of a draft, at /class/checks/%d.", sub.ID, sub.ID)
	}
	if err != nil {
		return err
	}
	onTime, mark, err := h.submissionMark(c.Request().Context(), sub)
	if err != nil {
		return err
	}
	u, _ := currentUser(c)
	ps := []page.ClassSubmission{pageSubmission(sub, u.Role == store.Instructor)}
	if err := h.markLate(c.Request().Context(), ps); err != nil {
		return err
	}
	if wantsJSON(c) {
		j := SubmissionJSON{ID: sub.ID, Number: sub.Number, Learner: sub.Learner, Exercise: sub.Exercise,
			State: sub.Job.State, Error: sub.Job.Error, Result: sub.Job.Result, OnTime: onTime, Late: ps[0].Late}
		if mark != nil {
			j.DueAt = mark.DueAt
		}
		if n, err := strconv.ParseFloat(ps[0].Counts, 64); err == nil {
			j.Counts = &n
		}
		return c.JSON(http.StatusOK, j)
	}
	return render(c, http.StatusOK, page.ClassSubmissionPage(page.ClassSubmissionView{
		Submission: ps[0], Files: pageFiles(sub.Files), Instructor: u.Role == store.Instructor,
		SavedAt: sub.Job.FinishedAt.In(h.loc), Due: mark,
	}, h.userAssets(u)))
}

func (h *classHandlers) dashboard(c echo.Context) error {
	ctx := c.Request().Context()
	gb, err := h.grading.Gradebook(ctx)
	if err != nil {
		return err
	}
	recent, err := h.submissions.Submissions(ctx, 0, 20)
	if err != nil {
		return err
	}
	queued, err := h.submissions.CountJobs(ctx, store.Queued)
	if err != nil {
		return err
	}
	u, _ := currentUser(c)
	listed := pageSubmissions(recent, true)
	if err := h.markLate(ctx, listed); err != nil {
		return err
	}
	v := pageDashboard(gb, u.Name, csrfToken(c), listed, queued, c.QueryParam("regraded"))
	v.DatabaseAway = h.awayText(h.grading.DatabaseAway())
	if v.Due, err = h.dueView(ctx, gb, v.CSRF); err != nil {
		return err
	}
	return render(c, http.StatusOK, page.ClassDashboard(v, h.pageAssets()))
}

// awayText says when the database was last away, if within a day: how
// long, and that the class went on.
func (h *classHandlers) awayText(a class.Away) string {
	now := h.clock.Now()
	at := func(t time.Time) string { return t.In(h.loc).Format("15:04:05") }
	switch {
	case a.From.IsZero():
		return ""
	case a.To.IsZero():
		return "The database has been away since " + at(a.From) + ": gradings wait for it, and go on when it answers."
	case now.Sub(a.To) > 24*time.Hour:
		return ""
	}
	return fmt.Sprintf("The database was away from %s to %s (%s): gradings waited for it and went on after; nothing submitted was lost.",
		at(a.From), at(a.To), a.To.Sub(a.From).Round(time.Second))
}

// dashboardPitfalls is the dashboard's pitfalls table alone, which the
// dashboard's script fetches again when a grading lands.
func (h *classHandlers) dashboardPitfalls(c echo.Context) error {
	gb, err := h.grading.Gradebook(c.Request().Context())
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, page.ClassPitfallsTable(pagePitfalls(gb)))
}

// pitfallSubmissions lists the submissions behind one count of the
// dashboard's pitfalls table: ?exercise=ID&pitfall=NAME.
func (h *classHandlers) pitfallSubmissions(c echo.Context) error {
	ctx := c.Request().Context()
	exercise, pitfall := c.QueryParam("exercise"), c.QueryParam("pitfall")
	if exercise == "" || pitfall == "" {
		return echo.NewHTTPError(http.StatusBadRequest, "Say which exercise and pitfall: /class/submissions?exercise=tokenbucket&pitfall=capacity (the dashboard's pitfalls table links to each).")
	}
	ex, ok := course.Lookup(exercise)
	if !ok || !class.Gradable(exercise) {
		return notFound("There is no exercise %q.", exercise)
	}
	ids, err := h.grading.PitfallSubmissions(ctx, exercise, pitfall)
	if err != nil {
		return err
	}
	subs := make([]store.Submission, 0, len(ids))
	for _, id := range ids {
		sub, err := h.submissions.Submission(ctx, id)
		if err != nil {
			return err
		}
		subs = append(subs, sub)
	}
	u, _ := currentUser(c)
	return render(c, http.StatusOK, page.ClassSubmissions(page.ClassSubmissionsView{
		Instructor: u.Name, CSRF: csrfToken(c), Exercise: ex, Pitfall: pitfall, Submissions: pageSubmissions(subs, true),
	}, h.pageAssets()))
}

// gradebookCSV is the gradebook as a CSV attachment
// (class.Gradebook.WriteCSV), or with ?format=canvas in the form Canvas's
// Grades import reads (WriteCanvasCSV).
func (h *classHandlers) gradebookCSV(c echo.Context) error {
	write, name := (*class.Gradebook).WriteCSV, "gradebook.csv"
	switch f := c.QueryParam("format"); f {
	case "":
	case "canvas":
		write, name = (*class.Gradebook).WriteCanvasCSV, "gradebook-canvas.csv"
	default:
		return echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf("format %q: want canvas, or none for ratelab's own CSV", f))
	}
	gb, err := h.grading.Gradebook(c.Request().Context())
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := write(gb, &b); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", b.Bytes())
}

func (h *classHandlers) regrade(c echo.Context) error {
	n, err := h.grading.Regrade(c.Request().Context())
	if err != nil {
		return err
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusAccepted, map[string]int{"queued": n})
	}
	return c.Redirect(http.StatusSeeOther, "/class/dashboard?regraded="+strconv.Itoa(n))
}
