package fairqueue

import (
	_ "embed"

	"ratelab/grader/check"
)

// Queue is the fair queue API every implementation offers.
type Queue interface {
	Push(session uint32, cost uint64)
	Pop() (session uint32, cost uint64, ok bool)
	Len() int
}

// New builds a queue: fairqueue.New, adapted to return the interface.
type New func(quantum uint64) Queue

//go:embed checks.json
var prose []byte

// domains are the properties' domains, by check name.
var domains = check.ByName(deficitDomain, largeDomain, roundDomain, turnDomain, fifoDomain, exactDomain)

// parts are the suite's checks; their words are in checks.json.
var parts = check.Parts[New, domain, setup, op]{
	Exercise: "fairqueue", Prose: prose, Remote: Remote, NotStarted: notStarted,
	Domains: domains, Property: domain.property,
	Fixed: map[string]func(New) check.Outcome{"new-arguments": newArguments},
	Ref:   refNew, Loop: loop, BudgetNs: BudgetNs,
}

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite { return parts.Suite(r) }

// notStarted reports whether impl is the untouched stub.
func notStarted(impl New) bool {
	return check.Untouched(func() Queue { return impl(1) }, func(q Queue) { q.Push(0, 1) }, func(q Queue) { q.Pop() }, func(q Queue) { q.Len() })
}

func newArguments(impl New) check.Outcome {
	return check.NewArgs[uint64]{
		Cases: []check.ArgCase[uint64]{{Args: 1}, {Args: 1 << 32}, {Args: 0, Bad: "quantum"}, {Args: 1<<32 + 1, Bad: "quantum"}},
		Call:  func(q uint64) string { return "New(quantum=" + check.U(q) + ")" },
		Make:  func(q uint64) { impl(q) },
		Names: map[string][]string{"quantum": {"quantum"}},
		Why:   "New needs 1 <= quantum <= 1<<32; outside, it must panic with a message naming quantum.",
	}.Run()
}
