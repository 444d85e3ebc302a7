package check

import (
	"math"
	"math/big"
)

// MostScaled is the most tokens a capacity rewritten by a Scale holds:
// 9×10^9 tokens are 9×10^18 units of 10^-9 token, so that two of them add
// up to less than 2^64.
const MostScaled = 9_000_000_000

// Scale rewrites a script with huge values as one without them, for the
// neutraliser of an overflow trap, in one of two ways. Kept (K 1): every
// capacity is lowered to at most MostScaled and every other count and
// rate is kept, so that the buckets miss what they missed, to the token,
// while that fits. Scaled (K above 1): every count of tokens and every
// rate is divided by K, so that the contract's state stays in proportion
// to the original's. Either way a step that filled a bucket is shortened
// to one that just fills it, which the contract answers alike, and one
// that did not stays short of it where it can (see Elapsed); a request
// stays granted or refused (see Request). A suite tries both and keeps
// the one that keeps more of what the contract does.
type Scale struct {
	K uint64
	// T divides every step of the clock where a rate divided by K would
	// fall below 1 unit a ns (1 otherwise): time is slowed instead.
	T uint64
}

// Kept is the Scale that keeps every count but capacities.
var Kept = Scale{K: 1, T: 1}

// ScaledBound is the most tokens a capacity Scaled rewrites holds.
const ScaledBound = 1_000_000

// Scaled returns the Scale that divides by the smallest power of ten that
// brings most to at most ScaledBound, for a script whose fastest rate is
// rate units a ns: where rate divided by that is below 1, T divides time
// by about as much as the rate falls short.
func Scaled(most, rate uint64) Scale {
	s := Scale{K: 1, T: 1}
	for most/s.K > ScaledBound {
		s.K *= 10
	}
	if rate > 0 && rate < s.K {
		s.T = s.K / rate
	}
	return s
}

// Capacity returns a capacity c rewritten.
func (s Scale) Capacity(c uint64) uint64 {
	if s.K == 1 {
		return min(c, MostScaled)
	}
	return s.Tokens(c)
}

// Tokens returns the count x divided by K, rounded up.
func (s Scale) Tokens(x uint64) uint64 { return x/s.K + min(x%s.K, 1) }

// Rate returns a rate (units a ns) divided by K and multiplied by T,
// rounded, at least 1 if r is.
func (s Scale) Rate(r uint64) uint64 {
	if r == 0 {
		return 0
	}
	rt := r * s.T // at most max(r, K): T is 1, or at most K/r
	return max(1, rt/s.K+(rt%s.K)/(s.K/2+1))
}

// Step is what a step of the clock does to the buckets of a rewritten
// script, where the original step filled some of them: Fill is the
// shortest step that fills every bucket the original filled (0 if it
// filled none), Room the longest that fills none of the others (MaxUint64
// if there are none).
type Step struct{ Fill, Room uint64 }

// StepOf returns the Step of a bucket whose rewritten rate is rate units a
// ns and which misses room units, where the original step filled it or
// not.
func StepOf(room *big.Int, rate uint64, filled bool) Step {
	switch {
	case rate == 0:
		return Step{Room: math.MaxUint64} // it never fills
	case filled:
		return Step{Fill: max(NsFor(room, rate, true), 1), Room: math.MaxUint64}
	case room.Sign() == 0:
		return Step{}
	}
	return Step{Room: NsFor(new(big.Int).Sub(room, big.NewInt(1)), rate, false)}
}

// And returns the Step of a clock that steps for the buckets of st and of
// o together.
func (st Step) And(o Step) Step { return Step{Fill: max(st.Fill, o.Fill), Room: min(st.Room, o.Room)} }

// Elapsed returns a step forward of e ns divided by T, rounded up, but no
// longer than st.Room and, if the original filled some bucket, as long as
// st.Fill: a refill that stayed below a capacity stays below it, one that
// reached it reaches it, with nothing past it to overflow. A step of time stays at
// least 1 ns; kept is false where that fills a bucket the original step
// did not.
func (s Scale) Elapsed(e uint64, st Step) (t uint64, kept bool) {
	if e == 0 {
		return 0, true
	}
	t = min(e/s.T+min(e%s.T, 1), st.Room)
	switch {
	case st.Fill > 0 && st.Room == math.MaxUint64:
		t = st.Fill
	case st.Fill > 0:
		t = max(t, st.Fill)
	}
	return max(t, 1), st.Room > 0
}

// Start returns a start time brought below 2^62: the contract only compares
// times, and a time next to MaxUint64 is a huge value too.
func (s Scale) Start(t uint64) uint64 { return min(t, 1<<62) }

// offset is how many tokens from what is there a request stays as many
// tokens from when rewritten.
const offset = 2

// Request returns TryAcquire's n rewritten, where the contract held avail
// tokens at that call in the original script and holds now in the
// rewritten one: granted (n ≤ avail) stays granted and refused stays
// refused; one within offset tokens of avail stays as far from now; any
// other is divided by K, kept clear of now (a refused one kept at most
// MostScaled, a granted one at most now−offset−1).
func (s Scale) Request(n, avail, now uint64) uint64 {
	switch {
	case n == 0:
		return 0
	case n <= avail && avail-n <= offset:
		return max(now-min(now, avail-n), min(now, 1))
	case n <= avail:
		if now >= offset+1 {
			return max(1, min(s.Tokens(n), now-offset-1))
		}
		return min(s.Tokens(n), now)
	case n-avail <= offset:
		return now + (n - avail)
	}
	return max(now+offset+1, min(s.Tokens(n), MostScaled))
}

// NsFor returns how many ns it takes to earn units at rate units a ns,
// rounded up if up, else down (MaxUint64 if that is more, or if rate is
// 0).
func NsFor(units *big.Int, rate uint64, up bool) uint64 {
	if rate == 0 {
		return math.MaxUint64
	}
	r := new(big.Int).SetUint64(rate)
	ns := new(big.Int).Set(units)
	if up {
		ns.Add(ns, r).Sub(ns, big.NewInt(1))
	}
	if ns.Quo(ns, r); !ns.IsUint64() {
		return math.MaxUint64
	}
	return ns.Uint64()
}

// ScaledDown is the Neutral of an overflow trap (holds) built on a suite's
// rewrite of a script by a Scale, which also counts the refills that did
// not fill a bucket and fill it once rewritten: s rewritten by whichever
// of Kept and Scaled(most, rate) avoids the trap and misses the fewest
// such refills; ok is false if neither avoids it.
func ScaledDown[S, O any](s Script[S, O], most, rate uint64, rewrite func(Script[S, O], Scale) (Script[S, O], int), holds func(Script[S, O]) bool) (Script[S, O], bool) {
	best, fewest, found := s, 0, false
	for _, k := range []Scale{Kept, Scaled(most, rate)} {
		if out, missed := rewrite(s, k); !holds(out) && (!found || missed < fewest) {
			best, fewest, found = out, missed, true
		}
	}
	return best, found
}
