package fairqueue

import "strconv"

// none marks the end of a list of commands or sessions.
const none = -1

// command is one waiting command, in a session's FIFO (a linked list
// through a pool shared by every session, so that memory freed by one
// session serves the next).
type command struct {
	cost uint64
	next int32
}

// session is one session's state. Sessions are never forgotten: one that
// comes back reuses its slot, and its deficit is 0 whenever it is idle.
type session struct {
	id         uint32
	deficit    uint64
	head, tail int32 // its FIFO of commands in the pool; none when empty
	next       int32 // the next session in the round
}

// Queue is a deficit round robin queue of commands from many sessions.
// Make one with New. A Queue is not safe for concurrent use.
type Queue struct {
	quantum uint64
	index   map[uint32]int32 // session id -> its slot in sessions
	sess    []session
	pool    []command
	free    int32 // free commands in pool, linked by next
	// The round, a FIFO of session slots linked by next.
	first, last int32
	inTurn      bool // the first session's turn has begun (its quantum is added)
	n           int  // commands waiting
}

// New returns an empty queue whose sessions earn quantum cost units per
// turn. It panics unless 1 <= quantum <= 1<<32.
func New(quantum uint64) *Queue {
	if quantum < 1 || quantum > 1<<32 {
		panic("fairqueue: quantum " + strconv.FormatUint(quantum, 10) + " is outside [1, 1<<32]")
	}
	return &Queue{quantum: quantum, index: map[uint32]int32{}, free: none, first: none, last: none}
}

// Push appends a command of the given cost to the session's FIFO. A
// session that had nothing waiting joins the end of the round with a
// deficit of 0. Costs are 1 to 64×quantum.
func (q *Queue) Push(sessionID uint32, cost uint64) {
	si, ok := q.index[sessionID]
	if !ok {
		si = int32(len(q.sess))
		q.sess = append(q.sess, session{id: sessionID, head: none, tail: none, next: none})
		q.index[sessionID] = si
	}
	c := q.free
	if c == none {
		c = int32(len(q.pool))
		q.pool = append(q.pool, command{})
	} else {
		q.free = q.pool[c].next
	}
	q.pool[c] = command{cost: cost, next: none}
	s := &q.sess[si]
	if s.head == none {
		s.head, s.tail = c, c
		s.deficit = 0
		s.next = none
		if q.last == none {
			q.first = si
		} else {
			q.sess[q.last].next = si
		}
		q.last = si
	} else {
		q.pool[s.tail].next = c
		s.tail = c
	}
	q.n++
}

// Pop removes and returns the next command to serve: (0, 0, false) when
// nothing is waiting.
func (q *Queue) Pop() (sessionID uint32, cost uint64, ok bool) {
	if q.first == none {
		return 0, 0, false
	}
	for {
		si := q.first
		s := &q.sess[si]
		if !q.inTurn {
			s.deficit += q.quantum
			q.inTurn = true
		}
		c := s.head
		cost = q.pool[c].cost
		if cost <= s.deficit {
			s.deficit -= cost
			s.head = q.pool[c].next
			q.pool[c].next, q.free = q.free, c
			q.n--
			if s.head == none { // nothing left: the turn and the credit end
				s.tail, s.deficit = none, 0
				q.first = s.next
				if q.first == none {
					q.last = none
				}
				s.next = none
				q.inTurn = false
			}
			return s.id, cost, true
		}
		// Its first command costs more than its deficit: the turn ends and
		// the session goes to the end of the round, keeping its deficit.
		q.inTurn = false
		if s.next != none {
			q.first = s.next
			q.sess[q.last].next = si
			q.last = si
			s.next = none
		}
	}
}

// Len returns the number of commands waiting.
func (q *Queue) Len() int { return q.n }
