// Package harness is the main loop of the grading child process: the
// program the grader builds from the learner's code and the suites, runs
// under a deadline, and reads results from.
//
// The child writes one JSON event per line to file descriptor 3, never to
// standard output, so nothing the learner's code prints can pass for a
// result. It runs the checks of one exercise in order, starting from a
// given index, so that the grader can restart it after a check that hung
// or crashed the process.
package harness
