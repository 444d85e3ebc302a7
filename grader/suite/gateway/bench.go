package gateway

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// loop is the benchmark: Admit on sessions drawn among 1,000 open ones,
// mostly orders, some cancels and heartbeats, each session offered about
// twice what its orders budget allows, so that many calls are refused and
// floods go Silent; nothing disconnects. The messages are drawn for each
// run from its seed.
func loop(impl Impl, seed uint64) func(n int) uint64 {
	g := check.BenchNew(impl.New(Config{
		Classes:        map[string]Class{"regular": {Orders: Budget{Capacity: 10, RatePerSec: 10_000}, Cancels: Budget{Capacity: 20, RatePerSec: 20_000}}},
		SilenceAfterNs: 100_000,
	}, 0))
	for s := range uint64(benchSessions) {
		g.Open(s, "regular", 0)
	}
	traffic := benchTraffic(seed)
	now := uint64(0)
	return func(n int) uint64 {
		messages := traffic.Next()
		d := check.DigestStart
		for i := range n {
			m := messages[i&(len(messages)-1)]
			now += m.gap
			v := g.Admit(m.session, m.kind, now)
			d = check.Digest(d, uint64(v.Outcome)|uint64(len(v.Budget))<<8)
			d = check.Digest(d, v.RetryAfterNs)
		}
		return d
	}
}

// benchSessions is how many sessions are open in the benchmark.
const benchSessions = 1000

type benchMessage struct {
	session, gap uint64
	kind         Kind
}

// benchTraffic draws a run's traffic from its seed: tables of 4096
// messages (one for the warm-up, one timed; see check.Tables), gaps
// uniform in [0, 100] ns (20,000 messages a second per session).
func benchTraffic(seed uint64) *check.Tables[benchMessage] {
	return check.Traffic(seed, 4096, 100, func(gap, x uint64) benchMessage {
		kind := NewOrder
		switch x >> 60 {
		case 0, 1, 2:
			kind = Cancel
		case 3:
			kind = Heartbeat
		case 4, 5, 6:
			kind = Modify
		}
		return benchMessage{session: x % benchSessions, gap: gap, kind: kind}
	})
}

// budgetNs is the budget of one Admit.
const budgetNs = 100

// API is what the grading child serves for impl, with the reference
// (reference_gen.go) beside it in the benchmark (see harness.Benched).
func API(impl Impl) harness.API {
	return harness.Benched(map[string]any{"New": impl.New, "Validate": impl.Validate}, impl, reference, loop)
}

// iteration words one iteration of loop for the stub's Grading section
// (see check.Budget), its figures the benchmark's own.
var iteration = check.Iteration{What: "Admit, among " + check.Count(benchSessions) + " open sessions,", Per: "call"}
