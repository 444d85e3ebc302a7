package slidingwindow

import (
	"fmt"
	"math"
	"math/rand"
	"strings"

	"ratelab/grader/check"
	"ratelab/grader/report"
)

// Window is the sliding window API every implementation offers.
type Window interface {
	Count(nowNs uint64) uint32
	TryAcquire(nowNs uint64) bool
}

// New builds a window: slidingwindow.New, adapted to return the interface.
type New func(limit uint32, windowNs uint64, buckets int) Window

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite {
	impl := Remote(r)
	prop := func(d domain, why string) func(int64) check.Outcome {
		return func(seed int64) check.Outcome { return d.property(impl).Run(seed, why) }
	}
	return check.Suite{
		Exercise:   "slidingwindow",
		NotStarted: func() bool { return notStarted(impl) },
		Checks: []check.Check{
			{
				ID: "slidingwindow/rejected-counted", Title: "Counts accepted calls only", Kind: report.Property, Pitfall: "rejected-counted", Points: 6,
				Hint: "Decide first, count second: compare Count(now) with limit, and only when it is below, add one to the current bucket. A refused call changes nothing.",
				Run:  prop(rejectedDomain, "Some calls here were refused because the window was full. A refused call must not count: counting it makes Count too high, and a client that keeps retrying would then stay locked out after its old calls have left the window."),
			},
			{
				ID: "slidingwindow/stale-bucket", Title: "Forgets buckets that leave the window, even after a long jump", Kind: report.Property, Pitfall: "stale-bucket", Points: 6,
				Hint: "When the current bucket moves from c to c2, every bucket up to c2−buckets leaves the window: one on a single step, up to all of them after a long idle. Clear every slot you move past (never more than buckets of them), or store each slot's bucket id and ignore slots whose id is no longer in the window.",
				Run:  prop(staleDomain, "The current bucket jumped ahead by more than one bucket in this sequence, so buckets holding accepted calls left the window at once. Their calls must no longer count: a ring slot that was skipped over, or is reused by a new bucket, still holds an old bucket's count unless it is cleared or recognised as old."),
			},
			{
				ID: "slidingwindow/window-edge", Title: "Counts exactly the current bucket and the buckets−1 before it", Kind: report.Property, Pitfall: "window-edge", Points: 6,
				Hint: "Think in bucket ids, not nanoseconds: id = nowNs / (windowNs/buckets), and bucket id is in the window exactly when cur−id < buckets. Try it on paper with buckets = 1 and 2, and with a windowNs that buckets does not divide.",
				Run:  prop(edgeDomain, "Count covers exactly the current bucket and the buckets−1 before it, where a bucket is nowNs/(windowNs/buckets) in integer division: a bucket buckets−1 behind the current one still counts, one buckets behind does not, wherever nowNs falls inside its bucket, and also when buckets does not divide windowNs (the window is then buckets×bucketNs, a little shorter than windowNs)."),
			},
			{
				ID: "slidingwindow/backward-time", Title: "Ignores a clock that steps back", Kind: report.Property, Pitfall: "backward-time", Points: 5,
				Hint: "Keep the latest bucket seen and use max(nowNs/bucketNs, latest) as the current bucket everywhere: an earlier time neither reopens an old bucket nor hides newer ones.",
				Run:  prop(backwardDomain, "The clock stepped back in this sequence. The current bucket is the larger of nowNs/bucketNs and the latest bucket seen: a call at an earlier time counts, and is counted, in the latest bucket, as if no time had passed."),
			},
			{
				ID: "slidingwindow/overflow", Title: "Stays exact next to MaxUint64", Kind: report.Property, Pitfall: "overflow", Points: 5,
				Hint: "Every bucket id from 0 to MaxUint64 can be real (with bucketNs = 1, the last nanosecond is bucket MaxUint64), so mark empty slots another way than with a special id. Compare cur−id ≥ buckets rather than id+buckets ≤ cur, and saturate end-of-bucket times such as (id+1)×bucketNs.",
				Run:  prop(overflowDomain, "The values here are at the edges: times and bucket ids next to MaxUint64, windows as long as MaxUint64, a limit of MaxUint32. A marker value for an empty slot, id+buckets or (id+1)×bucketNs can wrap around or collide with a real bucket, and the window then miscounts."),
			},
			{
				ID: "slidingwindow/exactness", Title: "Agrees with the exact model on every call", Kind: report.Property, Pitfall: "exactness", Points: 5,
				Hint: "Replay the counterexample by hand with a table of bucket id → accepted calls: the current bucket is max(nowNs/bucketNs, latest), Count sums ids cur−buckets+1..cur, TryAcquire accepts iff that sum is below limit and then adds one to the current bucket.",
				Run:  prop(exactDomain, "The window must agree with the exact model on every call: Count sums the calls accepted in the current bucket and the buckets−1 before it; TryAcquire accepts iff that sum is below limit, and then counts the call in the current bucket; the current bucket never moves back."),
			},
			{
				ID: "slidingwindow/new-arguments", Title: "Refuses invalid New arguments with a panic naming them (exactness)", Kind: report.Case, Pitfall: "exactness", Points: 2,
				Hint: "Check the arguments at the top of New, before dividing or allocating: buckets ≥ 1, then windowNs ≥ buckets; panic with a message that says which one is wrong and what it was.",
				Run:  func(int64) check.Outcome { return newArguments(impl) },
			},
			{
				ID: "slidingwindow/budget", Title: "TryAcquire within 40 ns and without allocating, with 1,024 buckets", Kind: report.Benchmark, Pitfall: "budget", Points: 5,
				Hint: "Keep a running total of the window instead of summing the buckets on each call, and drop a bucket's calls from it once, when the bucket leaves. Work per call must not grow with the number of buckets, and nothing may be allocated after New.",
				Run:  func(int64) check.Outcome { return benchmark(r) },
			},
		},
	}
}

// notStarted reports whether impl is the untouched stub.
func notStarted(impl New) bool {
	w, p := check.Call(func() Window { return impl(1, 1, 1) })
	if p != nil {
		return p.Stub()
	}
	_, p1 := check.Call(func() uint32 { return w.Count(0) })
	_, p2 := check.Call(func() bool { return w.TryAcquire(0) })
	return p1.Stub() && p2.Stub()
}

// argCase is one call of New in the new-arguments check: bad names the
// argument at fault, "" if the arguments are valid.
type argCase struct {
	limit    uint32
	windowNs uint64
	buckets  int
	bad      string
}

var argCases = []argCase{
	{limit: 1, windowNs: 1, buckets: 1},
	{limit: 0, windowNs: math.MaxUint64, buckets: 1},
	{limit: 5, windowNs: 1000, buckets: 1000},
	{limit: 1, windowNs: 10, buckets: 0, bad: "buckets"},
	{limit: 1, windowNs: 10, buckets: -1, bad: "buckets"},
	{limit: 1, windowNs: 0, buckets: 1, bad: "windowNs"},
	{limit: 1, windowNs: 3, buckets: 4, bad: "windowNs"},
}

// names reports whether a panic message names the argument at fault. When
// windowNs < buckets, either name will do: the two disagree.
func names(msg, arg string) bool {
	msg = strings.ToLower(msg)
	if arg == "windowNs" {
		return strings.Contains(msg, "window") || strings.Contains(msg, "bucket")
	}
	return strings.Contains(msg, "bucket")
}

// newArguments calls New with valid arguments at the ends of their range
// and with invalid ones.
func newArguments(impl New) check.Outcome {
	t := check.Trace{Setup: "// each step is a call of New on its own"}
	for _, c := range argCases {
		call := fmt.Sprintf("New(limit=%s, windowNs=%s, buckets=%d)", limitString(c.limit), check.U(c.windowNs), c.buckets)
		_, p := check.Call(func() Window { return impl(c.limit, c.windowNs, c.buckets) })
		want, got := "no panic", "no panic"
		if c.bad != "" {
			want = "a panic naming " + c.bad
		}
		if p != nil {
			got = "panic: " + p.Error()
			if c.bad != "" && names(p.Error(), c.bad) {
				got = want
			}
		}
		if !t.Step(call, got, want, nil) {
			return check.Fail(t, "New needs buckets ≥ 1 and windowNs ≥ buckets (so that a bucket lasts at least 1 ns); any limit is valid, 0 included. Invalid arguments must panic with a message naming the argument at fault (a division by zero or a failed allocation does not say which); valid ones must not panic.")
		}
	}
	return check.Pass()
}

// smallBuckets draws a small number of buckets, where every edge is a few
// calls away.
func smallBuckets(r *rand.Rand) int { return check.Pick(r, 1, 2, 2, 3, 4, int(check.Between(r, 1, 8))) }

// bucketLen draws a bucket length: often 1 ns, so times are bucket ids.
func bucketLen(r *rand.Rand) uint64 {
	return check.Pick(r, 1, 1, 2, 3, 10, 1000, check.Between(r, 1, 1000), check.Between(r, 1, 1e9))
}

// window returns windowNs for k buckets of b ns, often with a remainder
// that k does not divide.
func window(r *rand.Rand, k int, b uint64) uint64 {
	return uint64(k)*b + check.Pick(r, 0, check.Between(r, 0, uint64(k-1)), uint64(k-1))
}

// backBuckets steps back to an earlier nanosecond of the bucket, to the
// last nanosecond of an earlier bucket, or to 0.
func backBuckets(r *rand.Rand, s setup, latest uint64) uint64 {
	b := s.bucketNs()
	into := latest % b
	return check.Pick(r, 1, max(into, 1), into+1, into+1+b*check.Between(r, 0, uint64(s.Buckets)), latest)
}

var rejectedDomain = domain{
	setup: func(r *rand.Rand) setup {
		k, b := smallBuckets(r), bucketLen(r)
		return setup{Limit: uint32(check.Pick(r, 0, 1, 2, 3, check.Between(r, 1, 8))), WindowNs: window(r, k, b), Buckets: k}
	},
	count: 0.3,
	jump: func(r *rand.Rand, s setup, _ *model) uint64 {
		k := uint64(s.Buckets)
		return check.Pick(r, 0, 0, 0, 1, 1, 2, k+1, check.Between(r, 0, 2*k))
	},
	rules:  rules{moderate: true, noEdge: true, noDropInJump: true},
	maxOps: 40,
}

var staleDomain = domain{
	setup: func(r *rand.Rand) setup {
		k := check.Pick(r, 2, 3, 4, int(check.Between(r, 2, 10)), int(check.Between(r, 10, 100)), 1000)
		b := bucketLen(r)
		return setup{Limit: uint32(check.Pick(r, check.Between(r, 2, 30), 1000, 1<<20)), WindowNs: window(r, k, b), Buckets: k}
	},
	count: 0.4,
	jump: func(r *rand.Rand, s setup, _ *model) uint64 {
		k := uint64(s.Buckets)
		return check.Pick(r, 0, 0, 1, 1, 2, k+1, k+2, 2*k, 2*k+1, 3*k+check.Between(r, 0, k-1), check.Between(r, 2, 3*k), check.Between(r, k, 1000*k))
	},
	rules:  rules{moderate: true, noRejects: true, noEdge: true},
	maxOps: 30,
}

var edgeDomain = domain{
	setup: func(r *rand.Rand) setup {
		k := smallBuckets(r)
		b := check.Pick(r, 1, 2, 3, 7, check.Between(r, 1, 1000))
		return setup{Limit: uint32(check.Pick(r, check.Between(r, 3, 50), 1000, 1<<20)), WindowNs: window(r, k, b), Buckets: k}
	},
	count: 0.5,
	jump: func(r *rand.Rand, s setup, _ *model) uint64 {
		k := uint64(s.Buckets)
		return check.Pick(r, 0, 1, 1, 1, k-1, k, k+1)
	},
	rules:  rules{moderate: true, noRejects: true, noDropInJump: true},
	maxOps: 40,
}

var backwardDomain = domain{
	setup: func(r *rand.Rand) setup {
		k, b := smallBuckets(r), bucketLen(r)
		return setup{Limit: uint32(check.Pick(r, check.Between(r, 3, 30), 1000)), WindowNs: window(r, k, b), Buckets: k}
	},
	count: 0.4,
	jump: func(r *rand.Rand, s setup, _ *model) uint64 {
		return check.Pick(r, 0, 0, 1, 1, 2, check.Between(r, 0, uint64(s.Buckets)))
	},
	back:       backBuckets,
	backChance: 0.3,
	rules:      rules{backward: true, moderate: true, noRejects: true, noEdge: true, noDropInJump: true},
	maxOps:     30,
}

var overflowDomain = domain{
	setup: func(r *rand.Rand) setup {
		k := check.Pick(r, 2, 3, int(check.Between(r, 2, 8)), 64, 1000)
		var w uint64
		switch r.Intn(4) {
		case 0, 1: // bucketNs = 1 (or 1 plus a remainder): ids reach MaxUint64
			w = uint64(k) + check.Pick(r, 0, uint64(k-1))
		case 2: // a few buckets spanning all of time
			w = check.Pick(r, math.MaxUint64, math.MaxUint64-1, 1<<63, uint64(k)*(math.MaxUint64/uint64(k)))
		default:
			w = window(r, k, check.Pick(r, 2, 3, check.Between(r, 1, 1000)))
		}
		return setup{Limit: uint32(check.Pick(r, 1, 2, 3, 10, math.MaxUint32, math.MaxUint32-1)), WindowNs: w, Buckets: k}
	},
	count: 0.5,
	jump: func(r *rand.Rand, s setup, m *model) uint64 {
		last := math.MaxUint64 / m.bucketNs // the bucket of the last nanosecond
		toEnd := last - min(m.cur, last)
		return check.Pick(r, 0, 0, 1, toEnd, toEnd, toEnd-min(toEnd, check.Between(r, 1, m.k+1)), toEnd-min(toEnd, m.k), math.MaxUint64, check.Between(r, 0, toEnd))
	},
	rules:  rules{noRejects: true, noEdge: true, noDropInJump: true},
	maxOps: 16,
}

var exactDomain = domain{
	setup: func(r *rand.Rand) setup {
		k := check.Pick(r, 1, 2, 3, int(check.Between(r, 1, 10)), int(check.Between(r, 1, 100)))
		b := check.Pick(r, 1, 2, check.Between(r, 1, 100), check.Between(r, 1, 1e6))
		return setup{Limit: uint32(check.Pick(r, 0, 1, 2, 3, check.Between(r, 1, 10), 100, math.MaxUint32)), WindowNs: window(r, k, b), Buckets: k}
	},
	count: 0.35,
	jump: func(r *rand.Rand, s setup, _ *model) uint64 {
		k := uint64(s.Buckets)
		return check.Pick(r, 0, 0, 0, 1, 1, 2, k-1, k, k+1, check.Between(r, 0, 3*k))
	},
	back:       backBuckets,
	backChance: 0.15,
	rules:      rules{backward: true, moderate: true},
	maxOps:     40,
}
