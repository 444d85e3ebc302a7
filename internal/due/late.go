package due

import (
	"strings"
	"time"
)

// LateError refuses an upload made after its due date under a policy that
// refuses it (refuse, or penalty past its cut-off). Its message says the
// due date, in the course's zone, and whom to ask.
type LateError struct {
	Deadline    Deadline
	Zone        *time.Location
	Instructors []string // by name, to ask for an extension
}

func (e *LateError) Error() string {
	d := e.Deadline
	msg := d.Exercise + " was due " + d.Due.In(e.Zone).Format(Layout)
	if d.Extended {
		msg += " (your extension)"
	} else {
		msg += " (" + d.Of + "'s due date)"
	}
	if d.Policy == Penalty {
		msg += "; late work was accepted until " + d.Cutoff.In(e.Zone).Format(Layout) + " and is now refused"
	} else {
		msg += ", and late work is refused"
	}
	who := "your instructor"
	if len(e.Instructors) > 0 {
		who += " (" + strings.Join(e.Instructors, ", ") + ")"
	}
	return msg + ". Ask " + who + " for an extension."
}

// Refuse returns a *LateError, without instructors, if the learner's
// upload of exercise at now comes after a due date whose policy refuses
// it, and nil if it is taken.
func (s *Schedule) Refuse(learner, exercise string, now time.Time) *LateError {
	dl, ok := s.For(learner, exercise)
	if !ok || !dl.Judge(now).Refused {
		return nil
	}
	return &LateError{Deadline: dl, Zone: s.Zone}
}
