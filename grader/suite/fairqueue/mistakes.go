package fairqueue

import (
	"fmt"
	"slices"

	"ratelab/grader/check"
)

// mistakes are those learners make with deficit round robin (see
// check.Mistake).
var mistakes = check.Mistakes(mistaken, []check.Mistake[New]{
	// deficit-reset: an emptied session keeps no credit.
	{Name: "keeps-credit", Pitfall: "deficit-reset", Says: "keeps a session's deficit when it empties and leaves the round, so that it comes back with the credit it had left"},
	{Name: "resets-on-every-push", Pitfall: "deficit-reset", Says: "sets a session's deficit to 0 on every Push, not only when it joins the round, so that a backlogged session loses the credit it had kept"},
	// large-cost: a command above the quantum waits its turns, its
	// session going to the end keeping its deficit.
	{Name: "no-carry-over", Pitfall: "large-cost", Says: "sets the deficit to quantum at the start of a turn instead of adding quantum to it, so that a session whose turn ended loses what it had not spent (and a command above the quantum is never served)"},
	{Name: "serves-large-at-once", Pitfall: "large-cost", Says: "serves a command costing more than quantum as soon as its session's turn comes, and sets the deficit to 0"},
	{Name: "wrapping-deficit", Pitfall: "large-cost", Says: "subtracts the cost from the deficit before comparing, on unsigned integers, so that deficit−cost wraps instead of going below 0 and the session at the head is served until it empties"},
	{Name: "drops-large", Pitfall: "large-cost", Says: "drops a command costing more than quantum when it comes to the front of its session's queue, as if it could never be paid for"},
	// round-order: newcomers and finished turns go to the end.
	{Name: "newcomer-first", Pitfall: "round-order", Says: "puts a session that joins the round next in line (right behind the session in its turn, if a turn has begun) instead of at the end"},
	{Name: "ring-append", Pitfall: "round-order", Says: "keeps the round as a ring walked by a pointer and appends a session that joins at the end of the slice, ahead of the sessions the pointer has already passed, instead of at the end of the round"},
	// turn: quantum once per turn; served while the deficit covers.
	{Name: "quantum-every-pop", Pitfall: "turn", Says: "adds quantum to the head's deficit at every Pop, not once per turn"},
	{Name: "one-per-turn", Pitfall: "turn", Says: "ends a session's turn after every command it serves, sending it to the end of the round, instead of serving it while its deficit covers its next command"},
	{Name: "strict-cover", Pitfall: "turn", Says: "serves a command only when its cost is below the deficit, not when it equals it"},
	{Name: "turn-survives-empty", Pitfall: "turn", Says: "does not end the turn when the session in it empties and leaves, so that the next session's first turn begins without its quantum"},
	// fifo: commands of a session leave in the order they came.
	{Name: "lifo", Pitfall: "fifo", Says: "serves a session's newest command first"},
	{Name: "serves-first-that-fits", Pitfall: "fifo", Says: "serves the first of a session's commands that its deficit covers, passing over older ones that cost more"},
	{Name: "requeues-at-back", Pitfall: "fifo", Says: "puts a command its session could not pay for back at the end of the session's queue instead of at the front"},
	// exactness: the rest of the contract.
	{Name: "len-counts-sessions", Pitfall: "exactness", Says: "returns from Len the number of sessions waiting instead of the number of commands"},
	{Name: "gives-up-at-turn-end", Pitfall: "exactness", Says: "returns (0, 0, false) from a Pop in which the head's turn ended, instead of going on to the next session until a command is served"},
})

// mistaken returns New for the model with the named mistake (which, like
// the contract's, refuses a quantum outside [1, 1<<32]).
func mistaken(mistake string) New {
	return func(quantum uint64) Queue {
		if quantum < 1 || quantum > 1<<32 {
			panic(fmt.Sprintf("quantum %d is outside [1, 1<<32]", quantum))
		}
		return &queue{mistake: mistake, quantum: quantum, fifo: map[uint32][]uint64{}, deficit: map[uint32]uint64{}}
	}
}

// queue is the contract's queue (model) written again with a switch for
// each mistake. Its round is a ring walked by a pointer, at: the session
// at ring[at] is the head (at the end of the slice, the pointer wraps
// around to 0 when it is next used), and the round goes on from there,
// wrapping around; the end of the round is just before the head.
type queue struct {
	mistake string
	quantum uint64
	fifo    map[uint32][]uint64 // each session's waiting costs, oldest first
	deficit map[uint32]uint64
	ring    []uint32 // the sessions with commands waiting
	at      int      // the head's index in ring (len(ring): 0)
	inTurn  bool     // the head's turn has begun
	n       int
}

func (q *queue) Push(s uint32, c uint64) {
	if len(q.fifo[s]) == 0 {
		if q.mistake != "keeps-credit" {
			q.deficit[s] = 0
		}
		q.join(s)
	}
	if q.mistake == "resets-on-every-push" {
		q.deficit[s] = 0
	}
	q.fifo[s] = append(q.fifo[s], c)
	q.n++
}

// join puts s, which had nothing waiting, at the end of the round: just
// before the head, in the ring.
func (q *queue) join(s uint32) {
	switch {
	case q.mistake == "ring-append":
		q.ring = append(q.ring, s) // the end of the slice, not of the round
	case q.mistake == "newcomer-first" && q.inTurn:
		q.ring = slices.Insert(q.ring, q.at+1, s) // right behind the head
	case q.mistake == "newcomer-first":
		q.ring = slices.Insert(q.ring, q.at, s) // the head itself
	default:
		q.ring = slices.Insert(q.ring, q.at, s)
		q.at++
	}
}

func (q *queue) Pop() (uint32, uint64, bool) {
	if q.mistake == "no-carry-over" && q.stuck() {
		// The learner's Pop loops for ever here: no turn can pay for any
		// command. The model answers instead.
		return 0, 0, false
	}
	for len(q.ring) > 0 {
		if q.at >= len(q.ring) {
			q.at = 0 // the pointer wraps around when it is next used
		}
		s := q.ring[q.at]
		if !q.inTurn || q.mistake == "quantum-every-pop" {
			if q.mistake == "no-carry-over" {
				q.deficit[s] = q.quantum
			} else {
				q.deficit[s] += q.quantum
			}
			q.inTurn = true
		}
		i := q.first(s)
		c := q.fifo[s][i]
		if q.mistake == "drops-large" && c > q.quantum {
			q.remove(s, i)
			continue
		}
		if q.covers(s, c) {
			if q.mistake == "serves-large-at-once" && c > q.quantum {
				q.deficit[s] = 0 // paid with whatever it had
			} else {
				q.deficit[s] -= c // wraps with wrapping-deficit
			}
			q.remove(s, i)
			if q.mistake == "one-per-turn" && len(q.fifo[s]) > 0 {
				q.endTurn()
			}
			return s, c, true
		}
		if q.mistake == "requeues-at-back" {
			q.fifo[s] = append(q.fifo[s][1:], c)
		}
		q.endTurn()
		if q.mistake == "gives-up-at-turn-end" {
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// first returns the index, in s's FIFO, of the command to serve next.
func (q *queue) first(s uint32) int {
	switch q.mistake {
	case "lifo":
		return len(q.fifo[s]) - 1
	case "serves-first-that-fits":
		for i, c := range q.fifo[s] {
			if q.covers(s, c) {
				return i
			}
		}
	}
	return 0
}

// covers reports whether s's deficit pays for a command costing c.
func (q *queue) covers(s uint32, c uint64) bool {
	switch {
	case q.mistake == "strict-cover":
		return c < q.deficit[s]
	case q.mistake == "serves-large-at-once" && c > q.quantum:
		return true
	case q.mistake == "wrapping-deficit":
		return true // deficit−c, on unsigned integers, is never below 0
	}
	return c <= q.deficit[s]
}

// remove takes command i out of s's FIFO; if s has nothing left, its
// deficit becomes 0 and it leaves the round, its turn over.
func (q *queue) remove(s uint32, i int) {
	q.fifo[s] = slices.Delete(q.fifo[s], i, i+1)
	q.n--
	if len(q.fifo[s]) > 0 {
		return
	}
	if q.mistake != "keeps-credit" {
		q.deficit[s] = 0
	}
	q.ring = slices.Delete(q.ring, q.at, q.at+1) // at is now the next one
	if q.mistake != "turn-survives-empty" {
		q.inTurn = false
	}
}

// endTurn ends the head's turn: it moves to the end of the round, keeping
// its deficit, and the next session's turn begins.
func (q *queue) endTurn() {
	q.inTurn = false
	q.at++
}

// stuck reports whether no session's first command costs at most quantum
// (with no-carry-over, none will ever be served).
func (q *queue) stuck() bool {
	for _, s := range q.ring {
		if q.fifo[s][0] <= q.quantum {
			return false
		}
	}
	return len(q.ring) > 0
}

func (q *queue) Len() int {
	if q.mistake == "len-counts-sessions" {
		return len(q.ring)
	}
	return q.n
}
