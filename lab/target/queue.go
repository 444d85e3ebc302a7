package target

import "math/rand/v2"

// Queue is a server with a fixed number of workers in front of one
// first-in, first-out queue. A request that finds a worker free is served
// at once; otherwise it waits for the earliest worker to finish. Its
// latency is the wait plus its service time, so latency grows with the
// queue while throughput stays at the workers' pace: the shape a
// latency-based limit such as Gradient2 reads.
//
// Service times are ServiceNs scaled by 1 + noise·u, u drawn uniformly from
// [-1, 1]. The zero value is not usable: use NewQueue.
type Queue struct {
	serviceNs float64
	noise     float64
	rng       *rand.Rand
	free      []uint64 // min-heap: when each worker is next free
	latest    uint64
}

// NewQueue returns an idle server of workers workers (at least 1) with a
// mean service time of serviceNs, its noise drawn from seed.
func NewQueue(workers int, serviceNs uint64, noise float64, seed uint64) *Queue {
	return &Queue{
		serviceNs: float64(serviceNs),
		noise:     noise,
		rng:       rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d)),
		free:      make([]uint64, max(workers, 1)),
	}
}

// Workers returns the number of workers.
func (q *Queue) Workers() int { return len(q.free) }

// Throughput returns the requests per second the workers complete when
// none is ever idle: workers·10^9/ServiceNs.
func (q *Queue) Throughput() float64 { return float64(len(q.free)) * 1e9 / q.serviceNs }

// Admit queues a request arriving at nowNs and returns the time it
// completes. A time earlier than one already seen counts as that one, so
// the queue stays first-in, first-out.
func (q *Queue) Admit(nowNs uint64) (doneNs uint64) {
	nowNs = max(nowNs, q.latest)
	q.latest = nowNs
	service := q.serviceNs * (1 + q.noise*(2*q.rng.Float64()-1))
	start := max(nowNs, q.free[0])
	done := start + uint64(max(service, 1))
	q.free[0] = done
	q.down(0)
	return done
}

// down restores the heap property from index i downwards.
func (q *Queue) down(i int) {
	h := q.free
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r] < h[l] {
			m = r
		}
		if h[i] <= h[m] {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
