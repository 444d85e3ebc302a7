package fairqueue

// fifo is one shared queue in arrival order.
type fifo struct {
	items []command
	head  int
}

type command struct {
	session uint32
	cost    uint64
}

func (f *fifo) Push(session uint32, cost uint64) {
	if f.head > 0 && f.head == len(f.items) {
		f.items, f.head = f.items[:0], 0
	} else if f.head >= 1024 && f.head*2 >= len(f.items) {
		n := copy(f.items, f.items[f.head:])
		f.items, f.head = f.items[:n], 0
	}
	f.items = append(f.items, command{session, cost})
}

func (f *fifo) Pop() (uint32, uint64, bool) {
	if f.head == len(f.items) {
		return 0, 0, false
	}
	c := f.items[f.head]
	f.head++
	return c.session, c.cost, true
}

func (f *fifo) Len() int { return len(f.items) - f.head }

// roundRobin is plain round robin: one command per session per turn,
// whatever it costs. The round holds the sessions with commands waiting;
// a session joins its end when its queue stops being empty.
type roundRobin struct {
	queues map[uint32]*fifo
	round  fifoOf32
	n      int
}

// fifoOf32 is a FIFO of session ids.
type fifoOf32 struct {
	items []uint32
	head  int
}

func (f *fifoOf32) push(s uint32) {
	if f.head > 0 && f.head == len(f.items) {
		f.items, f.head = f.items[:0], 0
	} else if f.head >= 1024 && f.head*2 >= len(f.items) {
		n := copy(f.items, f.items[f.head:])
		f.items, f.head = f.items[:n], 0
	}
	f.items = append(f.items, s)
}

func (f *fifoOf32) pop() uint32 {
	s := f.items[f.head]
	f.head++
	return s
}

func (r *roundRobin) Push(session uint32, cost uint64) {
	if r.queues == nil {
		r.queues = map[uint32]*fifo{}
	}
	q := r.queues[session]
	if q == nil {
		q = &fifo{}
		r.queues[session] = q
	}
	if q.Len() == 0 {
		r.round.push(session)
	}
	q.Push(session, cost)
	r.n++
}

func (r *roundRobin) Pop() (uint32, uint64, bool) {
	if r.n == 0 {
		return 0, 0, false
	}
	s := r.round.pop()
	q := r.queues[s]
	_, cost, _ := q.Pop()
	if q.Len() > 0 {
		r.round.push(s) // its turn is over: to the end of the round
	}
	r.n--
	return s, cost, true
}

func (r *roundRobin) Len() int { return r.n }
