// Package store keeps the lab's local state in one embedded SQLite file
// (modernc.org/sqlite: pure Go, no cgo): for now, every grade report the
// learner's `labserver grade` runs produced, so the web pages can show the
// latest result per exercise.
//
// The schema is versioned with SQLite's PRAGMA user_version: migration i
// (counting from 1) moves a database from version i-1 to version i inside
// one transaction. Later issues (submissions, learners, instructors) add
// migrations at the end of the list; a migration already released is never
// edited. A database written by a newer binary (a higher user_version than
// this one knows) is refused rather than guessed at.
//
// The database runs in WAL mode with a busy timeout, so the server can read
// while a grade command writes. A Store is safe for concurrent use.
//
// It is not a cache of the grader's work and not the source of truth for a
// course: it holds what this machine's learner saw, nothing more.
package store
