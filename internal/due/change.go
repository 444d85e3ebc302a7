package due

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ratelab/internal/store"
	"ratelab/lab/course"
)

// Rule is a due date as the instructor sets it (the dashboard's form, the
// course command): for a week or an exercise.
type Rule struct {
	Week       int    // > 0 for a week's due date
	Exercise   string // or an exercise's own
	At         time.Time
	Policy     Policy
	PenaltyPct float64   // penalty only
	Cutoff     time.Time // penalty only; zero for none
}

// Target checks that a week or an exercise (exactly one) names one of the
// course's, and returns its name for messages.
func Target(week int, exercise string) (string, error) {
	switch {
	case week != 0 && exercise != "":
		return "", errors.New("give a week or an exercise, not both")
	case exercise != "":
		if _, ok := course.Lookup(exercise); !ok {
			return "", fmt.Errorf("there is no exercise %q: the course's are %s", exercise, exerciseIDs())
		}
	case week != 0:
		ok := false
		for _, w := range course.Weeks() {
			ok = ok || w.Number == week && len(w.Exercises) > 0
		}
		if !ok {
			return "", fmt.Errorf("there is no week %d with exercises in the course", week)
		}
	default:
		return "", errors.New("say which week (a number) or which exercise the due date is for")
	}
	return Name(week, exercise), nil
}

func exerciseIDs() string {
	s := ""
	for i, e := range course.Exercises() {
		if i > 0 {
			s += ", "
		}
		s += e.ID
	}
	return s
}

// Check refuses a rule that makes no sense, saying what to change (Set
// checks it too): callers that save something beside it, such as the
// course's time zone, check it first, so that a refused rule changes
// nothing.
func (r Rule) Check() error {
	if r.Policy == "" {
		r.Policy = Accept
	}
	if _, err := Target(r.Week, r.Exercise); err != nil {
		return err
	}
	if r.At.IsZero() {
		return errors.New("give the due date")
	}
	switch r.Policy {
	case Penalty:
		if r.PenaltyPct <= 0 || r.PenaltyPct > 100 {
			return fmt.Errorf("a penalty of %v%% per day: give a percentage above 0 and at most 100", r.PenaltyPct)
		}
		if !r.Cutoff.IsZero() && !r.Cutoff.After(r.At) {
			return errors.New("the cut-off must come after the due date: late work is accepted between the two")
		}
	default:
		if r.PenaltyPct != 0 || !r.Cutoff.IsZero() {
			return fmt.Errorf("a penalty and a cut-off go with the late policy penalty, not %s", r.Policy)
		}
	}
	return nil
}

// Set sets (or moves) a week's or an exercise's due date and records the
// change, with the submissions whose on-time mark it changed.
func Set(ctx context.Context, st *store.Store, r Rule) (store.DueChange, error) {
	if r.Policy == "" {
		r.Policy = Accept
	}
	if err := r.Check(); err != nil {
		return store.DueChange{}, err
	}
	return change(ctx, st, func(before *Schedule) (string, error) {
		dl := Deadline{Due: r.At, Policy: r.Policy, PenaltyPct: r.PenaltyPct, Cutoff: r.Cutoff}
		what := Name(r.Week, r.Exercise) + " " + Describe(dl, before.Zone)
		for _, d := range before.Dates {
			if d.Week == r.Week && d.Exercise == r.Exercise {
				what += " (was due " + d.At.In(before.Zone).Format(Layout) + ")"
			}
		}
		return what, st.SetDueDate(ctx, store.DueDate{Week: r.Week, Exercise: r.Exercise, At: r.At,
			Policy: string(r.Policy), PenaltyPct: r.PenaltyPct, Cutoff: r.Cutoff})
	})
}

// Clear removes a week's or an exercise's due date and records it.
func Clear(ctx context.Context, st *store.Store, week int, exercise string) (store.DueChange, error) {
	name, err := Target(week, exercise)
	if err != nil {
		return store.DueChange{}, err
	}
	return change(ctx, st, func(*Schedule) (string, error) {
		ok, err := st.ClearDueDate(ctx, week, exercise)
		if err == nil && !ok {
			err = fmt.Errorf("%s has no due date to clear", name)
		}
		return name + ": due date cleared", err
	})
}

// Extend grants a learner a new due date for a week or an exercise and
// records it.
func Extend(ctx context.Context, st *store.Store, learner string, week int, exercise string, until time.Time) (store.DueChange, error) {
	name, err := Target(week, exercise)
	if err != nil {
		return store.DueChange{}, err
	}
	if until.IsZero() {
		return store.DueChange{}, errors.New("give the extension's new due date")
	}
	return change(ctx, st, func(before *Schedule) (string, error) {
		// An extension moves a due date later, never earlier (For ignores
		// one that does): refuse it rather than record one that does nothing.
		due, ok := before.ownDate(week, exercise)
		if !ok {
			return "", fmt.Errorf("%s has no due date to extend: set one first", name)
		}
		if !until.After(due) {
			return "", fmt.Errorf("an extension must come after the due date (%s), not at or before it", due.In(before.Zone).Format(Layout))
		}
		err := st.SetExtension(ctx, store.Extension{Learner: learner, Week: week, Exercise: exercise, Until: until})
		if errors.Is(err, store.ErrNotFound) {
			err = fmt.Errorf("there is no learner called %q on the roster", learner)
		}
		return fmt.Sprintf("%s: extended for %s until %s", name, learner, until.In(before.Zone).Format(Layout)), err
	})
}

// ownDate is the due date a week's or an exercise's extension moves: the
// target's own, or for an exercise without one its week's.
func (s *Schedule) ownDate(week int, exercise string) (time.Time, bool) {
	if exercise != "" {
		if e, ok := course.Lookup(exercise); ok && week == 0 {
			week = e.Week
		}
	}
	var weekDate time.Time
	for _, d := range s.Dates {
		switch {
		case exercise != "" && d.Exercise == exercise:
			return d.At, true
		case d.Exercise == "" && d.Week == week:
			weekDate = d.At
		}
	}
	return weekDate, !weekDate.IsZero()
}

// Unextend takes a learner's extension back and records it.
func Unextend(ctx context.Context, st *store.Store, learner string, week int, exercise string) (store.DueChange, error) {
	name, err := Target(week, exercise)
	if err != nil {
		return store.DueChange{}, err
	}
	return change(ctx, st, func(*Schedule) (string, error) {
		ok, err := st.ClearExtension(ctx, learner, week, exercise)
		if err == nil && !ok {
			err = fmt.Errorf("%s has no extension of %s to take back", learner, name)
		}
		return fmt.Sprintf("%s: %s's extension taken back", name, learner), err
	})
}

// change applies a change (apply returns its words) between two readings
// of the schedule, and records it with every submission whose on-time
// mark differs between them. Two instructors changing due dates in the
// same instant may each record the other's re-marks too: a list may say
// more than its own change did, never less.
func change(ctx context.Context, st *store.Store, apply func(before *Schedule) (string, error)) (store.DueChange, error) {
	before, err := Load(ctx, st)
	if err != nil {
		return store.DueChange{}, err
	}
	what, err := apply(before)
	if err != nil {
		return store.DueChange{}, err
	}
	after, err := Load(ctx, st)
	if err != nil {
		return store.DueChange{}, err
	}
	subs, err := st.SubmissionTimes(ctx)
	if err != nil {
		return store.DueChange{}, err
	}
	var remarked []store.Remark
	for _, s := range subs {
		was, is := before.OnTimeAt(s.Learner, s.Exercise, s.CreatedAt), after.OnTimeAt(s.Learner, s.Exercise, s.CreatedAt)
		if was != is {
			remarked = append(remarked, store.Remark{Submission: s.ID, Learner: s.Learner, Exercise: s.Exercise, OnTime: is})
		}
	}
	return st.AddDueChange(ctx, what, remarked)
}
