package throttle

// mark is the accepted writes of one instant: n of them at time t.
type mark struct{ t, n uint64 }

// history is the gate's accepted writes still in congestion's window,
// oldest first, as a ring of marks (a power of two of them, so an index is
// a mask): writes at the same instant share one. Only the keeper counts
// them, so a write only adds its mark: the marks that left the window are
// forgotten when the keeper counts or when the ring needs room. It grows
// only when forgetting frees nothing and never shrinks, so a steady load
// allocates nothing.
type history struct {
	buf     []mark
	head, n int
	total   uint64 // writes in the marks
}

// add records one accepted write at t, no earlier than the latest one;
// when the ring is full, it first forgets the marks that left the window
// (t-windowNs, t].
func (h *history) add(t, windowNs uint64) {
	h.total++
	if h.n > 0 {
		if last := &h.buf[(h.head+h.n-1)&(len(h.buf)-1)]; last.t == t {
			last.n++
			return
		}
	}
	if h.n == len(h.buf) {
		h.count(t, windowNs)
	}
	if h.n == len(h.buf) {
		buf := make([]mark, max(4, 2*len(h.buf)))
		for i := range h.n {
			buf[i] = h.buf[(h.head+i)&(len(h.buf)-1)]
		}
		h.buf, h.head = buf, 0
	}
	h.buf[(h.head+h.n)&(len(h.buf)-1)] = mark{t, 1}
	h.n++
}

// count forgets the writes that left the window (now-windowNs, now] and
// returns how many are left. now is no earlier than any write, and
// now-t < windowNs never wraps, whatever now and windowNs are.
func (h *history) count(now, windowNs uint64) uint64 {
	for h.n > 0 && now-h.buf[h.head].t >= windowNs {
		h.total -= h.buf[h.head].n
		h.head = (h.head + 1) & (len(h.buf) - 1)
		h.n--
	}
	return h.total
}
