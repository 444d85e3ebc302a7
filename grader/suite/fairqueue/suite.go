package fairqueue

import (
	"ratelab/grader/check"
	"ratelab/grader/report"
)

// Queue is the fair queue API every implementation offers.
type Queue interface {
	Push(session uint32, cost uint64)
	Pop() (session uint32, cost uint64, ok bool)
	Len() int
}

// New builds a queue: fairqueue.New, adapted to return the interface.
type New func(quantum uint64) Queue

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite {
	impl := Remote(r)
	prop := func(d domain, why string) func(int64) check.Outcome { return d.property(impl).Runs(why) }
	return check.Suite{
		Exercise:   "fairqueue",
		NotStarted: func() bool { return notStarted(impl) },
		Checks: []check.Check{
			{
				ID: "fairqueue/deficit-reset", Title: "An emptied session keeps no credit", Kind: report.Property, Pitfall: "deficit-reset", Points: 5,
				Hint: "When Pop serves a session's last waiting command, set its deficit to 0 as it leaves the round: credit saved while idle would let a session that comes and goes jump ahead of those that stayed backlogged.",
				Run:  prop(deficitDomain, "A session that empties leaves the round with its deficit set to 0; when it comes back it is a newcomer: deficit 0, at the end of the round."),
			},
			{
				ID: "fairqueue/large-cost", Title: "A command above the quantum waits its turns", Kind: report.Property, Pitfall: "large-cost", Points: 5,
				Hint: "Compare the cost with the deficit before subtracting (deficit − cost on unsigned integers wraps), and when it does not fit, end the turn: the session goes to the end keeping its deficit, and gains another quantum on its next turn, until the deficit covers the cost.",
				Run:  prop(largeDomain, "A command costing more than quantum is served on the first turn whose deficit covers it: not before, never skipped, and the deficit never wraps."),
			},
			{
				ID: "fairqueue/round-order", Title: "Newcomers and finished turns go to the end of the round", Kind: report.Property, Pitfall: "round-order", Points: 5,
				Hint: "Keep the round as a FIFO of sessions: a session that gets its first waiting command is appended at the end, and a session whose turn ends with commands left is moved from the head to the end.",
				Run:  prop(roundDomain, "Every command here costs exactly quantum, so each turn serves one command and the round alone decides who is next: newcomers join at the end, and a session whose turn ended goes behind everyone waiting."),
			},
			{
				ID: "fairqueue/turn", Title: "Quantum once per turn; served while the deficit covers", Kind: report.Property, Pitfall: "turn", Points: 5,
				Hint: "Remember whether the head session's turn has begun: add quantum only when it begins, then keep serving that session while its next command costs at most its deficit, and end the turn as soon as it does not.",
				Run:  prop(turnDomain, "A turn adds quantum once, then serves the session for as long as its deficit covers its next command; the first command it cannot pay for ends the turn."),
			},
			{
				ID: "fairqueue/fifo", Title: "Commands of a session leave in the order they came", Kind: report.Property, Pitfall: "fifo", Points: 4,
				Hint: "Each session's commands are a FIFO: append on Push, take from the front on Pop (a slice used as a stack serves the newest first).",
				Run:  prop(fifoDomain, "The right session was served, but not its oldest waiting command."),
			},
			{
				ID: "fairqueue/exactness", Title: "Agrees with the exact model on every call", Kind: report.Property, Pitfall: "exactness", Points: 4,
				Hint: "Replay the counterexample by hand with a list of sessions in the round, each with its FIFO of costs and its deficit, following the rules of Pop step by step; Len counts the commands waiting.",
				Run:  prop(exactDomain, "The queue must agree with the exact model of deficit round robin on every call."),
			},
			{
				ID: "fairqueue/new-arguments", Title: "Refuses a quantum outside [1, 1<<32] with a panic naming it (exactness)", Kind: report.Case, Pitfall: "exactness", Points: 2,
				Hint: "Check quantum at the top of New and panic with a message that says quantum is wrong and what it was.",
				Run:  func(int64) check.Outcome { return newArguments(impl) },
			},
			{
				ID: "fairqueue/budget", Title: "Push+Pop within 100 ns and without allocating, 1,000 sessions", Kind: report.Benchmark, Pitfall: "budget", Points: 5,
				Hint: "Find a session's state in O(1) (a map from id to an index, then slices), keep the round and each session's commands as FIFOs that reuse their memory (rings or linked lists over a pool), and never scan the sessions.",
				Run:  func(int64) check.Outcome { return benchmark(r) },
			},
		},
	}
}

func notStarted(impl New) bool {
	q, p := check.Call(func() Queue { return impl(1) })
	if p != nil {
		return p.Stub()
	}
	_, p1 := check.Call(func() bool { q.Push(0, 1); return true })
	_, p2 := check.Call(func() popAnswer { s, c, ok := q.Pop(); return popAnswer{s, c, ok} })
	_, p3 := check.Call(func() int { return q.Len() })
	return p1.Stub() && p2.Stub() && p3.Stub()
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
