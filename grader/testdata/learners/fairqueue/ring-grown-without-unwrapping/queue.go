package fairqueue

import "fmt"

type member struct {
	id      uint32
	costs   costQueue
	deficit uint64
}

// Queue is deficit round robin: a ring of session indices (the round), each
// session with a ring of costs, and a flag saying whether the head's turn has
// begun (received its quantum).
type Queue struct {
	quantum  uint64
	index    map[uint32]int32
	sessions []member
	round    ring[int32]
	begun    bool
	waiting  int
}

// New returns an empty queue.
func New(quantum uint64) *Queue {
	if quantum < 1 || quantum > 1<<32 {
		panic(fmt.Sprintf("fairqueue: quantum must be in [1, 1<<32], got %d", quantum))
	}
	return &Queue{quantum: quantum, index: make(map[uint32]int32)}
}

// Push appends a command to session's FIFO.
func (q *Queue) Push(session uint32, cost uint64) {
	i, ok := q.index[session]
	if !ok {
		i = int32(len(q.sessions))
		q.sessions = append(q.sessions, member{id: session})
		q.index[session] = i
	}
	s := &q.sessions[i]
	if s.costs.n == 0 {
		s.deficit = 0
		q.round.push(i)
	}
	s.costs.push(cost)
	q.waiting++
}

// Pop serves the next command.
func (q *Queue) Pop() (session uint32, cost uint64, ok bool) {
	if q.waiting == 0 {
		return 0, 0, false
	}
	for {
		i := q.round.front()
		s := &q.sessions[i]
		if !q.begun {
			s.deficit += q.quantum
			q.begun = true
		}
		if c := s.costs.front(); c <= s.deficit {
			s.costs.pop()
			s.deficit -= c
			q.waiting--
			if s.costs.n == 0 {
				s.deficit = 0
				q.round.pop()
				q.begun = false
			}
			return s.id, c, true
		}
		q.round.push(q.round.pop())
		q.begun = false
	}
}

// Len returns the number of commands waiting.
func (q *Queue) Len() int {
	return q.waiting
}
