package lti

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store"
)

// Assignment and Grade Services 2.0: the score that counts (the
// gradebook's Count: due dates, extensions and late policy applied) goes
// to the line item of each resource link a learner launched.
//
// The scores to post are a durable queue in the class's database
// (store.LTIScore, one row per line item and learner): Sync compares the
// gradebook with it and queues what changed, so a score is queued once
// per change (a grading told twice, or a sync that finds nothing new,
// queues nothing), and Run posts what is queued, retrying failures with a
// doubling wait. A posting claims its row with a lease (ClaimLTIScore),
// so that two servers of a Postgres class never post it together, and a
// server that dies mid-post leaves it to the next. Run syncs when a
// grading finishes (the class's events, which on Postgres come from every
// process), and every syncEvery for what changes scores without a
// grading: a due date, an extension, a regrade, a learner's first launch.

// Gradebook is what the poster reads of the class.
type Gradebook interface {
	Gradebook(ctx context.Context) (*class.Gradebook, error)
	Subscribe(submission int64) *class.Subscription
}

var _ Gradebook = (*class.Class)(nil)

const (
	syncEvery = 15 * time.Second
	postEvery = time.Second     // how often due retries are looked for
	postLease = 2 * time.Minute // a posting's hold on its row
	maxWait   = time.Hour       // the longest wait between retries
)

// Sync queues the scores that count which the platforms do not have yet,
// for one learner (by the class's name) or, learner "", every one. It
// returns how many it queued.
func (t *Tool) Sync(ctx context.Context, cls Gradebook, learner string) (int, error) {
	cells, err := t.st.LTIGradedCells(ctx, learner)
	if err != nil || len(cells) == 0 {
		return 0, err
	}
	gb, err := cls.Gradebook(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, c := range cells {
		cnt := gb.Count(c.Learner, c.Exercise)
		if !cnt.Graded {
			continue
		}
		max := points(c.Exercise)
		if cell := gb.Cell(c.Learner, c.Exercise); cell.Max > 0 {
			max = cell.Max
		}
		queued, err := t.st.QueueLTIScore(ctx, store.LTIScore{PlatformID: c.PlatformID, LineItemURL: c.LineItemURL,
			UserID: c.UserID, Sub: c.Sub, Exercise: c.Exercise, SubmissionID: cnt.Submission, Score: min(cnt.Score, max), MaxScore: max}, t.hand())
		if err != nil {
			return n, err
		}
		if queued {
			n++
		}
	}
	return n, nil
}

// Run syncs and posts scores until ctx ends (see the notes above). On a
// Postgres store River posts them (river.go); should River not start, Run
// posts them itself, as on SQLite.
func (t *Tool) Run(ctx context.Context, cls Gradebook) {
	if t.st.Backend() == store.Postgres {
		r, err := t.startRiver(ctx)
		if err != nil {
			t.log.Error("lti: River did not start: this server posts the scores itself", "err", err)
		} else {
			t.mu.Lock()
			t.river = r
			t.mu.Unlock()
			defer func() {
				t.mu.Lock()
				t.river = nil
				t.mu.Unlock()
				r.stop(t.log)
			}()
		}
	}
	sub := cls.Subscribe(0)
	defer func() { sub.Close() }()
	syncTick, postTick := time.NewTicker(syncEvery), time.NewTicker(postEvery)
	defer syncTick.Stop()
	defer postTick.Stop()
	sync := func(learner string) {
		if _, err := t.Sync(ctx, cls, learner); err != nil && ctx.Err() == nil {
			t.log.Warn("lti: reading the scores to post", "err", err)
		}
	}
	sync("")
	for {
		if t.hand() == nil {
			t.PostDue(ctx)
		}
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-sub.C:
			if !ok { // dropped for falling behind: read everything again
				sub = cls.Subscribe(0)
				sync("")
			} else if ev.Type == event.Grade && ev.Kind == "" {
				sync(ev.Learner)
			}
		case <-t.wake:
			sync("")
		case <-syncTick.C:
			sync("")
		case <-postTick.C:
		}
	}
}

// PostDue posts every queued score that is due, and returns how many were
// posted.
func (t *Tool) PostDue(ctx context.Context) int {
	posted := 0
	for ctx.Err() == nil {
		sc, ok, err := t.st.ClaimLTIScore(ctx, t.cfg.Clock.Now().Add(postLease))
		if err != nil {
			if ctx.Err() == nil {
				t.log.Warn("lti: taking a score to post", "err", err)
			}
			return posted
		}
		if !ok {
			return posted
		}
		if err := t.post(ctx, sc); err != nil {
			giveUp := sc.Attempts >= t.cfg.MaxAttempts
			wait := backoff(t.cfg.RetryDelay, sc.Attempts)
			t.log.Warn("lti: posting a score", "learner", sc.UserID, "exercise", sc.Exercise, "attempt", sc.Attempts, "retry in", wait, "giving up", giveUp, "err", err)
			if err := t.st.FailedLTIScore(context.WithoutCancel(ctx), sc.ID, sc.Version, err.Error(), t.cfg.Clock.Now().Add(wait), giveUp); err != nil {
				t.log.Warn("lti: recording a failed post", "err", err)
			}
			continue
		}
		if _, err := t.st.PostedLTIScore(context.WithoutCancel(ctx), sc.ID, sc.Version); err != nil {
			t.log.Warn("lti: recording a posted score", "err", err)
		}
		posted++
	}
	return posted
}

// post sends one score to its line item (AGS 2.0 §3.4).
func (t *Tool) post(ctx context.Context, sc store.LTIScore) error {
	p, err := t.platformByID(ctx, sc.PlatformID)
	if err != nil {
		return err
	}
	u, err := url.Parse(sc.LineItemURL)
	if err != nil {
		return errorf("the line item URL %q does not parse", sc.LineItemURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/scores"
	body, err := json.Marshal(map[string]any{
		"userId": sc.Sub, "scoreGiven": sc.Score, "scoreMaximum": sc.MaxScore,
		"activityProgress": "Completed", "gradingProgress": "FullyGraded",
		"timestamp": t.cfg.Clock.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00"),
	})
	if err != nil {
		return err
	}
	tok, err := t.accessToken(ctx, p, ScopeScore)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/vnd.ims.lis.v1.score+json")
	req.Header.Set("Authorization", "Bearer "+tok)
	_, err = t.do(req, nil)
	var se *StatusError
	if errors.As(err, &se) && se.Code == http.StatusUnauthorized {
		t.forgetToken(p, ScopeScore)
	}
	return err
}

func (t *Tool) platformByID(ctx context.Context, id int64) (store.LTIPlatform, error) {
	ps, err := t.st.LTIPlatforms(ctx)
	if err != nil {
		return store.LTIPlatform{}, err
	}
	for _, p := range ps {
		if p.ID == id {
			return p, nil
		}
	}
	return store.LTIPlatform{}, errorf("platform %d is no longer registered", id)
}

// RetryFailed queues again the scores given up on, and returns how many.
func (t *Tool) RetryFailed(ctx context.Context) (int, error) {
	n, err := t.st.RequeueFailedLTIScores(ctx, t.hand())
	if n > 0 {
		t.Poke()
	}
	return n, err
}

// Scores returns the scores queued and posted, the latest first.
func (t *Tool) Scores(ctx context.Context, limit int) ([]store.LTIScore, error) {
	return t.st.LTIScores(ctx, limit)
}
