// Package class runs a class: learners submit exercises, the server grades
// them itself, the instructor watches the scores arrive.
//
// It holds the domain of class mode and nothing of HTTP: validating an
// upload (Validate), the queue of gradings and its workers (Class), the
// live events of a grading (Subscribe; Event, named by package event) and
// the gradebook (best and latest score per learner and exercise, how many
// learners hit each pitfall, the score that counts under the due dates).
//
// Jobs always live in the store, so an acknowledged upload is never lost.
// Start picks the engine that grades them once, by the store's backend: on
// SQLite this process's workers claim them (local.go) and a job left
// running when the server died is graded again at the next start; on
// Postgres a dispatcher hands them to River, whose workers run in this
// process or in `labserver worker` processes on other machines, and the
// events travel through Postgres to every process (river.go).
//
// A check (Check) grades a learner's draft through the same queue, workers
// and sandbox as a submission, on a budget of its own (CheckThrottle), and
// reaches neither the gradebook nor the dashboard's events.
//
// It is not the grader (package grader grades; Class calls it with the
// sandbox on), not the budgets (package quota), the due dates (package
// due) or the fingerprints (package fingerprint) it applies, and not the
// web pages (internal/server renders them).
package class
