package class

import (
	"context"

	"ratelab/grader/report"
	"ratelab/internal/event"
	"ratelab/internal/store"
)

// engine is the class's queue of gradings: who grades a stored job, and
// how the events of its grading reach the subscribers. Start picks it
// once, by the store's backend: local on SQLite (local.go), River on
// Postgres (river.go). Until Start, a class is local.
type engine interface {
	// start starts grading; the engine stops when ctx ends.
	start(ctx context.Context) error
	// wait waits for the engine to stop after start's context ended.
	wait()
	// submit stores up, the upload of learner, as a queued job and has
	// its queued event published, before any event of its grading.
	submit(ctx context.Context, up store.Upload, learner string) (store.Submission, error)
	// changed tells the graders that jobs were queued.
	changed(ctx context.Context)
	// publish sends e to the subscribers.
	publish(e Event)
	// cell is the learner's dashboard cell, in state, for an event this
	// process publishes; nil where every process words its own.
	cell(ctx context.Context, sub store.Submission, state store.JobState) *Cell
	// booked records sub's finished job, graded ex (nil if it failed),
	// in the gradebook and returns it, for a done event this process
	// publishes; nil where every process records it as it hears it.
	booked(ctx context.Context, sub store.Submission, job int64, ex *report.Exercise) *Gradebook
}

// queuedEvent is the event.Queued of sub, just stored.
func queuedEvent(sub store.Submission) Event {
	return Event{Type: event.Queued, Submission: sub.ID, Job: sub.Job.ID, Learner: sub.Learner, Exercise: sub.Exercise, Kind: kindOf(sub)}
}

// Both engines are engines.
var (
	_ engine = (*local)(nil)
	_ engine = (*riverEngine)(nil)
)
