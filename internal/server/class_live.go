package server

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"github.com/labstack/echo/v4"

	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store"
)

// The live websockets: a submission's grading as it happens, and the
// dashboard's stream of every submission's state. Each message is one
// class.Event in JSON; web/static/class.js and the submit command read
// them. Once a websocket is accepted the response is no longer HTTP: a
// fault is logged and the connection closed with a status, not returned.

// perUser counts each user's live websockets, up to max at once. It is
// safe for concurrent use.
type perUser struct {
	max int
	mu  sync.Mutex
	n   map[int64]int
}

func newPerUser(max int) *perUser { return &perUser{max: max, n: map[int64]int{}} }

// take counts one more websocket of user and reports whether it is within
// the cap; when it is, release must be called once it closes.
func (p *perUser) take(user int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n[user] >= p.max {
		return false
	}
	p.n[user]++
	return true
}

func (p *perUser) release(user int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n[user]--; p.n[user] <= 0 {
		delete(p.n, user)
	}
}

// liveSlot takes one of the user's live websockets, or refuses with 429
// before the upgrade. The caller defers the returned release.
func (h *classHandlers) liveSlot(c echo.Context) (release func(), err error) {
	u, _ := currentUser(c)
	if !h.liveSockets.take(u.ID) {
		c.Response().Header().Set("Retry-After", "10")
		return nil, echo.NewHTTPError(http.StatusTooManyRequests, fmt.Sprintf(
			"You have %d live views open already, the most one person may: close one (another tab?) and reload.", h.liveSockets.max))
	}
	return func() { h.liveSockets.release(u.ID) }, nil
}

// submissionLive streams a submission's grading: what happened so far,
// then each event, until it is done.
func (h *classHandlers) submissionLive(c echo.Context) error {
	sub, err := h.ownSubmission(c)
	if err != nil {
		return err
	}
	release, err := h.liveSlot(c)
	if err != nil {
		return err
	}
	defer release()
	s := h.live.Subscribe(sub.ID)
	defer s.Close()
	conn, err := websocket.Accept(c.Response(), c.Request(), nil)
	if err != nil {
		return nil // Accept answered the request
	}
	defer conn.CloseNow()
	ctx := conn.CloseRead(c.Request().Context())
	// Read the state after subscribing: a grading that ends in between is
	// then either read here as done or received below.
	id := sub.ID
	sub, err = h.submissions.Submission(ctx, id)
	if err != nil {
		h.log.Error("reading a submission for its live view", "submission", id, "err", err)
		conn.Close(websocket.StatusInternalError, "reading the submission")
		return nil
	}
	if sub.Job.State == store.Done || sub.Job.State == store.Superseded {
		h.writeEvent(ctx, conn, class.GradeEvent(sub))
		conn.Close(websocket.StatusNormalClosure, "graded")
		return nil
	}
	h.writeEvent(ctx, conn, openingEvent(sub))
	return h.stream(ctx, conn, s.C, func(e class.Event) bool { return e.Type == event.Grade })
}

// openingEvent is the first event a submission's live view gets while its
// job is not done: EventQueued while it waits (store.Job.Waiting: queued,
// or handed to River and not started), else EventRunning with the job's
// note ("regrading after a worker stopped"), as a worker's running event
// said it (a job done is told by class.GradeEvent).
func openingEvent(sub store.Submission) class.Event {
	e := class.Event{Type: event.Queued, Submission: sub.ID, Job: sub.Job.ID, Learner: sub.Learner, Exercise: sub.Exercise}
	if !sub.Job.Waiting() {
		e.Type, e.Message = event.Running, sub.Job.Note
	}
	return e
}

// stream writes the subscription's events (see pump) until last (nil:
// never) says an event was the last, and then closes the connection as
// graded.
func (h *classHandlers) stream(ctx context.Context, conn *websocket.Conn, events <-chan class.Event, last func(class.Event) bool) error {
	write := func(e class.Event) error { return h.writeEvent(ctx, conn, e) }
	if pump(ctx, conn, events, write, class.Event{Type: event.Resync}, last) {
		conn.Close(websocket.StatusNormalClosure, "graded")
	}
	return nil
}

func (h *classHandlers) writeEvent(ctx context.Context, conn *websocket.Conn, e class.Event) error {
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return wsjson.Write(wctx, conn, e)
}

// dashboardLive streams every submission's queued, running and done events
// (not each check's: the dashboard shows scores, not progress), and the
// course's changes.
func (h *classHandlers) dashboardLive(c echo.Context) error {
	return h.streamAll(c, func(e class.Event) (class.Event, bool) {
		switch e.Type {
		case event.Queued, event.Running, event.Grade, event.Course:
			return e, true
		}
		return e, false
	})
}

// learnerLive streams what changes a learner's own pages: the queued,
// running and done events of her submissions (not her checks, which no
// page lists), bare of the class's gradebook and pitfall counts, and the
// course's changes. Her pages read themselves again on each
// (web/static/class.js); no other learner's event, nor name, reaches her.
func (h *classHandlers) learnerLive(c echo.Context) error {
	u, _ := currentUser(c)
	return h.streamAll(c, func(e class.Event) (class.Event, bool) {
		switch {
		case e.Type == event.Course:
			return class.Event{Type: e.Type}, true
		case e.Learner != u.Name || e.Kind == store.KindCheck:
			return e, false
		case e.Type == event.Queued, e.Type == event.Running, e.Type == event.Grade:
			return class.Event{Type: e.Type, Submission: e.Submission, Learner: e.Learner, Exercise: e.Exercise,
				Status: e.Status, Score: e.Score, MaxScore: e.MaxScore}, true
		}
		return e, false
	})
}

// streamAll opens a websocket of every submission's events (Subscribe(0))
// and, after a hello, writes those keep keeps, as it rewrites them, until
// the client goes.
func (h *classHandlers) streamAll(c echo.Context, keep func(class.Event) (class.Event, bool)) error {
	release, err := h.liveSlot(c)
	if err != nil {
		return err
	}
	defer release()
	s := h.live.Subscribe(0)
	defer s.Close()
	conn, err := websocket.Accept(c.Response(), c.Request(), nil)
	if err != nil {
		return nil // Accept answered the request
	}
	defer conn.CloseNow()
	ctx := conn.CloseRead(c.Request().Context())
	h.writeEvent(ctx, conn, class.Event{Type: event.Hello})
	kept := make(chan class.Event)
	go func() {
		defer close(kept)
		for e := range s.C {
			if e, ok := keep(e); ok {
				select {
				case kept <- e:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return h.stream(ctx, conn, kept, nil)
}
