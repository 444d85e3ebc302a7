package fairqueue

import "fmt"

const none = -1

type command struct {
	cost uint64
	next int32
}

type flow struct {
	id          uint32
	front, back int32 // its commands, a list in the pool
	deficit     uint64
	after       int32 // next flow in the round
}

// Queue keeps every command in one pool of list cells (freed cells are
// reused) and the round as a list of flows. A flow is given its quantum the
// moment it reaches the head of the round, which is when its turn begins.
type Queue struct {
	quantum     uint64
	flows       []flow
	byID        map[uint32]int32
	pool        []command
	free        int32
	first, last int32
	count       int
}

// New returns an empty queue.
func New(quantum uint64) *Queue {
	if quantum == 0 || quantum > 1<<32 {
		panic(fmt.Sprintf("fairqueue: quantum %d out of range [1, 1<<32]", quantum))
	}
	return &Queue{quantum: quantum, byID: map[uint32]int32{}, free: none, first: none, last: none}
}

func (q *Queue) cell(cost uint64) int32 {
	if q.free != none {
		c := q.free
		q.free = q.pool[c].next
		q.pool[c] = command{cost: cost, next: none}
		return c
	}
	q.pool = append(q.pool, command{cost: cost, next: none})
	return int32(len(q.pool) - 1)
}

// join puts flow f at the end of the round, crediting it if it is the head.
func (q *Queue) join(f int32) {
	q.flows[f].after = none
	if q.first == none {
		q.first, q.last = f, f
		q.flows[f].deficit += q.quantum
		return
	}
	q.flows[q.last].after = f
	q.last = f
}

// leaveHead removes the head flow from the round and credits the new head.
func (q *Queue) leaveHead() int32 {
	f := q.first
	q.first = q.flows[f].after
	if q.first == none {
		q.last = none
	} else {
		q.flows[q.first].deficit += q.quantum
	}
	return f
}

// Push appends a command to session's list.
func (q *Queue) Push(session uint32, cost uint64) {
	f, ok := q.byID[session]
	if !ok {
		f = int32(len(q.flows))
		q.flows = append(q.flows, flow{id: session, front: none, back: none})
		q.byID[session] = f
	}
	c := q.cell(cost)
	fl := &q.flows[f]
	if fl.front == none {
		fl.front, fl.back = c, c
		fl.deficit = 0
		q.join(f)
	} else {
		q.pool[fl.back].next = c
		fl.back = c
	}
	q.count++
}

// Pop serves the next command.
func (q *Queue) Pop() (session uint32, cost uint64, ok bool) {
	for q.first != none {
		f := q.first
		fl := &q.flows[f]
		c := fl.front
		cost := q.pool[c].cost
		if cost > fl.deficit {
			q.join(q.leaveHead())
			continue
		}
		fl.deficit -= cost
		fl.front = q.pool[c].next
		q.pool[c].next = q.free
		q.free = c
		q.count--
		if fl.front == none {
			fl.back = none
			fl.deficit = 0
			q.leaveHead()
		}
		return fl.id, cost, true
	}
	return 0, 0, false
}

// Len returns the number of commands waiting.
func (q *Queue) Len() int {
	return q.count
}
