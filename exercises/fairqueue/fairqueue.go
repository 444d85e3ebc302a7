// Package fairqueue is the second exercise of week 3: a fair queue in front
// of the engine.
//
// Every function here panics with "not implemented" until you write it.
// Replace the panics, add the fields you need, split the code into as many
// files as you like: only the exported API below is graded.
//
// # What to build
//
// Even when every session keeps within its limits, together they can send
// more than the engine can take right now. With one shared FIFO, whoever
// sends the biggest burst fills the queue and everyone else waits behind.
// Build deficit round robin (Shreedhar and Varghese, 1995) instead: each
// session gets its own queue, and sessions are served in turn, each turn
// worth quantum cost units. One Pop serves one command.
//
// # The exact rules
//
//   - Each session has a FIFO of command costs and a deficit. The round is
//     a FIFO of the sessions that have commands waiting.
//   - Push(s, c) appends c to s's FIFO. If s had nothing waiting, s joins
//     the END of the round with deficit 0.
//   - Pop takes the session s at the head of the round. At the start of its
//     turn (not at every Pop within it) quantum is added to its deficit.
//     If s's first command costs at most its deficit, remove and return it
//     and subtract its cost; if s has nothing left, its deficit becomes 0
//     and it leaves the round (its turn is over). If the first command
//     costs more than the deficit, s's turn ends: s moves to the end of the
//     round keeping its deficit, the next session's turn begins, and so on
//     until a command is returned. Nothing waiting: (0, 0, false).
//   - Len is the number of commands waiting.
//   - New panics, with a message naming quantum, unless
//     1 <= quantum <= 1<<32. Costs are 1 to 64*quantum.
//
// # Traps
//
//   - Leftover credit. A session that empties keeps no deficit: when it
//     comes back it starts from 0, like a newcomer.
//   - Big commands. A command costing more than quantum waits for enough
//     turns: never skipped, never served early, and deficit-cost must not
//     wrap around.
//   - The order of the round. Newcomers and sessions whose turn ended go
//     to the END, behind everyone already waiting.
//   - Turns. Quantum is added once per turn, not once per Pop; within its
//     turn a session is served for as long as its deficit covers its next
//     command.
//   - FIFO within a session.
//
// # Grading
//
// From the repository root, run
//
//	make grade
//
// or, for this exercise only,
//
//	go run ./cmd/labserver grade --exercise fairqueue
//
// Each failed check names the mistake it found (only when the grader's
// model of that mistake gives every answer yours gave) and the shortest
// sequence of calls that shows it; one mistake costs its own points once.
//
// There is also a speed budget: a Push and a Pop, with 1,000 sessions
// waiting, must take at most 100 ns per pair and allocate nothing in steady
// state. It is timed on traffic drawn afresh for every run, and your
// decisions are checked on each run's traffic. Allocations are counted on a
// run of their own, the same on every machine: 20,000 pairs after a warm-up
// of 65,536, as a rate: at most one per 100 pairs. Amortised growth is
// allowed (a map or a slice that grows as the traffic needs, a log grown a
// chunk at a time); an allocation on every pair, or every few pairs, is
// not.
package fairqueue

// Queue is your deficit round robin queue. Its fields are yours to choose.
type Queue struct {
	// Your fields here.
}

// New returns an empty queue whose sessions earn quantum cost units per
// turn.
func New(quantum uint64) *Queue {
	panic("fairqueue: New is not implemented yet")
}

// Push appends a command of the given cost to session's FIFO.
func (q *Queue) Push(session uint32, cost uint64) {
	panic("fairqueue: Push is not implemented yet")
}

// Pop removes and returns the next command to serve, or (0, 0, false) when
// nothing is waiting.
func (q *Queue) Pop() (session uint32, cost uint64, ok bool) {
	panic("fairqueue: Pop is not implemented yet")
}

// Len returns the number of commands waiting.
func (q *Queue) Len() int {
	panic("fairqueue: Len is not implemented yet")
}
