package class

import (
	"ratelab/grader/report"
	"ratelab/internal/event"
	"ratelab/internal/fanout"
	"ratelab/internal/store"
)

// Event is one step of a grading, as the live views receive it (JSON over a
// websocket). Its Type is one of class mode's events (package event):
// Queued, Running, Build, Start, Check, Grade, Resync, Course, and Hello
// on the dashboard's stream.
type Event struct {
	Type       event.Type `json:"type"`
	Submission int64      `json:"submission"`
	Job        int64      `json:"job"`
	Learner    string     `json:"learner"`
	Exercise   string     `json:"exercise"`
	// Kind is "check" for a check's events (store.KindCheck), which only
	// that check's subscribers receive; "" for a submission's.
	Kind   store.Kind    `json:"kind,omitempty"`
	Check  string        `json:"check,omitempty"`
	Result *report.Check `json:"result,omitempty"`
	// Done: the exercise's result (nil if it could not be graded: Message
	// says why), and the dashboard's updated cell and pitfall counts.
	// Queued and running carry the cell too, with its standing scores
	// (they change only when a result is stored whole) and its words.
	Summary  *report.Exercise `json:"summary,omitempty"`
	Seed     int64            `json:"seed,omitempty"`
	Status   report.Status    `json:"status,omitempty"`
	Score    float64          `json:"score"`
	MaxScore float64          `json:"max_score"`
	Message  string           `json:"message,omitempty"`
	Cell     *Cell            `json:"cell,omitempty"`
	Pitfalls []PitfallCount   `json:"pitfalls,omitempty"`
	Graded   int              `json:"graded,omitempty"` // learners with a graded result for the exercise
}

// subscriberBuffer is how many events a subscriber may fall behind before
// it is dropped (and told to resync).
const subscriberBuffer = 512

// Subscription receives events until Close (package fanout). C is closed
// when the subscriber was dropped for falling behind, or after Close. Its
// Topic is the submission it follows; 0 for every submission (the
// dashboard).
type Subscription = fanout.Sub[Event]

// Subscribe returns the events of one submission (submission > 0), first
// those of its grading so far, or of every submission (0).
func (c *Class) Subscribe(submission int64) *Subscription {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first []Event
	if submission > 0 {
		first = c.progress[submission] // within the buffer: a grading has far fewer events
	}
	return c.subs.Subscribe(submission, first)
}

// CourseChanged tells the live views of every submission (the dashboard,
// the learners' pages) that the course changed: a due date or an
// extension was set or taken back (event.Course). On a Postgres store it
// reaches every process of the class.
func (c *Class) CourseChanged() { c.publish(Event{Type: event.Course}) }

// publish sends e to the subscribers: in this process, or on a Postgres
// store to every process of the class (see engine).
func (c *Class) publish(e Event) { c.engine.publish(e) }

// deliver hands e to this process's subscribers. A check's events go to
// that check's subscribers only: the dashboard (every submission's
// events) sees no checks. A subscriber that falls behind is dropped: its
// channel closes, its view resyncs.
func (c *Class) deliver(e Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.progress[e.Submission]; ok && e.Type != event.Grade && len(p) < subscriberBuffer/2 {
		c.progress[e.Submission] = append(p, e)
	}
	c.subs.Publish(e, func(submission int64) bool {
		if submission == 0 {
			return e.Kind != store.KindCheck
		}
		return submission == e.Submission
	})
}
