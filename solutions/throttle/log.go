package throttle

// writeLog is the times of one address's latest accepted writes, oldest
// first, in a ring (a power of two of them, so an index is a mask).
//
// The rate limit asks it one question: are there limit accepted writes in
// the window (now-windowNs, now]? Times never go back, so that is so
// exactly when the limit-th latest write is in the window: one slot read,
// whatever the limit, with no count to keep up to date and no loop. For
// that the log needs no more than the latest keep writes (keep, the
// largest limit that can apply to the address) and none that left the
// window: it forgets older ones only when it needs room, grows only when
// that frees none, and never shrinks, so a steady load allocates nothing.
// Head and length are 32-bit (a log holds at most keep < 2^32 writes) so
// that an address's whole state fits one cache line.
type writeLog struct {
	times   []uint64
	head, n uint32
}

// atLimit reports whether limit (>= 1) of the logged writes are in the
// window (now-windowNs, now]. now is no earlier than any of them, so now-t
// never wraps, whatever now and windowNs are.
func (l *writeLog) atLimit(now, windowNs uint64, limit uint32) bool {
	return l.n >= limit && now-l.times[l.index(l.n-limit)] < windowNs
}

// add logs an accepted write at t, no earlier than the latest one, keeping
// at most keep (>= 1) writes and, when it needs room, none that left the
// window (t-windowNs, t].
func (l *writeLog) add(t, windowNs uint64, keep uint32) {
	if l.n >= keep {
		l.dropOldest()
	}
	if int(l.n) == len(l.times) {
		for l.n > 0 && t-l.times[l.head] >= windowNs {
			l.dropOldest()
		}
	}
	if int(l.n) == len(l.times) {
		times := make([]uint64, max(4, 2*len(l.times)))
		for i := range l.n {
			times[i] = l.times[l.index(i)]
		}
		l.times, l.head = times, 0
	}
	l.times[l.index(l.n)] = t
	l.n++
}

// index returns where the i-th oldest write is in the ring.
func (l *writeLog) index(i uint32) uint32 { return (l.head + i) & uint32(len(l.times)-1) }

func (l *writeLog) dropOldest() {
	l.head = l.index(1)
	l.n--
}

// reset forgets every write, keeping the memory.
func (l *writeLog) reset() { l.head, l.n = 0, 0 }
