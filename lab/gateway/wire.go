package gateway

import "ratelab/lab/batch"

// Layout of an encoded batch (see Encode): a header of Header float64
// values, SideFields values for each side (the gateway, then the shared
// budget), then the batch's events: the gateway's, then the shared
// budget's, EventFields values each.
const (
	HeaderNow      = batch.HeaderNow      // virtual time reached, ns
	HeaderDuration = batch.HeaderDuration // the run's duration, ns
	HeaderDone     = batch.HeaderDone     // 1 once the run reached its duration
	HeaderPending  = batch.HeaderPending  // events of both sides not yet encoded, after this batch
	HeaderEvents   = batch.HeaderEvents   // 2 values: the events in this batch, by side
	Header         = HeaderEvents + 2

	SideStopped = 0 // 1 once the side stopped (see ImplStatus)
	SideCounts  = 1 // NumKinds*NumOutcomes values: Counts[kind][outcome] at SideCounts + kind*NumOutcomes + outcome
	SideFields  = SideCounts + int(NumKinds)*int(NumOutcomes)

	EvAt      = 0 // ns
	EvKind    = 1 // Kind, for a message
	EvOutcome = 2 // Outcome, for a message
	EvBudget  = 3 // BudgetNone, BudgetOrders, BudgetCancels or BudgetOther
	EvRetry   = 4 // Verdict.RetryAfterNs
	EvFlood   = 5 // Event.FloodNs
	EvMark    = 6 // Mark
	// EventFields is the number of values per event.
	EventFields = 7

	// MaxEvents is the most events of one side in one batch.
	MaxEvents = 512
)

// The budgets of a verdict, as encoded.
const (
	BudgetNone    = 0
	BudgetOrders  = 1
	BudgetCancels = 2
	BudgetOther   = 3 // any other text: for a reload mark, its error (see Side.ReloadError)
)

// EncodedLen is the largest length in bytes of an encoded batch.
const EncodedLen = 8 * (Header + 2*SideFields + 2*MaxEvents*EventFields)

func budgetCode(s string) float64 {
	switch s {
	case "":
		return BudgetNone
	case "orders":
		return BudgetOrders
	case "cancels":
		return BudgetCancels
	}
	return BudgetOther
}

// Encode appends the run's state to dst as little-endian float64 values
// in the layout above, with the events of each side from sent[side] on (at
// most MaxEvents of each), advances sent past them, and returns the
// extended slice. Read it in JavaScript as a Float64Array; while
// HeaderPending is above 0, encode again for the rest.
func (r *Run) Encode(dst []byte, sent *[2]int) []byte {
	sides := r.Sides()
	pages := batch.NextPair(*sent, [2]int{len(sides[0].Events), len(sides[1].Events)}, MaxEvents)
	w := batch.Writer{Bytes: dst}
	w.Header(r.now, r.sc.DurationNs, r.Done(), pages[0], pages[1])
	for _, sd := range sides {
		w.Bool(sd.Stopped)
		for k := range NumKinds {
			for o := range NumOutcomes {
				w.Float(float64(sd.Counts[k][o]))
			}
		}
	}
	for i, sd := range sides {
		for _, e := range sd.Events[pages[i].From:pages[i].To] {
			w.Float(float64(e.AtNs))
			w.Float(float64(e.Kind))
			w.Float(float64(e.Verdict.Outcome))
			w.Float(budgetCode(e.Verdict.Budget))
			w.Float(float64(e.Verdict.RetryAfterNs))
			w.Float(float64(e.FloodNs))
			w.Float(float64(e.Mark))
		}
		sent[i] = pages[i].To
	}
	return w.Bytes
}

// ReloadError is why the side's reload failed, or "" if it did not (or
// has not happened).
func (sd *Side) ReloadError() string {
	for _, e := range sd.Events {
		if e.Mark == MarkReload && e.Verdict.Budget != "" {
			return e.Verdict.Budget
		}
	}
	return ""
}
