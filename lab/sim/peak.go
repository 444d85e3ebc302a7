package sim

// Peak tracks the largest number of events in any half-open interval of a
// fixed length: for event times t1 <= t2 <= ..., the largest j-i+1 with
// tj - ti < length. It keeps the events of the latest interval in a ring
// that grows as needed, so Add is O(1) amortised and memory is O(Max).
//
// Times must not decrease; a time earlier than the latest one counts as the
// latest. The zero value has length 0 and a peak of 0; use NewPeak.
type Peak struct {
	length uint64
	ring   []uint64 // times of the events in the latest interval; len is a power of two
	head   int      // index of the oldest of them
	n      int      // how many
	latest uint64
	max    uint64
	maxAt  uint64 // time of the first event of the first interval that reached max
}

// NewPeak returns a Peak over intervals of lengthNs nanoseconds.
func NewPeak(lengthNs uint64) *Peak {
	return &Peak{length: lengthNs, ring: make([]uint64, 16)}
}

// Add records an event at tNs.
func (p *Peak) Add(tNs uint64) {
	if p.length == 0 {
		return
	}
	if tNs < p.latest {
		tNs = p.latest
	}
	p.latest = tNs
	mask := len(p.ring) - 1
	for p.n > 0 && tNs-p.ring[p.head] >= p.length {
		p.head = (p.head + 1) & mask
		p.n--
	}
	if p.n == len(p.ring) {
		p.grow()
		mask = len(p.ring) - 1
	}
	p.ring[(p.head+p.n)&mask] = tNs
	p.n++
	if uint64(p.n) > p.max {
		p.max, p.maxAt = uint64(p.n), p.ring[p.head]
	}
}

// grow doubles the ring, moving the oldest event to index 0.
func (p *Peak) grow() {
	ring := make([]uint64, 2*len(p.ring))
	k := copy(ring, p.ring[p.head:])
	copy(ring[k:], p.ring[:p.head])
	p.ring, p.head = ring, 0
}

// Max returns the largest number of events seen in any interval of the
// length.
func (p *Peak) Max() uint64 { return p.max }

// MaxAt returns the time of the first event of the earliest interval that
// holds Max events, or 0 when there were none.
func (p *Peak) MaxAt() uint64 { return p.maxAt }
