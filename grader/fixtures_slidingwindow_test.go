package grader_test

// slidingwindowFixtures are the slidingwindow suite's fixtures (see fixture).
var slidingwindowFixtures = []fixture{
	// slidingwindow: one known-buggy implementation per pitfall (two for
	// window-edge and overflow)...
	{exercise: "slidingwindow", name: "counts-rejects", fails: []string{"rejected-counted", "exactness"}},
	{exercise: "slidingwindow", name: "stale-slot", fails: []string{"stale-bucket", "exactness"}},
	{exercise: "slidingwindow", name: "plus-one-bucket", fails: []string{"window-edge", "exactness"}},
	{exercise: "slidingwindow", name: "by-nanoseconds", fails: []string{"window-edge", "exactness"}},
	{exercise: "slidingwindow", name: "trusts-backward", fails: []string{"backward-time", "exactness"}},
	{exercise: "slidingwindow", name: "max-marker", fails: []string{"overflow"}},
	{exercise: "slidingwindow", name: "id-plus-k", fails: []string{"overflow"}},
	{exercise: "slidingwindow", name: "no-validation", fails: []string{"new-arguments"}},
	// ...one correct but too slow...
	{exercise: "slidingwindow", name: "sums-every-bucket", fails: []string{"budget"}, bench: true},
	// ...another algorithm (the two-window estimate) that clamps time and
	// never counts a refusal: blamed only for what it counts...
	{exercise: "slidingwindow", name: "interpolating", fails: []string{"stale-bucket", "window-edge", "exactness"}, unjudged: []string{"rejected-counted", "backward-time", "overflow"}},
	// ...and correct ones written differently from the reference.
	{exercise: "slidingwindow", name: "correct-ring", bench: true},
	{exercise: "slidingwindow", name: "correct-ids", bench: true},
}
