package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store"
	"ratelab/web/page"
)

// Checks: POST /class/api/checks grades the learner's saved draft as a
// check (a submission of kind "check": the same queue, sandbox and
// workers, counted nowhere a submission is) and answers once it is
// graded; GET /class/checks/:id reads one back.

// CheckJSON is a check as the API answers it.
type CheckJSON struct {
	Check    int64            `json:"check"`
	Exercise string           `json:"exercise"`
	State    store.JobState   `json:"state"`
	Result   *report.Exercise `json:"result,omitempty"` // once graded
	// Report is the result as the pages render it (HTML, Replay
	// included): the editor shows it as it is.
	Report string `json:"report,omitempty"`
	// Error says why there is no result: the grading failed for the
	// server's reasons, took longer than the job timeout, was replaced by
	// a newer check, or is not done yet.
	Error string `json:"error,omitempty"`
	URL   string `json:"url"` // GET it for the check's state later
}

// checkRequest is POST /class/api/checks's body.
type checkRequest struct {
	Exercise string `json:"exercise"`
}

// check is POST /class/api/checks: 200 {"check", "result", …} once graded;
// 429 with Retry-After over the learner's check budget; 409 with nothing
// saved to check; 422 when the draft breaks the submission rules; 503 when
// the queue is full or the server could not grade it; 504 when it was not
// graded in time (GET its url later).
func (d *draftHandlers) check(c echo.Context) error {
	u, _ := currentUser(c)
	now := d.clock.Now()
	if ok, retry := d.checks.Allow(u.ID, now); !ok {
		secs := setRetryAfter(c, retry)
		return echo.NewHTTPError(http.StatusTooManyRequests, fmt.Sprintf(
			"Throttled: you have used your checks for now (%d at once, then one every %s). One more comes in %ds, at %s: check again then. Submitting does not use them.",
			d.checks.Burst, d.checks.Every, secs, now.Add(time.Duration(secs)*time.Second).UTC().Format("15:04:05 MST")))
	}
	var body checkRequest
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	if !class.Gradable(body.Exercise) {
		return &problemError{code: http.StatusUnprocessableEntity, message: "Nothing was checked",
			problems: class.Validate(body.Exercise, nil, d.grading.Limits())}
	}
	ctx := c.Request().Context()
	dr, err := d.drafts.Draft(ctx, u.ID, body.Exercise)
	if errors.Is(err, store.ErrNotFound) {
		return echo.NewHTTPError(http.StatusConflict, fmt.Sprintf(
			"You have no draft of %s saved: save one first (PUT /class/api/drafts/%s, or type in the editor), then check it.", body.Exercise, body.Exercise))
	}
	if err != nil {
		return err
	}
	if problems := class.Validate(body.Exercise, dr.Files, d.grading.Limits()); len(problems) > 0 {
		return &problemError{code: http.StatusUnprocessableEntity, message: "The draft was not checked", problems: problems}
	}
	sub, err := d.checking.Check(ctx, u, body.Exercise, dr.Files)
	if errors.Is(err, class.ErrQueueFull) {
		c.Response().Header().Set("Retry-After", "60")
		return echo.NewHTTPError(http.StatusServiceUnavailable, "The grading queue is full: check again in a minute.")
	}
	if err != nil {
		return err
	}
	// The answer waits for the grading, longer than the server's
	// WriteTimeout may allow a request.
	_ = http.NewResponseController(c.Response()).SetWriteDeadline(time.Now().Add(d.checkWait + 10*time.Second))
	sub, err = d.awaitCheck(ctx, sub.ID)
	if err != nil {
		return err
	}
	return d.answerCheck(c, sub)
}

// checkPoll is how often a check's request reads its job from the store
// while it waits for its done event: a grading finished where this process
// hears nothing of it (an event lost with a Postgres connection) is still
// answered.
const checkPoll = 2 * time.Second

// awaitCheck waits for check id's grading to end, at most checkWait, and
// returns the check as stored then (its job not done if the wait ran out,
// or the client went away).
func (d *draftHandlers) awaitCheck(ctx context.Context, id int64) (store.Submission, error) {
	deadline := time.NewTimer(d.checkWait)
	defer deadline.Stop()
	poll := time.NewTicker(checkPoll)
	defer poll.Stop()
	for {
		// Subscribe, then read: a grading that ends in between is read
		// here as done, or received below.
		s := d.live.Subscribe(id)
		sub, err := d.submissions.Submission(ctx, id)
		if err != nil || ended(sub.Job) {
			s.Close()
			return sub, err
		}
		dropped := false
		for !dropped {
			select {
			case e, ok := <-s.C:
				if !ok { // fell behind: read the store again
					dropped = true
					break
				}
				if e.Type == event.Grade {
					s.Close()
					return d.submissions.Submission(context.WithoutCancel(ctx), id)
				}
			case <-poll.C:
				if now, err := d.submissions.Submission(ctx, id); err == nil && ended(now.Job) {
					s.Close()
					return now, nil
				}
			case <-deadline.C:
				s.Close()
				return d.submissions.Submission(context.WithoutCancel(ctx), id)
			case <-ctx.Done():
				s.Close()
				return sub, nil
			}
		}
		s.Close()
	}
}

// ended reports whether a job will not change any more.
func ended(j store.Job) bool { return j.State == store.Done || j.State == store.Superseded }

// answerCheck answers a check in JSON with the status its state calls for.
func (d *draftHandlers) answerCheck(c echo.Context, sub store.Submission) error {
	out := d.checkJSON(c.Request().Context(), sub)
	code := http.StatusOK
	switch {
	case out.Result != nil:
	case sub.Job.State == store.Superseded:
		code = http.StatusConflict
	case sub.Job.State != store.Done:
		code = http.StatusGatewayTimeout
		out.Error = fmt.Sprintf("Not graded within %s (the queue may be long): its result will be at %s.", d.checkWait, out.URL)
	case sub.Job.ServerFault:
		code = http.StatusServiceUnavailable
	default: // the grading ran out of time, or could not grade the code
		code = http.StatusUnprocessableEntity
	}
	return c.JSON(code, out)
}

func (d *draftHandlers) checkJSON(ctx context.Context, sub store.Submission) CheckJSON {
	out := CheckJSON{Check: sub.ID, Exercise: sub.Exercise, State: sub.Job.State, Result: sub.Job.Result, Error: sub.Job.Error,
		URL: "/class/checks/" + strconv.FormatInt(sub.ID, 10)}
	if sub.Job.Waiting() {
		out.State = store.Queued
	}
	if sub.Job.Result != nil {
		var b bytes.Buffer
		g := page.Graded{Result: *sub.Job.Result, SavedAt: sub.Job.FinishedAt.In(d.loc), Seed: sub.Job.Seed}
		if err := page.ClassCheckReport(sub.Exercise, g).Render(ctx, &b); err == nil {
			out.Report = b.String()
		}
	}
	return out
}

// checkResult is GET /class/checks/:id: the check's JSON for programs
// (200 whatever its state), or its report as an HTML fragment (the
// report beside the editor).
func (d *draftHandlers) checkResult(c echo.Context) error {
	sub, err := d.ownSubmission(c)
	if err == nil && sub.Kind != store.KindCheck {
		err = notFound("There is no check %d of yours.", sub.ID)
	}
	if err != nil {
		return err
	}
	out := d.checkJSON(c.Request().Context(), sub)
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, out)
	}
	if out.Report == "" {
		msg := out.Error
		if msg == "" {
			msg = "Not graded yet: reload in a moment."
		}
		return c.HTML(http.StatusOK, `<p class="note" data-testid="check-pending">`+html.EscapeString(msg)+`</p>`)
	}
	return c.HTML(http.StatusOK, out.Report)
}
