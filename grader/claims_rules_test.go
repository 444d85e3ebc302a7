package grader_test

// rules are, by exercise ("" for grader/check's words), the stems of the
// sentences a message may hold that state a rule of the contract, or a
// fact of the grading rather than of the script (which model gave the
// answers, where a mistake is charged): true whatever the script, so no
// claim checks them. A rule that speaks of "here" is only here because
// its check's domain draws nothing else (said beside it).
var rules = map[string][]string{
	"": {
		// Facts of the grading, which the verdict's own tests check.
		"Your answers on this script are exactly those of a model that",
		"and equally of one that",
		"A panic is charged once, under one check",
		"the other checks are judged on what else they found",
		"Found while checking",
		"No mistake the course names gives these answers",
		"replay the calls by hand against the rules of the contract",
		"That difference is charged under",
		"That mistake is charged under",
		"This check fails too",
		"this check fails too, because",
		"your code answered only",
		"your code does more wrong here than that mistake",
		"that difference is charged once, under",
		"Its counterexample is below",
		"not timed in process",
		// A call that does not return (check.Hang): where it is charged,
		// and what the check graded instead, are facts of the grading.
		"this check's script met a call that did not return too",
		"but that is not what this check is about",
		"it is charged once, under",
		"This check was graded on the other scripts it drew",
		"A call that does not return is charged once, under one check",
		"the other checks are graded on the other scripts they drew",
		// Every check draws only calls the contract allows.
		"Every call in this script is one the contract allows, so each must return",
		// Every check draws only arguments the contract allows.
		"Every argument in this script is one the contract allows",
	},
	"tokenbucket": {
		"A new bucket starts full", "a new bucket starts full, with capacity tokens",
		"capacity tokens are there at the time it is created",
		"it starts at capacity and can never hold more",
		"It must be refused and take nothing",
		"An earlier time adds nothing", "it must neither underflow now−latest",
		"Every uint64 is legal, however large", "long idle, huge rates, capacities or requests",
		"Products that leave 64 bits must not wrap",
		"rounding each refill down and moving the clock anyway throws them away",
		"The bucket must agree with the exact model", "whole-unit refills, the cap",
	},
	"gcra": {
		"GCRA must decide every call as the token bucket", "burst calls at once, then one more every",
		"A schedule that rounds T drifts away", "rounded down it lets calls in a little early",
		"A time earlier than the latest one seen counts as that latest time",
		"measuring TAT−now from the earlier time refuses",
		"Every argument the contract allows is legal", "times next to MaxUint64, idle periods of years",
		"TAT+T must not pass MaxUint64",
		"The burst tolerance is (burst−1) intervals", "a TAT up to that far ahead of now still conforms",
		"New accepts 1 ≤ ratePerSec", "Outside that range it must panic", "inside it, it must not panic",
	},
	"breaker": {
		"A report whose ticket comes from an earlier generation", "Done must ignore it",
		"a late report that Done must ignore", "Only failures in a row open the breaker",
		"In HalfOpen, Allow lets the first HalfOpenProbes", "HalfOpenProbes successes close the breaker",
		"Open becomes HalfOpen when", "an open period that would end past MaxUint64 never ends",
		"an earlier time counts as the latest one", "The breaker must answer every call",
		"New must refuse a config with a field that is 0", "a valid config gives a breaker",
	},
	"fairqueue": {
		"A session that empties leaves the round", "when it comes back it is a newcomer", "deficit 0, at the end of the round",
		"A command costing more than quantum is served", "not before, never skipped",
		"newcomers join at the end", "A turn adds quantum once", "the first command it cannot pay for ends the turn",
		"Within a session, commands leave in the order they came",
		"The queue must agree with the exact model", "New needs 1 <= quantum", "outside, it must panic",
	},
	"hierarchy": {
		"A message refused by one level must take nothing", "the tokens are still there for the next, smaller message",
		"A message that passes is charged at every level", "The tree has one clock", "every node earns its refill",
		"A time at or before the tree's latest time", "rounding each refill down throws them away",
		"Every uint64 is legal, however large", "long idle, huge rates", "Products that leave 64 bits must not wrap",
		"A bad Add returns -1", "a call on an id Add never returned", "A path holds at most MaxDepth",
		"a ninth level must be refused", "The tree must agree with the exact model",
	},
	"slidingwindow": {
		"A refused call must not count", "counting it makes Count too high",
		"When the current bucket moves on", "a ring slot that was skipped over",
		"Count covers exactly the current bucket", "a bucket buckets−1 behind the current one still counts",
		"The current bucket is the larger of", "a call at an earlier time counts, and is counted",
		"Times and bucket ids next to MaxUint64", "a marker value for an empty slot",
		"The window must agree with the exact model", "Count sums the calls accepted",
		"TryAcquire accepts iff that sum is below limit", "the current bucket is max(nowNs/bucketNs",
		"the current bucket never moves back",
		"New needs buckets ≥ 1", "any limit is valid", "Invalid arguments must panic", "valid ones must not panic",
	},
	"throttle": {
		"With AutoRecover, a Degraded or Paused period is over", "RecoverAtNs and DegradedWrites are 0 again",
		"Paused refuses every write", "An address on the whitelist skips the rate limit", "the degraded cap refuses it too",
		"An address with an override is judged", "congestion never moves it",
		"A write is refused iff", "a write exactly WindowNs old has left the window",
		"Congestion refuses nothing by itself", "it acts only through the global MaxCalls",
		"The global MaxCalls moves only when the level changes", "at New it is Rate.MaxCalls",
		"Degraded allows DegradedWriteLimit", "each SetState(Degraded) starts a new period",
		"When several throttles would refuse", "ErrPaused before ErrDegradedLimit",
		"Status must report the state", "An earlier nowNs counts as the latest time seen", "the clock never moves back",
		"The gate must answer every call",
		"New refuses exactly the configs the contract refuses", "SetIssuerLimit names its 0 field",
	},
	"gateway": {
		"A cancel takes a token from", "new orders and modifies take theirs", "A client pulling its orders out",
		"A heartbeat on an open session", "no token, no flood started", "On a session that is not open",
		"A refusal tells the client when to retry", "the least number of ns after which",
		"A refusal is Disconnect once", "the flood starts at the first refusal",
		"A session's budgets belong to its id", "after a Disconnect, Open reopens it", "a reconnect never refills them",
		"At a reload, time before it", "The gateway has one clock", "every call with a later nowNs moves it",
		"only a Reload that fails does not", "it earns nothing, rewinds nothing",
		"Every uint64 is legal, however large", "capacities and rates near MaxUint64", "Products and sums that leave 64 bits",
		"The gateway must answer every call", "Validate (and New, which calls it) must refuse",
	},
	"governor": {
		"the offer opens at Start", "frac > High is a breach", "Low < frac <= High is the dead band",
		"Hold, with the offer and the memory unchanged", "frac == Low is already clean",
		"the climb is x1.5 only up to 75% of LastBad", "the next breach remembers its own offer",
		"LastBad follows the breaches", "any other window starts the count again",
		"The want is computed from your own offers", // how memory-clear judges: a fact of the grading
		"A new governor offers Start", "Each window must be read from the deltas", "a window without resolved attempts",
		"Every Decide, Observe, Offer and LastBad must agree", "Evidence extends the streak",
		"the 3rd in a row returns (0, true)", "a window without evidence returns (0, false)",
	},
	"gradient2": {
		"the mean of the samples so far for the first 10", "An app-limited sample still goes into the long RTT",
		"A sample with inflight < limit/2 changes nothing", "inflight == limit/2 is not app-limited",
		"RTTTolerance*long/short is at least 1", "The limit is clamped into [MinLimit, MaxLimit]",
		"Every Update and Limit must agree",
		"the gradient of the samples after it shows whether it was",
	},
}

// parts are, by exercise, the stems of pieces of a template that a claim
// checks with its own phrase (a sentence split at ':' or ';', or a piece
// written apart and joined in): stem → that claim's phrase.
var parts = map[string]map[string]string{
	"tokenbucket": {
		"After the first call, the calls here came": "earned by the last call",
		"%s ns (%s of a token)":                     "in parts smaller than one token",
	},
	"gcra": {
		"like a token bucket that starts full": "This is the first call, at the time",
		"it must grant exactly burst of them":  "All these calls come at the time the GCRA was made",
		"the latest time before it":            "an idle time whose product with ratePerSec",
	},
	"breaker": {
		"so an open period started then starts at":         "the clock stepped back, from",
		"the breaker opens on %d failures":                 "FailureThreshold is ",
		"(step %d)":                                        "The reports counted ",
		"every success starts the count again":             "The reports counted ",
		"in this half-open period Allow lets the first %d": "HalfOpenProbes is ",
		"The breaker opened at nowNs=%s with OpenNs=%s":    "so its open period ends at",
		"This call comes at %s, %s":                        "so its open period ends at",
		"at or after it":                                   "so its open period ends at",
		"that open period %s":                              "A probe failed in the half-open period",
		"was issued at step %d":                            "so it belongs to an earlier generation",
	},
	"fairqueue": {
		"%d (with %s left)": "emptied with credit left over and came back",
		"session %d's command costing %s (%s turns' quantum)": "among the commands pushed",
	},
	"hierarchy": {
		"%s earned by the last call":   "tokens/s on every level",
		"%s ns (%s of a token)":        "tokens/s on every level",
		"which is on the path of call": "also paid at node",
		"(node %s could have paid)":    "tokens, which node",
	},
	"slidingwindow": {
		"call %d, TryAcquire(nowNs=%s)": "the window already held limit=",
		"Here %s %s refused":            "the window already held limit=",
	},
	"throttle": {
		"%d accepted writes":      " in its window of ",
		", but it is whitelisted": " in its window of ",
		"the global limit":        " in its window of ",
	},
}

// unchecked are, by exercise, the stems of sentences that do claim a
// fact of the counterexample but that no predicate checks yet: each needs
// the contract's model replayed up to the failing call (a state, a
// deficit, a gate's state), which a claim written from the steps and
// answers alone cannot give.
var unchecked = map[string][]string{}
