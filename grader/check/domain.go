package check

import (
	"iter"
	"math/rand"
)

// Domain is the corner of the input space one property explores. Its rules
// hold for every script it generates and every script the shrinker tries,
// so that a failure found in one corner stays in it and is blamed on the
// mistake that corner exists for.
type Domain[S, O any] interface {
	// Gen draws a script of about size calls.
	Gen(r *rand.Rand, size int) Script[S, O]
	// Valid returns how many leading calls of s keep to the rules: all of
	// them if s is in the domain, -1 if its setup is not.
	Valid(s Script[S, O]) int
}

// ValidPrefix returns s cut to its calls up to the first that leaves d's
// rules (no call at all if s's setup leaves them): what a Gen that draws
// calls freely, with the model in view, keeps of what it drew.
func ValidPrefix[S, O any](d Domain[S, O], s Script[S, O]) Script[S, O] {
	s.Ops = s.Ops[:max(0, d.Valid(s))]
	return s
}

// Over returns the property of d's scripts: drawn by d, shrunk by
// shrinkSetup and shrinkOp without leaving d, and replayed by replay.
func Over[S, O any](d Domain[S, O], shrinkSetup func(S) []S, shrinkOp func(O) []O, replay func(Script[S, O]) Trace) Property[S, O] {
	return Property[S, O]{
		Gen:         d.Gen,
		Valid:       func(s Script[S, O]) bool { return d.Valid(s) == len(s.Ops) },
		ShrinkSetup: shrinkSetup,
		ShrinkOp:    shrinkOp,
		Replay:      replay,
	}
}

// Runs returns a check's Run: the property run with the check's seed,
// why explaining its failures.
func (p Property[S, O]) Runs(why string) func(seed int64) Outcome {
	return func(seed int64) Outcome { return p.Run(seed, why) }
}

// Begin starts the trace of a replay: it records the setup line and makes
// the implementation under test with build, or records build's panic and
// reports false.
func Begin[T any](setup string, build func() T) (t Trace, impl T, ok bool) {
	t.Setup = setup
	impl, p := Call(build)
	if p != nil {
		t.SetupPanic(p)
		return t, impl, false
	}
	return t, impl, true
}

// TimeAt returns the time of a call given as a step from latest, the
// latest time of a script so far: wait after it (saturating at
// MaxUint64), or, if back is not 0, back before it (stopping at 0).
func TimeAt(latest, wait, back uint64) uint64 {
	if back > 0 {
		return latest - min(back, latest)
	}
	return Saturating(latest, wait)
}

// FoldWait is the Merge of calls timed by TimeAt: the first call goes, and
// the second waits both waits. Steps back are not folded (ok false).
func FoldWait(aWait, aBack, bWait, bBack uint64) (wait uint64, ok bool) {
	if aBack != 0 || bBack != 0 {
		return bWait, false
	}
	return Saturating(aWait, bWait), true
}

// Timed is a call whose time is given from the latest time of its script
// so far (see TimeAt).
type Timed interface {
	At(latest uint64) uint64
}

// Times yields each call of ops with its time, from a latest time that
// starts at start and never moves back.
func Times[O Timed](start uint64, ops []O) iter.Seq2[O, uint64] {
	return func(yield func(O, uint64) bool) {
		latest := start
		for _, o := range ops {
			now := o.At(latest)
			latest = max(latest, now)
			if !yield(o, now) {
				return
			}
		}
	}
}
