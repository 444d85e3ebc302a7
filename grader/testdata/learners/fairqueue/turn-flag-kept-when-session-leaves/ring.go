package fairqueue

// ring is a FIFO over a power-of-two buffer that doubles when full.
type ring[T any] struct {
	buf  []T
	head int
	n    int
}

func (r *ring[T]) push(v T) {
	if r.n == len(r.buf) {
		bigger := make([]T, max(4, 2*len(r.buf)))
		for i := 0; i < r.n; i++ {
			bigger[i] = r.buf[(r.head+i)&(len(r.buf)-1)]
		}
		r.buf, r.head = bigger, 0
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = v
	r.n++
}

func (r *ring[T]) front() T {
	return r.buf[r.head]
}

func (r *ring[T]) pop() T {
	v := r.buf[r.head]
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	return v
}
