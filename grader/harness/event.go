package harness

import "ratelab/grader/report"

// Event is one line of the child's protocol. Exactly one field is set.
type Event struct {
	Plan       []report.Check `json:"plan,omitempty"`        // every check, in order, not yet run
	NotStarted bool           `json:"not_started,omitempty"` // the implementation is the stub; nothing more follows
	Start      string         `json:"start,omitempty"`       // the id of the check about to run
	Result     *report.Check  `json:"result,omitempty"`      // the result of the check last started
	Done       bool           `json:"done,omitempty"`        // every check ran
}

// ProtocolFD is the file descriptor the child writes events to.
const ProtocolFD = 3
