package due

import (
	"context"
	"fmt"
	"math"
	"time"

	"ratelab/internal/store"
	"ratelab/lab/course"
)

// Policy is what happens to late work.
type Policy string

// Late policies.
const (
	Accept  Policy = "accept"  // accepted and marked late, no penalty (the default)
	Penalty Policy = "penalty" // accepted until the cut-off, minus PenaltyPct per day late
	Refuse  Policy = "refuse"  // refused after the due date
)

// ParsePolicy reads a policy's name; "" is Accept.
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case "":
		return Accept, nil
	case Accept, Penalty, Refuse:
		return p, nil
	}
	return "", fmt.Errorf("late policy %q: want accept (late work counts, marked late), penalty (minus a percentage per day until a cut-off) or refuse", s)
}

// Schedule is a class's due dates and extensions, and its time zone.
type Schedule struct {
	Zone       *time.Location // the course's zone: times are shown in it
	Dates      []store.DueDate
	Extensions []store.Extension
}

// Load reads the schedule from the store.
func Load(ctx context.Context, st *store.Store) (*Schedule, error) {
	name, err := st.CourseZone(ctx)
	if err != nil {
		return nil, err
	}
	loc, err := Zone(name)
	if err != nil {
		return nil, err
	}
	dates, err := st.DueDates(ctx)
	if err != nil {
		return nil, err
	}
	exts, err := st.Extensions(ctx)
	if err != nil {
		return nil, err
	}
	return &Schedule{Zone: loc, Dates: dates, Extensions: exts}, nil
}

// Zone returns the time zone of an IANA name; "" is UTC.
func Zone(name string) (*time.Location, error) {
	if name == "" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("time zone %q: not one this machine knows; use an IANA name such as Europe/Paris, America/New_York or UTC", name)
	}
	return loc, nil
}

// Empty reports whether no due date is set.
func (s *Schedule) Empty() bool { return len(s.Dates) == 0 }

// Deadline is the due date that holds for one learner's exercise.
type Deadline struct {
	Exercise   string
	Week       int
	Due        time.Time
	Policy     Policy
	PenaltyPct float64
	Cutoff     time.Time // zero: none (penalty accepts late work for ever)
	// Of says whose due date it is: "week 3" or "exercise gcra".
	Of string
	// Extended: the learner's extension set Due (it was Original).
	Extended bool
	Original time.Time
}

// Name is how a due date is called: "week 3" or "exercise gcra".
func Name(week int, exercise string) string {
	if exercise != "" {
		return "exercise " + exercise
	}
	return fmt.Sprintf("week %d", week)
}

// For returns the deadline of a learner's exercise, and false if it has
// none.
func (s *Schedule) For(learner, exercise string) (Deadline, bool) {
	week := 0
	if e, ok := course.Lookup(exercise); ok {
		week = e.Week
	}
	var rule *store.DueDate
	for i, d := range s.Dates {
		switch {
		case d.Exercise == exercise:
			rule = &s.Dates[i]
		case d.Exercise == "" && d.Week == week && week > 0 && rule == nil:
			rule = &s.Dates[i]
		}
	}
	if rule == nil {
		return Deadline{}, false
	}
	dl := Deadline{Exercise: exercise, Week: week, Due: rule.At, Policy: Policy(rule.Policy),
		PenaltyPct: rule.PenaltyPct, Cutoff: rule.Cutoff, Of: Name(rule.Week, rule.Exercise), Original: rule.At}
	var ext *store.Extension
	for i, e := range s.Extensions {
		if e.Learner != learner {
			continue
		}
		switch {
		case e.Exercise == exercise:
			ext = &s.Extensions[i]
		case e.Exercise == "" && e.Week == week && ext == nil:
			ext = &s.Extensions[i]
		}
	}
	if ext != nil && ext.Until.After(dl.Due) {
		if !dl.Cutoff.IsZero() {
			dl.Cutoff = dl.Cutoff.Add(ext.Until.Sub(dl.Due))
		}
		dl.Due, dl.Extended = ext.Until, true
	}
	return dl, true
}

// Mark is what a deadline makes of a submission made at a time.
type Mark struct {
	OnTime   bool
	Late     time.Duration // how late; 0 when on time
	DaysLate int           // days late or part of one: 1 minute late is 1
	Factor   float64       // what the score is multiplied by: 1, or less under a penalty
	Refused  bool          // after the cut-off, or late under refuse: counts nothing
}

// Judge marks a submission made at at.
func (d Deadline) Judge(at time.Time) Mark {
	if !at.After(d.Due) {
		return Mark{OnTime: true, Factor: 1}
	}
	late := at.Sub(d.Due)
	m := Mark{Late: late, DaysLate: int((late + 24*time.Hour - 1) / (24 * time.Hour)), Factor: 1}
	switch d.Policy {
	case Refuse:
		m.Refused, m.Factor = true, 0
	case Penalty:
		if !d.Cutoff.IsZero() && at.After(d.Cutoff) {
			m.Refused, m.Factor = true, 0
			break
		}
		m.Factor = max(0, 1-float64(m.DaysLate)*d.PenaltyPct/100)
	}
	return m
}

// Counted is the score that counts of a submission with this mark: the
// score times the factor, to 2 decimals (half away from zero); 0 when
// refused.
func (m Mark) Counted(score float64) float64 {
	if m.Refused {
		return 0
	}
	if m.Factor == 1 {
		return score
	}
	return math.Round(score*m.Factor*100) / 100
}

// OnTimeAt reports whether a learner's submission of exercise at at is on
// time: true when no due date holds for it.
func (s *Schedule) OnTimeAt(learner, exercise string, at time.Time) bool {
	dl, ok := s.For(learner, exercise)
	return !ok || dl.Judge(at).OnTime
}
