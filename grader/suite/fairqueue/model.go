package fairqueue

// model is the contract's deficit round robin, written for clarity.
type model struct {
	quantum uint64
	fifo    map[uint32][]uint64 // each session's waiting costs
	deficit map[uint32]uint64
	round   []uint32 // sessions with commands waiting, head first
	inTurn  bool     // the head's turn has begun
	// lastLeft is the deficit each session had left when it last emptied,
	// before the reset to 0.
	lastLeft map[uint32]uint64
	n        int
}

func newModel(quantum uint64) *model {
	return &model{quantum: quantum, fifo: map[uint32][]uint64{}, deficit: map[uint32]uint64{}, lastLeft: map[uint32]uint64{}}
}

func (m *model) push(s uint32, c uint64) {
	if len(m.fifo[s]) == 0 {
		m.deficit[s] = 0
		m.round = append(m.round, s)
	}
	m.fifo[s] = append(m.fifo[s], c)
	m.n++
}

// pop serves the next command, or reports false when none waits.
func (m *model) pop() (s uint32, c uint64, ok bool) {
	for len(m.round) > 0 {
		s = m.round[0]
		if !m.inTurn {
			m.deficit[s] += m.quantum
			m.inTurn = true
		}
		c = m.fifo[s][0]
		if c <= m.deficit[s] {
			m.deficit[s] -= c
			m.fifo[s] = m.fifo[s][1:]
			m.n--
			if len(m.fifo[s]) == 0 {
				m.lastLeft[s] = m.deficit[s]
				m.deficit[s] = 0
				m.round = m.round[1:]
				m.inTurn = false
			}
			return s, c, true
		}
		m.inTurn = false
		m.round = append(m.round[1:], s)
	}
	return 0, 0, false
}

// head returns the session at the head of the round and whether its turn
// has begun.
func (m *model) head() (uint32, bool, bool) {
	if len(m.round) == 0 {
		return 0, false, false
	}
	return m.round[0], m.inTurn, true
}
