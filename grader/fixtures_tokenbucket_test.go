package grader_test

// tokenbucketFixtures are the tokenbucket suite's fixtures (see fixture).
var tokenbucketFixtures = []fixture{
	// tokenbucket: one known-buggy implementation per pitfall...
	{exercise: "tokenbucket", name: "starts-empty", fails: []string{"starts-full", "capacity"}, mistakes: []string{"starts-empty"}},
	{exercise: "tokenbucket", name: "no-cap", fails: []string{"starts-full", "capacity"}, mistakes: []string{"no-cap"}},
	{exercise: "tokenbucket", name: "clock-by-whole-ns", fails: []string{"fractional-tokens", "waits-exactly"}, mistakes: []string{"whole-ns-clock"}},
	{exercise: "tokenbucket", name: "truncating-refill", fails: []string{"fractional-tokens", "waits-exactly"}, mistakes: []string{"truncating-refill"}},
	{exercise: "tokenbucket", name: "partial-take", fails: []string{"partial-take"}, mistakes: []string{"takes-whole-tokens"}},
	{exercise: "tokenbucket", name: "wrapping-elapsed", fails: []string{"backward-time"}, mistakes: []string{"wrapping-elapsed"}},
	{exercise: "tokenbucket", name: "wrapping-product", fails: []string{"overflow"}, mistakes: []string{"wrapping-units"}},
	{exercise: "tokenbucket", name: "rounds-available", fails: []string{"exactness"}, mistakes: []string{"available-rounds-half-up"}},
	// ...one more deviation for each pitfall family...
	{exercise: "tokenbucket", name: "caps-before-refill", fails: []string{"starts-full", "capacity"}, mistakes: []string{"caps-before-refill"}},
	{exercise: "tokenbucket", name: "empties-on-refusal", fails: []string{"partial-take"}, mistakes: []string{"empties-on-refusal"}},
	{exercise: "tokenbucket", name: "rewinds-clock", fails: []string{"backward-time"}, mistakes: []string{"rewinds-clock"}},
	{exercise: "tokenbucket", name: "wrapping-request", fails: []string{"overflow"}, mistakes: []string{"wrapping-request"}},
	// ...rules no fixture above breaks: n = 0 always succeeds, Available
	// refills, exactly n tokens are enough...
	{exercise: "tokenbucket", name: "refuses-zero-when-empty", fails: []string{"exactness"}, mistakes: []string{"refuses-zero-when-empty"}},
	{exercise: "tokenbucket", name: "stale-available", fails: []string{"exactness"}, mistakes: []string{"stale-available"}},
	{exercise: "tokenbucket", name: "strict-greater", fails: []string{"exactness"}, mistakes: []string{"needs-more-than-n"}},
	// ...one correct but too slow...
	{exercise: "tokenbucket", name: "too-slow", fails: []string{"budget"}, bench: true},
	// ...one that panics on values no check draws, beside a real mismatch
	// (Available rounded up, which also wraps near MaxUint64: a failure
	// no mistake explains, overflow's): the mismatch is what fails, never
	// the panic...
	{exercise: "tokenbucket", name: "zero-panics", fails: []string{"overflow", "exactness"}, mistakes: []string{"available-rounds-up"}},
	// ...and correct ones written differently from the reference.
	{exercise: "tokenbucket", name: "correct-split", bench: true},
	{exercise: "tokenbucket", name: "correct-timetofull", bench: true},
	{exercise: "tokenbucket", name: "correct-clamp-first", bench: true},
}
