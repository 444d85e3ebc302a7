package grader_test

// gatewayFixtures are the gateway suite's fixtures (see fixture).
var gatewayFixtures = []fixture{
	// gateway: one known-buggy implementation per pitfall...
	{exercise: "gateway", name: "cancels-share-orders", fails: []string{"cancel-budget"}, mistakes: []string{"cancels-share-orders"}},
	{exercise: "gateway", name: "heartbeat-takes-token", fails: []string{"heartbeat"}, mistakes: []string{"heartbeat-as-order"}},
	{exercise: "gateway", name: "retry-floor", fails: []string{"retry-after"}, mistakes: []string{"retry-floor"}},
	{exercise: "gateway", name: "flood-never-ends", fails: []string{"escalation"}, mistakes: []string{"flood-never-ends"}},
	{exercise: "gateway", name: "reconnect-refills", fails: []string{"reconnect"}, mistakes: []string{"reconnect-refills"}},
	{exercise: "gateway", name: "reload-new-rate", fails: []string{"reload"}, mistakes: []string{"reload-new-rate"}},
	{exercise: "gateway", name: "validation-unnamed", fails: []string{"config-validation"}},
	{exercise: "gateway", name: "rewinds-clock", fails: []string{"backward-time"}, mistakes: []string{"rewinds-clock"}},
	{exercise: "gateway", name: "wrapping-product", fails: []string{"overflow"}, mistakes: []string{"wrapping-refill"}},
	// ...a second of each pitfall, written with another deviation...
	{exercise: "gateway", name: "unlimited-cancels-use-orders", fails: []string{"cancel-budget"}, mistakes: []string{"unlimited-cancels-use-orders"}},
	{exercise: "gateway", name: "heartbeat-ends-flood", fails: []string{"heartbeat"}, mistakes: []string{"heartbeat-ends-flood"}},
	{exercise: "gateway", name: "retry-plus-one", fails: []string{"retry-after"}, mistakes: []string{"retry-plus-one"}},
	{exercise: "gateway", name: "flood-from-latest", fails: []string{"escalation"}, mistakes: []string{"flood-from-latest"}},
	{exercise: "gateway", name: "reopen-keeps-class", fails: []string{"reconnect"}, mistakes: []string{"reopen-keeps-class"}},
	{exercise: "gateway", name: "switches-open-only", fails: []string{"reload"}, mistakes: []string{"switches-open-only"}},
	{exercise: "gateway", name: "cancels-unchecked", fails: []string{"config-validation"}},
	{exercise: "gateway", name: "flood-age-rewinds", fails: []string{"backward-time"}, mistakes: []string{"flood-age-rewinds"}},
	// (retry-after's ceiling in 64 bits: it wraps for rates near MaxUint64)
	{exercise: "gateway", name: "retry-ceil-wraps", fails: []string{"overflow"}, mistakes: []string{"wrapping-retry"}},
	// ...exactness: rules no other pitfall is about...
	{exercise: "gateway", name: "needs-more-than-a-token", fails: []string{"exactness"}, mistakes: []string{"needs-more-than-a-token"}},
	{exercise: "gateway", name: "open-twice-ok", fails: []string{"exactness"}, mistakes: []string{"open-twice-ok"}},
	// ...rules of the stub no generator used to exercise...
	{exercise: "gateway", name: "unlimited-starts-empty", fails: []string{"reload"}, mistakes: []string{"unlimited-starts-empty"}},
	{exercise: "gateway", name: "failed-reload-moves-clock", fails: []string{"reload"}, mistakes: []string{"failed-reload-moves-clock"}},
	// (Its counterexample drains a session in one class, reopens it in
	// the other, then drops that class: ten calls, which the shrinker,
	// removing one call or simplifying one value at a time, cannot fold
	// into the seven that would do.)
	{exercise: "gateway", name: "forgets-classless", fails: []string{"reload"}, mistakes: []string{"forgets-classless"}, maxSteps: 10},
	{exercise: "gateway", name: "deadlines-at-flood-start", fails: []string{"reload"}, mistakes: []string{"deadlines-at-flood-start"}},
	{exercise: "gateway", name: "heartbeat-keeps-clock", fails: []string{"backward-time"}, mistakes: []string{"heartbeat-keeps-clock"}},
	// ...one correct but too slow...
	{exercise: "gateway", name: "eager-refill", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	{exercise: "gateway", name: "correct-values", bench: true},
	{exercise: "gateway", name: "correct-retry-div", bench: true},
}
