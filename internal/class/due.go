package class

import (
	"context"
	"time"

	"ratelab/internal/due"
	"ratelab/internal/store"
)

// The class's due dates (package due says what they mean and which upload
// they refuse): the refusal's instructors, and the score that counts under
// them in the gradebook.

// Schedule returns the class's due dates as they stand.
func (c *Class) Schedule(ctx context.Context) (*due.Schedule, error) { return due.Load(ctx, c.st) }

// refuseLate returns a *due.LateError, naming the class's instructors, if
// the learner's upload of exercise at now comes after a due date whose
// policy refuses it.
func (c *Class) refuseLate(ctx context.Context, user store.User, exercise string, now time.Time) error {
	s, err := c.Schedule(ctx)
	if err != nil || s.Empty() {
		return err
	}
	le := s.Refuse(user.Name, exercise, now)
	if le == nil {
		return nil
	}
	if ins, err := c.st.Users(ctx, store.Instructor); err == nil {
		for _, u := range ins {
			le.Instructors = append(le.Instructors, u.Name)
		}
	}
	return le
}

// Count is the score that counts for a learner's exercise under its due
// date (see package due): the best over its graded submissions of each
// one's score after its late penalty, those the policy refuses left out.
// Without a due date it is the best score, on time.
type Count struct {
	Due        bool    `json:"due"`        // a due date holds for the learner's exercise
	Graded     bool    `json:"graded"`     // some graded submission counts
	Score      float64 `json:"score"`      // the score that counts
	Late       bool    `json:"late"`       // it comes from a late submission
	Submission int64   `json:"submission"` // which (0 while the class has no due date: Count reads the best of every grading)
}

// Count returns the score that counts for a learner's exercise.
func (g *Gradebook) Count(learner, exercise string) Count {
	if c, ok := g.Counts[learner][exercise]; ok {
		return c
	}
	c := g.Cell(learner, exercise)
	return Count{Graded: c.Graded, Score: c.Best}
}

// count fills gb.Counts from every grading under the schedule (nothing
// without due dates: Count then reads the cells' best scores). It reads
// the class's gradings again, once per gradebook asked for, only while
// some due date is set.
func (c *Class) count(ctx context.Context, gb *Gradebook) error {
	s, err := c.Schedule(ctx)
	if err != nil || s.Empty() {
		return err
	}
	gradings, err := c.st.Gradings(ctx)
	if err != nil {
		return err
	}
	gb.Counts = countsUnder(s, gb, gradings)
	return nil
}

// countsUnder computes the counts of gb's learners and exercises.
func countsUnder(s *due.Schedule, gb *Gradebook, gradings []store.Grading) map[string]map[string]Count {
	out := map[string]map[string]Count{}
	for _, l := range gb.Learners {
		out[l] = map[string]Count{}
		for _, e := range gb.Exercises {
			if _, ok := s.For(l, e.ID); ok {
				out[l][e.ID] = Count{Due: true}
			}
		}
	}
	for _, g := range gradings {
		row := out[g.Learner]
		if row == nil || g.State != store.Done || g.Status == "" {
			continue
		}
		m := due.Mark{OnTime: true, Factor: 1}
		dl, ok := s.For(g.Learner, g.Exercise)
		if ok {
			m = dl.Judge(g.SubmittedAt)
		}
		if m.Refused {
			continue
		}
		v, cur := m.Counted(g.Score), row[g.Exercise]
		if !cur.Graded || v > cur.Score || v == cur.Score && cur.Late && m.OnTime {
			row[g.Exercise] = Count{Due: ok, Graded: true, Score: v, Late: !m.OnTime, Submission: g.SubmissionID}
		}
	}
	return out
}
