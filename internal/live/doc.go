// Package live is the single-learner lab's live loop: when the learner
// saves a file under exercises/, the server rebuilds the "Yours"
// WebAssembly, regrades the exercises that changed, and pushes what
// happens to every open page.
//
// It holds the push protocol as plain Go types (Event and its Type
// constants, which web/static/live.js mirrors in its EVENT table), a Hub
// that fans events out to the pages' websockets without ever waiting for a
// slow one, and Loop, which turns batches of changed exercises into
// builds, gradings and events. Building, grading and saving are functions
// handed in (cmd/labserver's serve gives the real ones), so the loop is
// tested without a toolchain.
//
// It is not class mode's live view (internal/class), which streams the
// gradings of submissions to many learners; and it serves nothing itself:
// internal/server writes the Hub's events to websockets.
package live
