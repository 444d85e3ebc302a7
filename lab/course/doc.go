// Package course is the ratelab catalogue: the weeks of the course, their
// lessons and their exercises, as plain values.
//
// It is data only, with no I/O, so that the grader, the server and the
// WebAssembly build all show the same titles, weeks and points. It says
// nothing about how an exercise is graded; that is the grader's job.
package course
