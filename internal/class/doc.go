// Package class runs a class: learners submit exercises, the server grades
// them itself, the instructor watches the scores arrive.
//
// It holds the domain of class mode and nothing of HTTP: validating an
// upload (Validate), throttling each learner's submissions with the
// course's own token bucket (Throttle), the durable queue and its worker
// (Class: jobs live in the SQLite store, so a job that was running when the
// server died is graded again at start-up), the live events of a grading
// (Subscribe; Event, whose EventType values web/static/class.js lists too),
// and the gradebook (best and latest score per learner and
// exercise, and how many learners hit each pitfall). A check (Check) grades
// a learner's draft through the same queue, workers and sandbox as a
// submission, on a budget of its own (CheckThrottle), and reaches neither
// the gradebook nor the dashboard's events.
//
// It is not the grader (package grader grades; Class calls it with the
// sandbox on) and not the web pages (internal/server renders them).
package class
