// Package event names the events the server sends the pages over their
// websockets, one vocabulary for both streams: class mode's submissions
// (internal/class's Event) and the single-learner lab's saves
// (internal/live's Event). The pages' scripts match events against one
// table of the same names, EVENT in web/static/events.js; TestScriptsTable
// fails when the two differ.
package event

// Type is what an event tells, its "type" in JSON.
type Type string

// The events both streams send.
const (
	// Hello opens a stream. Class mode: the dashboard's. The live loop:
	// every page's, with the Yours build served now (Version, and Message
	// if the latest build failed) and the latest grade of every graded
	// exercise (Grades).
	Hello Type = "hello"
	// Check is one check's result. Class mode: Result, as the grader
	// reports it. The live loop: Check, with the exercise's grade so far
	// (Grade, Pending).
	Check Type = "check"
	// Grade is an exercise's grade, saved. Class mode: the submission's
	// grading is stored (Summary, or Message if it could not grade); the
	// last event of a submission. The live loop: Grade, Pending when its
	// benchmarks are still to come; a second Grade follows them.
	Grade Type = "grade"
	// Resync: the subscriber fell behind and was dropped: reload.
	Resync Type = "resync"
)

// Class mode's events, in the order a grading sends them: Queued,
// Running, Build, then Start and Check for each check, then Grade.
// Build, Start and Check are the grader's progress phases passed on as
// they come.
const (
	// Queued: the submission's job is waiting for a worker.
	Queued Type = "queued"
	// Running: a worker took the job.
	Running Type = "running"
	// Build: the learner's code is being built.
	Build Type = "build"
	// Start: a check started (Check names it).
	Start Type = "start"
	// Course: the course changed (a due date, an extension): what every
	// page says of due dates, late marks and the scores that count may
	// have changed. It names no submission, and goes to every view of
	// every submission.
	Course Type = "course"
)

// The live loop's events, in the order a save sends them: Saved, then
// Built or BuildFailed, then Check and Grade for each exercise graded (or
// NotBuilt, or GradeFailed).
const (
	// Saved: a save was seen; Exercises are being rebuilt and graded.
	Saved Type = "saved"
	// Built: new Yours builds are served, Files under /static/ (Version).
	Built Type = "built"
	// BuildFailed: exercises/ does not compile for the browser; Message is
	// the compiler's "file:line: message" lines. The last good build stays
	// served.
	BuildFailed Type = "build_failed"
	// NotBuilt: an exercise a save changed does not compile (Exercises,
	// the one; Message, the compiler's lines). It is not graded: its latest
	// saved grade stands, on the pages as in the store, so that a learner
	// mid-edit keeps the report they work from.
	NotBuilt Type = "not_built"
	// GradeFailed: the grader could not run at all (Message); the latest
	// saved grades stand.
	GradeFailed Type = "grade_failed"
)
