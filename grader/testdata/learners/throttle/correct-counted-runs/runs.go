package throttle

// run is n accepted writes at one instant.
type run struct {
	at uint64
	n  uint64
}

// runs counts accepted writes over a sliding window, one run per instant
// (the clock never goes back, so writes arrive in order).
type runs struct {
	list  []run
	first int
	total uint64
}

func inWindow(at, now, window uint64) bool {
	return now < window || at > now-window
}

func (r *runs) expire(now, window uint64) {
	for r.first < len(r.list) && !inWindow(r.list[r.first].at, now, window) {
		r.total -= r.list[r.first].n
		r.first++
	}
	if r.first > 0 && r.first*2 >= len(r.list) {
		r.list = r.list[:copy(r.list, r.list[r.first:])]
		r.first = 0
	}
}

func (r *runs) record(now uint64) {
	r.total++
	if last := len(r.list) - 1; last >= r.first && r.list[last].at == now {
		r.list[last].n++
		return
	}
	r.list = append(r.list, run{at: now, n: 1})
}

func (r *runs) forget() { *r = runs{list: r.list[:0]} }
