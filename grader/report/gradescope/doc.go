// Package gradescope writes a grading report as Gradescope's autograder
// results (results.json), so that the course's suites run as a Gradescope
// autograder: one Gradescope test per check, with the check's points and
// the text the terminal report shows for it. It only converts; grading and
// I/O are the caller's.
package gradescope
