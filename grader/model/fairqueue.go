package model

// FairQueue is the contract's deficit round robin (the doc of
// exercises/fairqueue): the round, the sessions with commands waiting,
// the one whose turn it is first; each such session's flow; and whether
// the head's turn has begun (its quantum added).
type FairQueue struct {
	Quantum uint64
	Round   []uint32
	Flows   map[uint32]*Flow
	InTurn  bool
	N       int // commands waiting, in all
	// LastLeft is the deficit each session had left when it last
	// emptied, before it went back to 0: for the grader's messages.
	LastLeft map[uint32]uint64
}

// Flow is one session with commands waiting: its deficit and their
// costs, oldest first.
type Flow struct {
	Deficit uint64
	Queue   []uint64
}

// NewFairQueue is New(quantum): nothing waiting.
func NewFairQueue(quantum uint64) *FairQueue {
	return &FairQueue{Quantum: quantum, Flows: map[uint32]*Flow{}, LastLeft: map[uint32]uint64{}}
}

// Push appends cost to the session's queue; a session with nothing
// waiting joins the end of the round with deficit 0.
func (m *FairQueue) Push(session uint32, cost uint64) {
	f := m.Flows[session]
	if f == nil {
		f = &Flow{}
		m.Flows[session] = f
		m.Round = append(m.Round, session)
	}
	f.Queue = append(f.Queue, cost)
	m.N++
}

// Pop serves the next command, or reports false when none waits: the
// head session's turn adds the quantum once; a first command within the
// deficit is served, one beyond it ends the turn (the session goes to the
// end of the round, keeping its deficit); a session left with nothing
// leaves the round, its deficit back to 0.
func (m *FairQueue) Pop() (session uint32, cost uint64, ok bool) {
	for len(m.Round) > 0 {
		s := m.Round[0]
		f := m.Flows[s]
		if !m.InTurn {
			f.Deficit += m.Quantum
			m.InTurn = true
		}
		if cost := f.Queue[0]; cost <= f.Deficit {
			f.Deficit -= cost
			f.Queue = f.Queue[1:]
			m.N--
			if len(f.Queue) == 0 {
				m.LastLeft[s] = f.Deficit
				delete(m.Flows, s)
				m.Round, m.InTurn = m.Round[1:], false
			}
			return s, cost, true
		}
		m.Round, m.InTurn = append(m.Round[1:], s), false
	}
	return 0, 0, false
}

// Waiting is the number of the session's commands waiting.
func (m *FairQueue) Waiting(session uint32) int {
	if f := m.Flows[session]; f != nil {
		return len(f.Queue)
	}
	return 0
}

// Head returns the session at the head of the round and whether its turn
// has begun; false if nothing waits.
func (m *FairQueue) Head() (session uint32, inTurn, ok bool) {
	if len(m.Round) == 0 {
		return 0, false, false
	}
	return m.Round[0], m.InTurn, true
}
