package grader_test

// gatewayFixtures are the gateway suite's fixtures (see fixture).
var gatewayFixtures = []fixture{
	// gateway: one known-buggy implementation per pitfall...
	{exercise: "gateway", name: "cancels-share-orders", fails: []string{"cancel-budget", "exactness"}},
	{exercise: "gateway", name: "heartbeat-takes-token", fails: []string{"heartbeat", "exactness"}},
	{exercise: "gateway", name: "retry-floor", fails: []string{"retry-after", "exactness"}, unjudged: []string{"overflow"}},
	{exercise: "gateway", name: "flood-never-ends", fails: []string{"escalation", "exactness"}, unjudged: []string{"heartbeat", "reconnect", "reload", "backward-time"}},
	{exercise: "gateway", name: "reconnect-refills", fails: []string{"reconnect", "exactness"}, unjudged: []string{"backward-time"}},
	{exercise: "gateway", name: "reload-new-rate", fails: []string{"reload", "exactness"}, unjudged: []string{"escalation", "backward-time"}},
	{exercise: "gateway", name: "validation-unnamed", fails: []string{"config-validation"}},
	{exercise: "gateway", name: "rewinds-clock", fails: []string{"backward-time"}},
	{exercise: "gateway", name: "wrapping-product", fails: []string{"overflow"}},
	// ...one correct but too slow...
	{exercise: "gateway", name: "eager-refill", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	{exercise: "gateway", name: "correct-values", bench: true},
	{exercise: "gateway", name: "correct-retry-div", bench: true},
}
