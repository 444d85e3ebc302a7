package fairqueue

import "fmt"

type sess struct {
	id      uint32
	costs   []uint64
	deficit uint64
}

// Queue keeps only the sessions with commands waiting; a session that
// empties is dropped and its struct kept on a spare list for the next
// newcomer, so nothing is allocated once the queue has warmed up.
type Queue struct {
	quantum uint64
	live    map[uint32]*sess
	spare   []*sess
	round   []*sess
	started bool // the head of the round has had its quantum
	total   int
}

// New returns an empty queue.
func New(quantum uint64) *Queue {
	if quantum < 1 || quantum > 1<<32 {
		panic(fmt.Sprintf("fairqueue: quantum %d not in [1, 1<<32]", quantum))
	}
	return &Queue{quantum: quantum, live: map[uint32]*sess{}}
}

// Push appends a command to session's FIFO; a newcomer joins the round.
func (q *Queue) Push(session uint32, cost uint64) {
	s, ok := q.live[session]
	if !ok {
		if n := len(q.spare); n > 0 {
			s = q.spare[n-1]
			q.spare = q.spare[:n-1]
			s.id = session
			s.costs = s.costs[:0]
		} else {
			s = &sess{id: session}
		}
		q.live[session] = s
		q.round = append(q.round, s)
	}
	s.costs = append(s.costs, cost)
	q.total++
}

// Pop serves the next command.
func (q *Queue) Pop() (session uint32, cost uint64, ok bool) {
	for len(q.round) > 0 {
		s := q.round[0]
		if !q.started {
			s.deficit += q.quantum
			q.started = true
		}
		c := s.costs[0]
		if c > s.deficit {
			q.round = append(q.round[1:], s)
			q.started = false
			continue
		}
		s.deficit -= c
		s.costs = s.costs[1:]
		q.total--
		if len(s.costs) == 0 {
			q.round = q.round[1:]
			q.started = false
			delete(q.live, s.id)
			q.spare = append(q.spare, s)
		}
		return s.id, c, true
	}
	return 0, 0, false
}

// Len returns the number of commands waiting.
func (q *Queue) Len() int {
	return q.total
}
