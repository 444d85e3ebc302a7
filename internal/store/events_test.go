package store_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// On Postgres, a submission's queued event is published in the
// submission's own transaction: it is heard once the submission is
// committed, never before, and never without it; SQLite ignores it.
func TestQueuedEventInTheSubmissionsTransaction(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		u := learners(t, s, "ada")
		var heard func() string
		if s.Backend() == store.Postgres {
			conn, err := pgx.Connect(ctx, s.URL())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			if _, err := conn.Exec(ctx, "LISTEN "+store.EventsChannel); err != nil {
				t.Fatal(err)
			}
			heard = func() string {
				wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				defer cancel()
				n, err := conn.WaitForNotification(wctx)
				if err != nil {
					t.Fatalf("no event heard: %v", err)
				}
				body, err := s.EventBody(ctx, n.Payload)
				if err != nil {
					t.Fatal(err)
				}
				return string(body)
			}
		}
		files := []store.File{{Name: "a.go", Content: []byte("package tokenbucket")}}

		// A queued event that cannot be made stores nothing.
		_, err := s.SubmitUpload(ctx, store.Upload{UserID: u["ada"].ID, Exercise: "tokenbucket", Files: files,
			QueuedEvent: func(store.Submission) ([]byte, error) { return nil, errors.New("no body") }})
		if subs, _ := s.Submissions(ctx, 0, 10); s.Backend() == store.Postgres && (err == nil || len(subs) != 0) {
			t.Fatalf("SubmitUpload with a failing queued event = %v, %d submissions; want the error and nothing stored", err, len(subs))
		}

		var made store.Submission
		sub, err := s.SubmitUpload(ctx, store.Upload{UserID: u["ada"].ID, Exercise: "tokenbucket", Files: files,
			QueuedEvent: func(sub store.Submission) ([]byte, error) {
				made = sub
				return []byte(`{"type":"queued","submission":` + itoa(sub.ID) + `}`), nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		if heard == nil {
			if made.ID != 0 {
				t.Errorf("SQLite made a queued event %+v; want it ignored (its process publishes)", made)
			}
			return
		}
		if made.ID != sub.ID || made.Job.ID != sub.Job.ID || made.Job.State != store.Queued {
			t.Errorf("the queued event was made of %+v; want the stored submission %d with its queued job %d", made, sub.ID, sub.Job.ID)
		}
		if got, want := heard(), `{"type":"queued","submission":`+itoa(sub.ID)+`}`; got != want {
			t.Errorf("heard %s; want %s", got, want)
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
