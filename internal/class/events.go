package class

import (
	"sync"

	"ratelab/grader/report"
	"ratelab/internal/event"
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

// Subscription receives events until Close. C is closed when the
// subscriber was dropped for falling behind, or after Close.
type Subscription struct {
	C          <-chan Event
	c          chan Event
	submission int64 // 0: every event (the dashboard)
	once       sync.Once
	class      *Class
}

// Close ends the subscription.
func (s *Subscription) Close() {
	s.class.mu.Lock()
	defer s.class.mu.Unlock()
	s.class.drop(s)
}

func (c *Class) drop(s *Subscription) {
	if _, ok := c.subs[s]; ok {
		delete(c.subs, s)
		s.once.Do(func() { close(s.c) })
	}
}

// Subscribe returns the events of one submission (submission > 0), first
// those of its grading so far, or of every submission (0).
func (c *Class) Subscribe(submission int64) *Subscription {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan Event, subscriberBuffer)
	s := &Subscription{C: ch, c: ch, submission: submission, class: c}
	if submission > 0 {
		for _, e := range c.progress[submission] {
			ch <- e // within the buffer: a grading has far fewer events
		}
	}
	c.subs[s] = struct{}{}
	return s
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
// events) sees no checks.
func (c *Class) deliver(e Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.progress[e.Submission]; ok && e.Type != event.Grade && len(p) < subscriberBuffer/2 {
		c.progress[e.Submission] = append(p, e)
	}
	for s := range c.subs {
		if s.submission != 0 && s.submission != e.Submission || s.submission == 0 && e.Kind == store.KindCheck {
			continue
		}
		select {
		case s.c <- e:
		default:
			c.drop(s) // fell behind: its channel closes, the view resyncs
		}
	}
}
