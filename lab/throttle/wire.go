package throttle

import "ratelab/lab/batch"

// Layout of an encoded batch (see Encode): a header of Header float64
// values, then the batch's events, EventFields values each.
const (
	HeaderNow      = batch.HeaderNow      // virtual time reached, ns
	HeaderDuration = batch.HeaderDuration // the run's duration, ns
	HeaderDone     = batch.HeaderDone     // 1 once the run reached its duration
	HeaderPending  = batch.HeaderPending  // events not yet encoded, after this batch
	HeaderEvents   = batch.HeaderEvents   // events in this batch
	HeaderStopped  = HeaderEvents + 1     // 1 once the run stopped (see ImplStatus)
	HeaderStatusOK = HeaderStopped + 1    // 1 if the Status fields hold the gate's Status at now
	HeaderStatus   = HeaderStatusOK + 1   // StatusFields values: the gate's Status at now
	HeaderCounts   = HeaderStatus + StatusFields
	// Counts[addr][outcome] at HeaderCounts + addr*NumOutcomes + outcome.
	Header = HeaderCounts + MaxAddresses*int(NumOutcomes)

	// Offsets of a Status within the header.
	StState          = 0
	StRecoverAt      = 1
	StDegradedLimit  = 2
	StDegradedWrites = 3
	StMaxCalls       = 4
	StWindow         = 5
	StLevel          = 6
	StCWindow        = 7 // the congestion configuration: its window,
	StLowBelow       = 8
	StHighAbove      = 9
	StReduceBps      = 10
	StIncreaseBps    = 11
	StMinMaxCalls    = 12
	StMaxMaxCalls    = 13
	StatusFields     = 14

	EvAt             = 0
	EvKind           = 1  // Kind
	EvAddr           = 2  // the address's index, for a write
	EvOutcome        = 3  // Outcome, for a write
	EvState          = 4  // Before.State
	EvLevel          = 5  // Before.Level
	EvMaxCalls       = 6  // Before.MaxCalls
	EvDegradedWrites = 7  // Before.DegradedWrites
	EvLimit          = 8  // Limit, for a write
	EvUsed           = 9  // Used, for a write
	EvAfterState     = 10 // After.State (not for a write)
	EvAfterLevel     = 11 // After.Level
	EvAfterMaxCalls  = 12 // After.MaxCalls
	EvRecoverAt      = 13 // After.RecoverAtNs for an operator's action; Before.RecoverAtNs for a recovery
	EvSince          = 14 // SinceNs, for a recovery
	EvLastSeen       = 15 // LastSeenNs, for a recovery
	// EventFields is the number of values per event.
	EventFields = 16

	// MaxEvents is the most events in one batch.
	MaxEvents = 512
)

// EncodedLen is the largest length in bytes of an encoded batch.
const EncodedLen = 8 * (Header + MaxEvents*EventFields)

// Encode appends the run's state to dst as little-endian float64 values
// in the layout above, with its events from *sent on (at most MaxEvents),
// advances *sent past them, and returns the extended slice. Read it in
// JavaScript as a Float64Array; while HeaderPending is above 0, encode
// again for the rest.
func (r *Run) Encode(dst []byte, sent *int) []byte {
	page := batch.Next(*sent, len(r.Events), MaxEvents)
	st, ok := r.Last()
	w := batch.Writer{Bytes: dst}
	w.Header(r.now, r.sc.DurationNs, r.Done(), page)
	w.Bool(r.Stopped)
	w.Bool(ok)
	c := st.Congestion
	for _, v := range [StatusFields]uint64{
		uint64(st.State), st.RecoverAtNs, uint64(st.DegradedWriteLimit), uint64(st.DegradedWrites),
		uint64(st.MaxCalls), st.WindowNs, uint64(st.Level),
		c.WindowNs, uint64(c.LowBelow), uint64(c.HighAbove), uint64(c.ReduceBps), uint64(c.IncreaseBps),
		uint64(c.MinMaxCalls), uint64(c.MaxMaxCalls),
	} {
		w.Float(float64(v))
	}
	for a := range MaxAddresses {
		for o := range NumOutcomes {
			w.Float(float64(r.Counts[a][o]))
		}
	}
	for _, e := range r.Events[page.From:page.To] {
		recoverAt := e.After.RecoverAtNs
		if e.Kind == Recovered {
			recoverAt = e.Before.RecoverAtNs
		}
		for _, v := range [EventFields]uint64{
			e.AtNs, uint64(e.Kind), uint64(e.Addr), uint64(e.Outcome),
			uint64(e.Before.State), uint64(e.Before.Level), uint64(e.Before.MaxCalls), uint64(e.Before.DegradedWrites),
			uint64(e.Limit), uint64(e.Used),
			uint64(e.After.State), uint64(e.After.Level), uint64(e.After.MaxCalls), recoverAt,
			e.SinceNs, e.LastSeenNs,
		} {
			w.Float(float64(v))
		}
	}
	*sent = page.To
	return w.Bytes
}

// OtherError is the text of the first refusal that was none of the three
// the contract allows, or "" if there was none.
func (r *Run) OtherError() string {
	for _, e := range r.Events {
		if e.Kind == Write && e.Outcome == Other {
			return e.Err
		}
	}
	return ""
}
