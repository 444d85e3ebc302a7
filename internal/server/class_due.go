package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"ratelab/internal/class"
	"ratelab/internal/due"
	"ratelab/internal/store"
	"ratelab/lab/course"
	"ratelab/web/page"
)

// Due dates on the class's pages (package due says what they mean): the
// dashboard's forms and panel, a learner's due dates, a submission's mark.

// setDue is POST /class/course/due: the dashboard's form sets, moves or
// (clear=1) clears a week's or an exercise's due date; target is
// "week:3" or "exercise:gcra", at and cutoff are local times in tz (the
// course's zone, which tz also sets), late a policy, penalty a
// percentage per day.
func (h *classHandlers) setDue(c echo.Context) error {
	ctx := c.Request().Context()
	week, exercise, err := parseTarget(c.FormValue("target"))
	if err != nil {
		return unprocessable(err)
	}
	if c.FormValue("clear") != "" {
		if _, err := due.Clear(ctx, h.course, week, exercise); err != nil {
			return unprocessable(err)
		}
		return h.dueDone(c)
	}
	loc, err := h.zoneFromForm(ctx, c.FormValue("tz"))
	if err != nil {
		return unprocessable(err)
	}
	r := due.Rule{Week: week, Exercise: exercise}
	if r.At, err = due.ParseTime(c.FormValue("at"), loc); err != nil {
		return unprocessable(err)
	}
	if r.Policy, err = due.ParsePolicy(c.FormValue("late")); err != nil {
		return unprocessable(err)
	}
	if r.Policy == due.Penalty {
		if r.PenaltyPct, err = strconv.ParseFloat(strings.TrimSpace(c.FormValue("penalty")), 64); err != nil {
			return unprocessable(fmt.Errorf("the penalty %q: give a percentage per day late, such as 10", c.FormValue("penalty")))
		}
		if v := strings.TrimSpace(c.FormValue("cutoff")); v != "" {
			if r.Cutoff, err = due.ParseTime(v, loc); err != nil {
				return unprocessable(err)
			}
		}
	}
	if err := r.Check(); err != nil { // before the zone is saved: a refused form changes nothing
		return unprocessable(err)
	}
	if err := h.course.SetCourseZone(ctx, loc.String()); err != nil {
		return err
	}
	if _, err := due.Set(ctx, h.course, r); err != nil {
		return unprocessable(err)
	}
	return h.dueDone(c)
}

// extend is POST /class/course/extend: grant (or, clear=1, take back) a
// learner's extension of a week or an exercise until a local time in the
// course's zone.
func (h *classHandlers) extend(c echo.Context) error {
	ctx := c.Request().Context()
	week, exercise, err := parseTarget(c.FormValue("target"))
	if err != nil {
		return unprocessable(err)
	}
	learner := strings.TrimSpace(c.FormValue("learner"))
	if c.FormValue("clear") != "" {
		if _, err := due.Unextend(ctx, h.course, learner, week, exercise); err != nil {
			return unprocessable(err)
		}
		return h.dueDone(c)
	}
	loc, err := h.zoneFromForm(ctx, "")
	if err != nil {
		return err
	}
	until, err := due.ParseTime(c.FormValue("until"), loc)
	if err != nil {
		return unprocessable(err)
	}
	if _, err := due.Extend(ctx, h.course, learner, week, exercise, until); err != nil {
		return unprocessable(err)
	}
	return h.dueDone(c)
}

// dueDone answers a change, once the live views were told of it: the
// dashboard's panel, which lists it.
func (h *classHandlers) dueDone(c echo.Context) error {
	h.grading.CourseChanged()
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, map[string]bool{"ok": true})
	}
	return c.Redirect(http.StatusSeeOther, "/class/dashboard#due-dates")
}

func unprocessable(err error) error {
	return echo.NewHTTPError(http.StatusUnprocessableEntity, "The due date was not changed: "+err.Error()+".")
}

// zoneFromForm is the zone a form's times are in: name, or the course's.
func (h *classHandlers) zoneFromForm(ctx context.Context, name string) (*time.Location, error) {
	if name = strings.TrimSpace(name); name == "" {
		var err error
		if name, err = h.course.CourseZone(ctx); err != nil {
			return nil, err
		}
	}
	return due.Zone(name)
}

// parseTarget reads a form's "week:3" or "exercise:gcra".
func parseTarget(v string) (week int, exercise string, err error) {
	kind, name, _ := strings.Cut(strings.TrimSpace(v), ":")
	switch kind {
	case "week":
		if week, err = strconv.Atoi(name); err != nil {
			return 0, "", fmt.Errorf("week %q: give a week's number", name)
		}
	case "exercise":
		exercise = name
	default:
		return 0, "", fmt.Errorf("say which week or exercise (target=week:3 or target=exercise:gcra), not %q", v)
	}
	_, err = due.Target(week, exercise)
	return week, exercise, err
}

// dueView is the dashboard's due-dates panel.
func (h *classHandlers) dueView(ctx context.Context, gb *class.Gradebook, csrf string) (page.ClassDueView, error) {
	s, err := due.Load(ctx, h.course)
	if err != nil {
		return page.ClassDueView{}, err
	}
	changes, err := h.course.DueChanges(ctx, 10)
	if err != nil {
		return page.ClassDueView{}, err
	}
	v := page.ClassDueView{CSRF: csrf, Zone: s.Zone.String(), Exercises: gb.Exercises, Learners: gb.Learners}
	for _, w := range course.Weeks() {
		if len(w.Exercises) > 0 {
			v.Weeks = append(v.Weeks, w.Number)
		}
	}
	for _, d := range s.Dates {
		dl := due.Deadline{Due: d.At, Policy: due.Policy(d.Policy), PenaltyPct: d.PenaltyPct, Cutoff: d.Cutoff}
		v.Rules = append(v.Rules, page.ClassDueRule{Of: due.Name(d.Week, d.Exercise), Target: target(d.Week, d.Exercise),
			Due: d.At.In(s.Zone).Format(due.Layout), DueISO: d.At.Format(time.RFC3339), Policy: dl.PolicyWords(s.Zone)})
	}
	for _, e := range s.Extensions {
		v.Extensions = append(v.Extensions, page.ClassExtension{Learner: e.Learner, Of: due.Name(e.Week, e.Exercise),
			Target: target(e.Week, e.Exercise), Until: e.Until.In(s.Zone).Format(due.Layout)})
	}
	for _, c := range changes {
		pc := page.ClassDueChange{At: c.At.In(s.Zone).Format(due.Layout), What: c.What}
		for _, r := range c.Remarked {
			pc.Remarked = append(pc.Remarked, page.ClassRemark{Learner: r.Learner, Exercise: r.Exercise, Submission: r.Submission, OnTime: r.OnTime})
		}
		v.Changes = append(v.Changes, pc)
	}
	if gb.Counts != nil {
		for _, l := range gb.Learners {
			row := page.ClassCountedRow{Learner: l}
			for _, e := range gb.Exercises {
				n := gb.Count(l, e.ID)
				pc := page.ClassCounted{Exercise: e.ID, Due: n.Due, Late: n.Late, Submission: n.Submission}
				switch {
				case n.Graded:
					pc.Text = strconv.FormatFloat(n.Score, 'f', -1, 64)
				case gb.Cell(l, e.ID).Graded: // graded, but nothing the policy accepts
					pc.Text, pc.Late = "0", true
				default:
					pc.Text = "—"
				}
				row.Cells = append(row.Cells, pc)
			}
			v.Counted = append(v.Counted, row)
		}
	}
	return v, nil
}

func target(week int, exercise string) string {
	if exercise != "" {
		return "exercise:" + exercise
	}
	return "week:" + strconv.Itoa(week)
}

// learnerDue is a learner's due dates, with the time left at now: of
// every exercise, or of the one named (an exercise's page).
func (h *classHandlers) learnerDue(ctx context.Context, learner, only string) ([]page.ClassDueLine, error) {
	s, err := due.Load(ctx, h.course)
	if err != nil || s.Empty() {
		return nil, err
	}
	now := h.clock.Now()
	var out []page.ClassDueLine
	for _, e := range course.Exercises() {
		if !class.Gradable(e.ID) || only != "" && e.ID != only {
			continue
		}
		dl, ok := s.For(learner, e.ID)
		if !ok {
			continue
		}
		out = append(out, page.ClassDueLine{Exercise: e.ID, Title: e.Title, Due: dl.Due.In(s.Zone).Format(due.Layout),
			DueISO: dl.Due.Format(time.RFC3339), Left: dl.Left(now, s.Zone), Extended: dl.Extended, Passed: now.After(dl.Due)})
	}
	return out, nil
}

// submissionMark is a submission's mark against the due date that holds
// for it now: on time (true, nil) when none does.
func (h *classHandlers) submissionMark(ctx context.Context, sub store.Submission) (bool, *page.ClassSubmissionDue, error) {
	s, err := due.Load(ctx, h.course)
	if err != nil {
		return false, nil, err
	}
	dl, ok := s.For(sub.Learner, sub.Exercise)
	if !ok {
		return true, nil, nil
	}
	m := dl.Judge(sub.CreatedAt)
	return m.OnTime, &page.ClassSubmissionDue{Due: dl.Due.In(s.Zone).Format(due.Layout), DueAt: dl.Due.UTC().Format(time.RFC3339), Mark: m.Words(dl), OnTime: m.OnTime,
		Left: dl.Left(h.clock.Now(), s.Zone)}, nil
}

// markLate fills each submission's Late against the due dates in force,
// and the score that counts of those graded late.
func (h *classHandlers) markLate(ctx context.Context, subs []page.ClassSubmission) error {
	s, err := due.Load(ctx, h.course)
	if err != nil || s.Empty() {
		return err
	}
	for i, sub := range subs {
		if dl, ok := s.For(sub.Learner, sub.Exercise); ok {
			if m := dl.Judge(sub.CreatedAt); !m.OnTime {
				subs[i].Late = m.Words(dl)
				if sub.Result != nil && sub.State == store.Done && sub.Error == "" {
					subs[i].Counts = strconv.FormatFloat(m.Counted(sub.Result.Score), 'f', -1, 64)
				}
			}
		}
	}
	return nil
}

// learnerCounted is a learner's score that counts of each exercise she
// has a graded submission of or a due date for, as the gradebook counts
// it; numbers names each submission by its number (page.ClassSubmission).
func learnerCounted(gb *class.Gradebook, learner string, numbers map[int64]int) []page.ClassLearnerCount {
	var out []page.ClassLearnerCount
	for _, e := range gb.Exercises {
		n := gb.Count(learner, e.ID)
		c := gb.Cell(learner, e.ID)
		if !n.Due && !c.Graded {
			continue
		}
		r := page.ClassLearnerCount{Exercise: e.ID, Title: e.Title, Text: "—", Late: n.Late}
		switch {
		case n.Graded:
			r.Text = strconv.FormatFloat(n.Score, 'f', -1, 64) + " / " + strconv.FormatFloat(c.Max, 'f', -1, 64)
			r.Submission = n.Submission
		case c.Graded: // graded, but nothing the policy accepts
			r.Text = "0 / " + strconv.FormatFloat(c.Max, 'f', -1, 64)
		}
		r.Number = numbers[r.Submission]
		out = append(out, r)
	}
	return out
}
