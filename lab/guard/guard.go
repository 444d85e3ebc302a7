// Package guard names what went wrong when learner code run by the lab
// panics or is missing: a stub says it is not implemented yet, anything
// else says it panicked and with what, and missing code says why. It is
// shared by every simulation that runs a "Yours" implementation, so they
// all say it the same way; Side is the status of one side of a run that
// may call learner code.
package guard

import "strings"

// NotImplemented is the status of code that panicked with a message
// containing "not implemented": an exercise stub.
const NotImplemented = "not implemented yet"

// Status returns the status of code that panicked with v: NotImplemented
// for a stub, otherwise "panicked: " and the message.
func Status(v any) string {
	var msg string
	switch v := v.(type) {
	case string:
		msg = v
	case error:
		msg = v.Error()
	case interface{ String() string }:
		msg = v.String()
	default:
		msg = "a value that is not a message"
	}
	if strings.Contains(strings.ToLower(msg), "not implemented") {
		return NotImplemented
	}
	return "panicked: " + msg
}

// Missing returns the status of code that is not there at all: why, as an
// Impl's Missing field gives it ("your code does not build"), or "not
// available" when why is empty.
func Missing(why string) string {
	if why == "" {
		return "not available"
	}
	return why
}
