package check

import (
	"math"
	"math/rand"
)

// Pick returns one of xs, uniformly.
func Pick[T any](r *rand.Rand, xs ...T) T { return xs[r.Intn(len(xs))] }

// Between returns a uniform value in [lo, hi].
func Between(r *rand.Rand, lo, hi uint64) uint64 {
	if hi <= lo {
		return lo
	}
	if hi-lo == math.MaxUint64 {
		return r.Uint64()
	}
	return lo + uint64(r.Int63n(int64(min(hi-lo+1, math.MaxInt64))))
}

// Chance reports true with probability p.
func Chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

// Ops returns how many calls a script of the given gopter size should have:
// at least lo, growing with size, at most hi.
func Ops(r *rand.Rand, size, lo, hi int) int {
	n := lo + r.Intn(max(1, min(size, hi-lo)+1))
	return min(n, hi)
}

// Saturating returns a+b, or MaxUint64 if the sum does not fit.
func Saturating(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// DividesSecond lists rates that divide 10^9, so one token takes a whole
// number of nanoseconds.
var DividesSecond = []uint64{1, 2, 4, 5, 8, 10, 20, 25, 40, 50, 100, 125, 200, 250, 500, 1000, 2000, 5000, 10_000, 100_000, 1_000_000}

// NotDividingSecond lists rates that do not divide 10^9.
var NotDividingSecond = []uint64{3, 6, 7, 9, 11, 13, 30, 33, 97, 300, 333, 999, 1023, 3000, 7919, 65_536, 999_983, 1_000_001, 3_333_333, 999_999_937}
