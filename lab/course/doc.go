// Package course is the ratelab catalogue: the weeks of the course, their
// lessons and their exercises, as plain values.
//
// It is data only, with no I/O, so that the grader, the server and the
// WebAssembly build all show the same titles, weeks and points. Each lesson
// is declared here once with its table of contents and the live
// visualizations its page mounts; the web pages (web/page) add the prose and
// load the visualizations' files from that declaration. It says nothing
// about how an exercise is graded; that is the grader's job.
package course
