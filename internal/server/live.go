package server

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"github.com/labstack/echo/v4"

	"ratelab/grader/report"
	"ratelab/internal/event"
	push "ratelab/internal/live" // class.go has a live of its own
	"ratelab/web/page"
)

// The single-learner lab's live websocket, /live: every open page
// subscribes to the live.Hub and receives its events in JSON (see
// internal/live and web/static/live.js). A page of an exercise asks
// /live?exercise=ID and also gets, with each of that exercise's grades, its
// report rendered as the page renders it. Once the websocket is accepted
// the response is no longer HTTP: a fault closes the connection.

// liveSocket streams the hub's events to one page until it goes away.
func (h *handlers) liveSocket(c echo.Context) error {
	if !isWebsocket(c) {
		return echo.NewHTTPError(http.StatusBadRequest, "This is the lab's live websocket: the pages open it themselves.")
	}
	exercise := c.QueryParam("exercise")
	sub, state := h.hub.Subscribe()
	defer sub.Close()
	conn, err := websocket.Accept(c.Response(), c.Request(), nil)
	if err != nil {
		return nil // Accept answered the request
	}
	defer conn.CloseNow()
	ctx := conn.CloseRead(c.Request().Context())
	// Read the grades after subscribing: a grade saved in between is then
	// read here or received below (or both, which changes nothing).
	hello := push.Event{Type: event.Hello, Version: state.Version, Message: state.BuildMessage}
	if h.reports != nil {
		latest, err := h.reports.LatestResults(ctx, h.target)
		if err != nil {
			h.log.Error("reading the latest grades for a live page", "err", err)
			conn.Close(websocket.StatusInternalError, "reading the grades")
			return nil
		}
		for _, r := range latest {
			ex := r.Exercise
			hello.Grades = append(hello.Grades, push.GradeOf(&ex, r.SavedAt, r.Seed, false))
		}
		slices.SortFunc(hello.Grades, func(a, b push.Grade) int { return strings.Compare(a.Exercise, b.Exercise) })
	}
	if h.writeLive(ctx, conn, hello, exercise) != nil {
		return nil
	}
	write := func(e push.Event) error { return h.writeLive(ctx, conn, e, exercise) }
	pump(ctx, conn, sub.C, write, push.Event{Type: event.Resync}, nil)
	return nil
}

// writeLive writes e for the page of exercise (or another page, ""),
// with its grades as the pages write them.
func (h *handlers) writeLive(ctx context.Context, conn *websocket.Conn, e push.Event, exercise string) error {
	if e.Grade != nil {
		g := h.liveGrade(*e.Grade)
		e.Grade = &g
		if exercise != "" && g.Exercise == exercise && g.Result != nil {
			var buf bytes.Buffer
			gr := page.Graded{Result: *g.Result, SavedAt: g.SavedAt.In(h.loc), Seed: g.Seed}
			if err := page.LiveReport(exercise, gr).Render(ctx, &buf); err != nil {
				h.log.Error("rendering a live report", "exercise", exercise, "err", err)
			} else {
				e.Report = buf.String()
			}
		}
	}
	if len(e.Grades) > 0 {
		gs := make([]push.Grade, len(e.Grades))
		for i, g := range e.Grades {
			gs[i] = h.liveGrade(g)
		}
		e.Grades = gs
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return wsjson.Write(wctx, conn, e)
}

// liveGrade fills the badge's text as the pages write it. A pending grade
// the grader has judged, though its benchmarks are still to come, reads
// "error so far"; grading and measuring say it themselves.
func (h *handlers) liveGrade(g push.Grade) push.Grade {
	g.Class, g.Label = page.LiveBadge(g.Status)
	if g.Pending && g.Status != report.Grading && g.Status != report.Measuring {
		g.Label += " so far"
	}
	g.Points = page.LivePoints(g.Score, g.MaxScore)
	if !g.SavedAt.IsZero() {
		g.When, _ = page.LiveWhen(g.SavedAt.In(h.loc))
	}
	return g
}
