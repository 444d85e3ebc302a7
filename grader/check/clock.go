package check

// Clocked is a pointer to a call whose time is given from the latest time
// of its script so far by a wait and a step back (see TimeAt): Clock
// returns the two fields.
type Clocked[O any] interface {
	*O
	Clock() (wait, back *uint64)
}

// MergeWaits is a Property's Merge for such calls: it drops call a,
// keeping the time it moved forward: b then waits a's wait and its own.
// Steps back are not folded.
func MergeWaits[O any, P Clocked[O]](a, b O) (O, bool) {
	aWait, aBack := P(&a).Clock()
	bWait, bBack := P(&b).Clock()
	w, ok := FoldWait(*aWait, *aBack, *bWait, *bBack)
	*bWait = w
	return b, ok
}

// Without returns s with the calls before last that drop picks removed,
// their waits added to the next call's. ok is false if a dropped call
// stepped back, or a call that would take their waits steps back.
func Without[S, O any, P Clocked[O]](s Script[S, O], last int, drop func(i int, o O) bool) (alt Script[S, O], ok bool) {
	alt.Setup = s.Setup
	var wait uint64
	for i, o := range s.Ops {
		w, back := P(&o).Clock()
		if i < last && drop(i, o) {
			if *back > 0 {
				return alt, false
			}
			wait = Saturating(wait, *w)
			continue
		}
		if *back == 0 {
			*w = Saturating(*w, wait)
		} else if wait > 0 {
			return alt, false
		}
		wait = 0
		alt.Ops = append(alt.Ops, o)
	}
	return alt, true
}

// PassesWithout reports whether s, without the calls before last that
// drop picks (there must be some), is answered right by replay.
func PassesWithout[S, O any, P Clocked[O]](s Script[S, O], last int, drop func(i int, o O) bool, replay func(Script[S, O]) Trace) bool {
	some := false
	for i, o := range s.Ops[:last] {
		some = some || drop(i, o)
	}
	alt, ok := Without[S, O, P](s, last, drop)
	return some && ok && !replay(alt).Bad
}

// BackwardTrap is the trap of a backward-time check over such calls: a
// call up to the failing one (the last step of t) stepped back, and with
// every step back made a call at the latest time instead the script is
// answered right by replay.
func BackwardTrap[S, O any, P Clocked[O]](s Script[S, O], t Trace, replay func(Script[S, O]) Trace) bool {
	last := t.Last()
	back := false
	alt := Script[S, O]{Setup: s.Setup}
	for i, o := range s.Ops {
		if w, b := P(&o).Clock(); *b > 0 {
			back = back || i <= last
			*b, *w = 0, 0
		}
		alt.Ops = append(alt.Ops, o)
	}
	return back && !replay(alt).Bad
}

// When is when a call comes: Wait after the latest time of its script so
// far (saturating at MaxUint64), or, if Back is not 0, Back before it
// (stopping at 0). A suite's call type embeds it, and is then Timed and
// Clocked.
type When struct {
	Wait uint64 // ns forward from the latest time
	Back uint64 // ns back from the latest time; wins over Wait
}

// At returns the time of the call when latest is the latest time so far.
func (w When) At(latest uint64) uint64 { return TimeAt(latest, w.Wait, w.Back) }

// Clock returns w's wait and step back, for MergeWaits and Without.
func (w *When) Clock() (wait, back *uint64) { return &w.Wait, &w.Back }
