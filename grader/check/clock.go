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

// Clock returns w's wait and step back, for MergeWaits.
func (w *When) Clock() (wait, back *uint64) { return &w.Wait, &w.Back }
