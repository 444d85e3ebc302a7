// Package store keeps the lab's state in one embedded SQLite file
// (modernc.org/sqlite: pure Go, no cgo) or, for a class graded on more
// than one machine, in a Postgres database (pgx through database/sql:
// Open takes a "postgres://" URL where it takes a path). It holds two
// things:
//
//   - grade reports: every report a learner's `labserver grade` produced
//     (SaveReport), so the local lab's pages show the latest result per
//     exercise (LatestResults, LatestResult);
//   - class mode (class.go): the accounts (learners, who sign in with a
//     token, and instructors, with a password; Role), login sessions, the
//     learners' submissions with their files, and the grading jobs of each
//     submission (JobState). The jobs table is class mode's queue: a job is
//     claimed atomically (ClaimJob), and one left running by a server that
//     died is queued again at start-up (RequeueRunning). A submission is
//     of a Kind: graded work, or a check of the learner's draft, graded the
//     same way and counted nowhere a submission is; and each learner's
//     draft of each exercise, the editor's saved code (drafts.go).
//
// Secrets are never stored: a learner's token and a session's cookie value
// are kept and looked up by their SHA-256 (Hash); an instructor's password
// by its bcrypt hash, made by the caller.
//
// The schema is versioned with SQLite's PRAGMA user_version: migration i
// (counting from 1) moves a database from version i-1 to version i inside
// one transaction; new tables come as migrations at the end of the list,
// and a migration already released is never edited. A database written by
// a newer binary (a higher user_version than this one knows) is refused
// rather than guessed at. Postgres has its own list (postgresMigrations),
// its version in the table schema_version, and migrates under an advisory
// lock so that processes starting together migrate once.
//
// Both backends run the same statements (dialect.go says in which SQL) and
// the same tests (storetest.Each runs each test on both).
//
// The database runs in WAL mode with a busy timeout, so the server reads
// while a grade command or a grading worker writes; writers take the lock
// when they begin. Options.Durable (class mode) makes every commit survive
// a power cut: a submission acknowledged is never lost. A Store is safe for
// concurrent use. Times come from the Clock handed to Open; the store
// reads no clock of its own.
//
// It is not the grader's cache and holds no policy: what may be uploaded,
// how often, and who may see what are decided by internal/class and
// internal/server.
package store
