package fairqueue

import "fmt"

type entry struct {
	id      uint32
	costs   []uint64
	deficit uint64
}

// Queue serves the sessions that have commands by walking a cursor round a
// slice of them; the cursor wraps to the start when it passes the end.
type Queue struct {
	quantum uint64
	by      map[uint32]*entry
	active  []*entry
	cur     int
	started bool // the session under the cursor has had its quantum
	n       int
}

// New returns an empty queue.
func New(quantum uint64) *Queue {
	if quantum == 0 || quantum > 1<<32 {
		panic(fmt.Sprintf("fairqueue: bad quantum %d: want 1 to 1<<32", quantum))
	}
	return &Queue{quantum: quantum, by: map[uint32]*entry{}}
}

// Push appends a command to session's FIFO.
func (q *Queue) Push(session uint32, cost uint64) {
	e := q.by[session]
	if e == nil {
		e = &entry{id: session}
		q.by[session] = e
	}
	if len(e.costs) == 0 {
		e.deficit = 0
		q.active = append(q.active, e)
	}
	e.costs = append(e.costs, cost)
	q.n++
}

// Pop serves the next command.
func (q *Queue) Pop() (session uint32, cost uint64, ok bool) {
	if len(q.active) == 0 {
		return 0, 0, false
	}
	for {
		if q.cur >= len(q.active) {
			q.cur = 0
		}
		e := q.active[q.cur]
		if !q.started {
			e.deficit += q.quantum
			q.started = true
		}
		c := e.costs[0]
		if c <= e.deficit {
			e.costs = e.costs[1:]
			e.deficit -= c
			q.n--
			if len(e.costs) == 0 {
				e.deficit = 0
				q.active = append(q.active[:q.cur], q.active[q.cur+1:]...)
				q.started = false
			}
			return e.id, c, true
		}
		q.cur++
		q.started = false
	}
}

// Len returns the number of commands waiting.
func (q *Queue) Len() int {
	return q.n
}
