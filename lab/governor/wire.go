package governor

import (
	"unicode/utf8"

	"ratelab/lab/batch"
)

// Layout of what EncodeStep writes: a header of StepHeader float64 values,
// then WindowFields values per window, then the windows' Reasons as UTF-8,
// one after the other (WinReasonBytes gives each one's length).
const (
	StepCount    = 0 // windows in this step
	StepStopped  = 1 // 1 once the run has stopped, else 0
	StepOffer    = 2 // the committed offer after the step
	StepLastBad  = 3 // the congestion memory after the step
	StepCapacity = 4 // the target's capacity in the next window
	StepWindows  = 5 // windows run so far
	StepHeader   = 6

	WinIndex           = 0
	WinOffer           = 1 // the offer during the window
	WinSlots           = 2
	WinCapacity        = 3
	WinAttempts        = 4
	WinAttemptFailures = 5
	WinRetries         = 6
	WinRequestsOK      = 7
	WinRequestsFailed  = 8
	WinAction          = 9  // adaptive.Action of the decision
	WinNextOffer       = 10 // the decision's Offer
	WinLastBad         = 11 // the decision's LastBad
	WinReasonBytes     = 12 // length of the decision's Reason, in bytes
	WindowFields       = 13
)

// MaxReasonBytes is the longest Reason EncodeStep writes; a longer one,
// which only a learner's governor would return, is cut at a character
// boundary.
const MaxReasonBytes = 240

// MaxStepBytes returns the most bytes EncodeStep writes for n windows.
func MaxStepBytes(n int) int { return 8*(StepHeader+n*WindowFields) + n*MaxReasonBytes }

// EncodeStep appends the run's state and the windows ws, as Step returned
// them, to dst in the layout above, little-endian, and returns the extended
// slice. Read it in JavaScript as a Float64Array over the numbers and a
// TextDecoder over the rest.
func (r *Run) EncodeStep(dst []byte, ws []Window) []byte {
	w := batch.Writer{Bytes: dst}
	w.Float(float64(len(ws)))
	w.Bool(r.side.Stopped)
	w.Float(r.offer)
	w.Float(r.lastBad)
	w.Float(r.Capacity())
	w.Float(float64(r.window))
	for _, win := range ws {
		c := win.Counts
		w.Float(float64(win.Index))
		w.Float(win.Offer)
		w.Float(float64(win.Slots))
		w.Float(win.Capacity)
		w.Float(float64(c.Attempts))
		w.Float(float64(c.AttemptFailures))
		w.Float(float64(c.Retries))
		w.Float(float64(c.RequestsOK))
		w.Float(float64(c.RequestsFailed))
		w.Float(float64(win.Decision.Action))
		w.Float(win.Decision.Offer)
		w.Float(win.Decision.LastBad)
		w.Float(float64(len(clip(win.Decision.Reason))))
	}
	for _, win := range ws {
		w.Bytes = append(w.Bytes, clip(win.Decision.Reason)...)
	}
	return w.Bytes
}

// clip cuts s to at most MaxReasonBytes, at a character boundary.
func clip(s string) string {
	if len(s) <= MaxReasonBytes {
		return s
	}
	n := MaxReasonBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
