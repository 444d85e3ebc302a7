package fairqueue

// costQueue is a session's FIFO of command costs: a ring buffer of a power
// of two cells that doubles when full.
type costQueue struct {
	cells []uint64
	head  int
	n     int
}

func (c *costQueue) push(cost uint64) {
	if c.n == len(c.cells) {
		bigger := make([]uint64, max(4, 2*len(c.cells)))
		copy(bigger, c.cells)
		c.cells = bigger
	}
	c.cells[(c.head+c.n)&(len(c.cells)-1)] = cost
	c.n++
}

func (c *costQueue) front() uint64 {
	return c.cells[c.head]
}

func (c *costQueue) pop() uint64 {
	v := c.cells[c.head]
	c.head = (c.head + 1) & (len(c.cells) - 1)
	c.n--
	return v
}
