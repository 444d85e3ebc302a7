// @ts-check
// ratelab: the events the server sends the pages over their websockets,
// class mode's (class.js, the editor) and the live loop's (live.js): the
// Type constants of internal/event, where each is described. Match events
// against this table only; TestScriptsTable (internal/event) fails when it
// and the Go constants differ.

export const EVENT = {
  HELLO: "hello",               // a stream opens (live: version, message, grades)
  CHECK: "check",               // a check's result (class: result; live: check, grade so far, report)
  GRADE: "grade",               // an exercise's grade, saved (class: summary or message; live: grade, report)
  RESYNC: "resync",             // this page fell behind: reload
  QUEUED: "queued",             // class: waiting for a worker
  RUNNING: "running",           // class: a worker took the job
  BUILD: "build",               // class: building the learner's code
  START: "start",               // class: a check started: check
  COURSE: "course",             // class: a due date or an extension changed
  SAVED: "saved",               // live: a save; exercises are being rebuilt and graded
  BUILT: "built",               // live: a new Yours build: version
  BUILD_FAILED: "build_failed", // live: exercises/ does not compile: message
  NOT_BUILT: "not_built",       // live: an exercise does not compile, not graded: exercises, message
  GRADE_FAILED: "grade_failed", // live: the grader could not run: message
};
