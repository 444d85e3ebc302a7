// Package console prints grading for a person at a terminal: a line per
// check as it finishes, then a table of points per exercise and, for each
// failed check, what went wrong, a hint and the counterexample as calls to
// replay. Colour is the caller's choice (on for terminals only).
package console
