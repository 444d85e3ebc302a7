package breaker

import "ratelab/lab/batch"

// Layout of an encoded batch (see Encode): a header of Header float64
// values, SideFields values for each side (the breaker's, then the one
// without), then the batch's events: the breaker side's, then the other's,
// EventFields values each.
const (
	HeaderNow      = batch.HeaderNow      // virtual time reached, ns
	HeaderDuration = batch.HeaderDuration // the run's duration, ns
	HeaderDone     = batch.HeaderDone     // 1 once the run reached its duration
	HeaderPending  = batch.HeaderPending  // events of both sides not yet encoded, after this batch
	HeaderEvents   = batch.HeaderEvents   // 2 values: the events in this batch, by side
	Header         = HeaderEvents + 2

	SideStopped        = 0 // 1 once the side stopped (see Side.ImplStatus)
	SideState          = 1 // the state as last observed
	SideGen            = 2 // the generation
	SideRequests       = 3 // then Counts' fields, in their order
	SideRequestsOK     = 4
	SideRequestsFailed = 5
	SideAttempts       = 6
	SideDownAttempts   = 7
	SideRetries        = 8
	SideRefused        = 9
	SideProbes         = 10
	SideLate           = 11
	SideLateChanged    = 12
	SideOpens          = 13
	SideInFlight       = 14
	SideMaxInFlight    = 15
	SideDownNs         = 16 // how long the backend has been down so far, ns
	SideFields         = 17

	EvAt        = 0 // ns
	EvKind      = 1 // Kind
	EvClient    = 2
	EvTry       = 3
	EvGen       = 4 // the generation after the event
	EvState     = 5 // the state after the event
	EvFlags     = 6 // FlagAdmitted | FlagProbe | FlagSuccess | FlagTimeout | FlagLate
	EvStart     = 7 // a result: when its attempt was let through, ns
	EvTicketGen = 8 // a result: the generation that let it through
	EvPrevGen   = 9 // a result: the generation before it; a state change: the one it ended
	EvPrevState = 10
	// EventFields is the number of values per event.
	EventFields = 11

	// MaxEvents is the most events of one side in one batch.
	MaxEvents = 1024
)

// The bits of EvFlags.
const (
	FlagAdmitted = 1 << iota
	FlagProbe
	FlagSuccess
	FlagTimeout
	FlagLate
)

// EncodedLen is the largest length in bytes of an encoded batch.
const EncodedLen = 8 * (Header + 2*SideFields + 2*MaxEvents*EventFields)

// Flags returns e's EvFlags.
func (e Event) Flags() int {
	f := 0
	for _, b := range []struct {
		on  bool
		bit int
	}{{e.Admitted, FlagAdmitted}, {e.Probe, FlagProbe}, {e.Success, FlagSuccess}, {e.Timeout, FlagTimeout}, {e.Late, FlagLate}} {
		if b.on {
			f |= b.bit
		}
	}
	return f
}

// Encode appends the run's state to dst as little-endian float64 values in
// the layout above, with the events of each side from sent[side] on (at
// most MaxEvents of each), advances sent past them, and returns the
// extended slice. Read it in JavaScript as a Float64Array; while
// HeaderPending is above 0, encode again for the rest.
func (r *Run) Encode(dst []byte, sent *[2]int) []byte {
	sides := r.Sides()
	pages := batch.NextPair(*sent, [2]int{len(sides[0].Events), len(sides[1].Events)}, MaxEvents)
	w := batch.Writer{Bytes: dst}
	w.Header(r.now, r.sc.DurationNs, r.Done(), pages[0], pages[1])
	for _, sd := range sides {
		c := sd.Counts
		w.Bool(sd.Stopped)
		w.Float(float64(sd.state))
		w.Float(float64(sd.gen))
		for _, v := range []uint64{c.Requests, c.RequestsOK, c.RequestsFailed, c.Attempts, c.DownAttempts, c.Retries,
			c.Refused, c.Probes, c.Late, c.LateChanged, c.Opens, c.InFlight, c.MaxInFlight} {
			w.Float(float64(v))
		}
		w.Float(float64(r.sc.DownNs(r.now)))
	}
	for i, sd := range sides {
		for _, e := range sd.Events[pages[i].From:pages[i].To] {
			w.Float(float64(e.AtNs))
			w.Float(float64(e.Kind))
			w.Float(float64(e.Client))
			w.Float(float64(e.Try))
			w.Float(float64(e.Gen))
			w.Float(float64(e.State))
			w.Float(float64(e.Flags()))
			w.Float(float64(e.StartNs))
			w.Float(float64(e.TicketGen))
			w.Float(float64(e.PrevGen))
			w.Float(float64(e.PrevState))
		}
		sent[i] = pages[i].To
	}
	return w.Bytes
}
