package server

import (
	"testing"
	"time"

	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store"
)

// A page opened while a job waits or runs reads its state from the store:
// a job handed to River and not started waits (queued), and a started
// one's note ("regrading after a worker stopped") is told as a running
// event's message would.
func TestOpeningEventAndPageState(t *testing.T) {
	started := time.Unix(1_700_000_000, 0).UTC()
	const note = "regrading after a worker stopped"
	for _, tc := range []struct {
		name string
		job  store.Job
		want class.Event
	}{
		{"queued", store.Job{ID: 7, State: store.Queued},
			class.Event{Type: event.Queued}},
		{"handed to River, not started", store.Job{ID: 7, State: store.Running, Note: note},
			class.Event{Type: event.Queued}},
		{"running", store.Job{ID: 7, State: store.Running, StartedAt: started},
			class.Event{Type: event.Running}},
		{"regrading", store.Job{ID: 7, State: store.Running, StartedAt: started, Note: note},
			class.Event{Type: event.Running, Message: note}},
	} {
		sub := store.Submission{ID: 3, Learner: "ada", Exercise: "gcra", Job: tc.job}
		want := tc.want
		want.Submission, want.Job, want.Learner, want.Exercise = 3, 7, "ada", "gcra"
		got := openingEvent(sub)
		if got.Type != want.Type || got.Message != want.Message || got.Submission != want.Submission ||
			got.Job != want.Job || got.Learner != want.Learner || got.Exercise != want.Exercise {
			t.Errorf("%s: openingEvent = %+v; want %+v", tc.name, got, want)
		}
		wantState := store.Running
		if want.Type == event.Queued {
			wantState = store.Queued
		}
		if st := pageSubmission(sub, false).State; st != wantState {
			t.Errorf("%s: the page's state %q; want %q", tc.name, st, wantState)
		}
	}
}
