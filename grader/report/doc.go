// Package report defines the grader's report, the JSON document named
// "ratelab.grade/v1" in the course contract, and nothing else: no grading,
// no I/O. The grader fills it; the terminal printer, the server and the
// web pages read it.
package report
