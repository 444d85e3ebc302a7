package slidingwindow

import (
	"math"

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
	prop := func(d domain, why string) func(int64) check.Outcome { return d.property(impl).Runs(why) }
	return check.Suite{
		Exercise:   "slidingwindow",
		NotStarted: func() bool { return notStarted(impl) },
		Checks: []check.Check{
			{
				ID: "slidingwindow/rejected-counted", Title: "Counts accepted calls only", Kind: report.Property, Pitfall: "rejected-counted", Points: 6,
				Hint: "Decide first, count second: compare Count(now) with limit, and only when it is below, add one to the current bucket. A refused call changes nothing.",
				Run:  prop(rejectedDomain, "A refused call must not count: counting it makes Count too high, and a client that keeps retrying would then stay locked out after its old calls have left the window."),
			},
			{
				ID: "slidingwindow/stale-bucket", Title: "Forgets buckets that leave the window, even after a long jump", Kind: report.Property, Pitfall: "stale-bucket", Points: 6,
				Hint: "When the current bucket moves from c to c2, every bucket up to c2−buckets leaves the window: one on a single step, up to all of them after a long idle. Clear every slot you move past (never more than buckets of them), or store each slot's bucket id and ignore slots whose id is no longer in the window.",
				Run:  prop(staleDomain, "When the current bucket moves on, by one bucket or by many at once, the buckets it leaves behind stop counting: a ring slot that was skipped over, or is reused by a new bucket, still holds an old bucket's count unless it is cleared or recognised as old."),
			},
			{
				ID: "slidingwindow/window-edge", Title: "Counts exactly the current bucket and the buckets−1 before it", Kind: report.Property, Pitfall: "window-edge", Points: 6,
				Hint: "Think in bucket ids, not nanoseconds: id = nowNs / (windowNs/buckets), and bucket id is in the window exactly when cur−id < buckets. Try it on paper with buckets = 1 and 2, and with a windowNs that buckets does not divide.",
				Run:  prop(edgeDomain, "Count covers exactly the current bucket and the buckets−1 before it, where a bucket is nowNs/(windowNs/buckets) in integer division: a bucket buckets−1 behind the current one still counts, one buckets behind does not, wherever nowNs falls inside its bucket, and also when buckets does not divide windowNs (the window is then buckets×bucketNs, a little shorter than windowNs)."),
			},
			{
				ID: "slidingwindow/backward-time", Title: "Ignores a clock that steps back", Kind: report.Property, Pitfall: "backward-time", Points: 5,
				Hint: "Keep the latest bucket seen and use max(nowNs/bucketNs, latest) as the current bucket everywhere: an earlier time neither reopens an old bucket nor hides newer ones.",
				Run:  prop(backwardDomain, "The current bucket is the larger of nowNs/bucketNs and the latest bucket seen: a call at an earlier time counts, and is counted, in the latest bucket, as if no time had passed."),
			},
			{
				ID: "slidingwindow/overflow", Title: "Stays exact next to MaxUint64", Kind: report.Property, Pitfall: "overflow", Points: 5,
				Hint: "Every bucket id from 0 to MaxUint64 can be real (with bucketNs = 1, the last nanosecond is bucket MaxUint64), so mark empty slots another way than with a special id. Compare cur−id ≥ buckets rather than id+buckets ≤ cur, and saturate end-of-bucket times such as (id+1)×bucketNs.",
				Run:  prop(overflowDomain, "Times and bucket ids next to MaxUint64, windows as long as MaxUint64 and a limit of MaxUint32 are all legal: a marker value for an empty slot, id+buckets or (id+1)×bucketNs can wrap around or collide with a real bucket, and the window then miscounts."),
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

// argCases call New with valid arguments at the ends of their range and
// with invalid ones.
var argCases = []check.ArgCase[setup]{
	{Args: setup{Limit: 1, WindowNs: 1, Buckets: 1}},
	{Args: setup{Limit: 0, WindowNs: math.MaxUint64, Buckets: 1}},
	{Args: setup{Limit: 5, WindowNs: 1000, Buckets: 1000}},
	{Args: setup{Limit: 1, WindowNs: 10, Buckets: 0}, Bad: "buckets"},
	{Args: setup{Limit: 1, WindowNs: 10, Buckets: -1}, Bad: "buckets"},
	{Args: setup{Limit: 1, WindowNs: 0, Buckets: 1}, Bad: "windowNs"},
	{Args: setup{Limit: 1, WindowNs: 3, Buckets: 4}, Bad: "windowNs"},
}

// newArguments is the new-arguments check. When windowNs < buckets,
// either name will do: the two disagree.
func newArguments(impl New) check.Outcome {
	return check.NewArgs[setup]{
		Cases: argCases,
		Call:  newCall,
		Make:  func(s setup) { impl(s.Limit, s.WindowNs, s.Buckets) },
		Names: map[string][]string{"windowNs": {"window", "bucket"}, "buckets": {"bucket"}},
		Why:   "New needs buckets ≥ 1 and windowNs ≥ buckets (so that a bucket lasts at least 1 ns); any limit is valid, 0 included. Invalid arguments must panic with a message naming the argument at fault (a division by zero or a failed allocation does not say which); valid ones must not panic.",
	}.Run()
}
