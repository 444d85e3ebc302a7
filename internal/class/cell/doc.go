// Package cell is one learner's standing on one exercise as the class
// dashboard shows it, and the words of its cell: written once, here, for
// the page the server renders (web/page) and for the live update
// (internal/class puts them in the dashboard's events, and
// web/static/class.js only shows them).
//
// It is not the gradebook (internal/class keeps that) nor its page.
package cell
