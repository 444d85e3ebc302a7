package grader_test

// slidingwindowFixtures are the slidingwindow suite's fixtures (see fixture).
var slidingwindowFixtures = []fixture{
	// slidingwindow: one known-buggy implementation per pitfall (two for
	// window-edge and overflow)...
	{exercise: "slidingwindow", name: "counts-rejects", fails: []string{"rejected-counted"}, mistakes: []string{"counts-rejects"}},
	{exercise: "slidingwindow", name: "stale-slot", fails: []string{"stale-bucket"}, mistakes: []string{"stale-slot"}},
	{exercise: "slidingwindow", name: "plus-one-bucket", fails: []string{"window-edge"}, mistakes: []string{"plus-one-bucket"}},
	{exercise: "slidingwindow", name: "by-nanoseconds", fails: []string{"window-edge"}, mistakes: []string{"window-in-ns"}},
	{exercise: "slidingwindow", name: "trusts-backward", fails: []string{"backward-time"}, mistakes: []string{"rewinds-current-bucket"}},
	{exercise: "slidingwindow", name: "max-marker", fails: []string{"overflow"}, mistakes: []string{"max-marker"}},
	{exercise: "slidingwindow", name: "id-plus-k", fails: []string{"overflow"}, mistakes: []string{"wrapping-expiry"}},
	{exercise: "slidingwindow", name: "no-validation", fails: []string{"new-arguments"}},
	// ...rules no fixture above breaks (accept only below limit; Count moves
	// the window on too), and another mistake of each pitfall that had one
	// fixture...
	{exercise: "slidingwindow", name: "accepts-at-limit", fails: []string{"exactness"}, mistakes: []string{"accepts-at-limit"}},
	{exercise: "slidingwindow", name: "count-keeps-window", fails: []string{"stale-bucket"}, mistakes: []string{"count-does-not-advance"}},
	{exercise: "slidingwindow", name: "refusal-in-total", fails: []string{"rejected-counted"}, mistakes: []string{"refusal-stays-in-total"}},
	{exercise: "slidingwindow", name: "earlier-slot", fails: []string{"backward-time"}, mistakes: []string{"counts-in-earlier-bucket"}},
	{exercise: "slidingwindow", name: "long-jump-keeps-total", fails: []string{"stale-bucket"}, mistakes: []string{"long-jump-keeps-total"}},
	// ...one correct but too slow...
	{exercise: "slidingwindow", name: "sums-every-bucket", fails: []string{"budget"}, bench: true},
	// ...another algorithm (the two-window estimate) that clamps time and
	// never counts a refusal: no mistake of the course explains it, so
	// every check whose corner it fails loses its points, and exactness...
	{exercise: "slidingwindow", name: "interpolating", fails: []string{"stale-bucket", "window-edge", "overflow", "exactness"}},
	// ...and correct ones written differently from the reference.
	{exercise: "slidingwindow", name: "correct-ring", bench: true},
	{exercise: "slidingwindow", name: "correct-ids", bench: true},
}
