package slidingwindow_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"ratelab/solutions/slidingwindow"
)

const max64 = math.MaxUint64

// step is one call: TryAcquire(now) wanting ok, or, when count is set,
// Count(now) wanting n.
type step struct {
	count bool
	now   uint64
	ok    bool
	n     uint32
}

func acquire(now uint64, ok bool) step { return step{now: now, ok: ok} }
func count(now uint64, n uint32) step  { return step{count: true, now: now, n: n} }

// run replays steps on w and stops at the first wrong answer.
func run(t *testing.T, w *slidingwindow.SlidingWindow, steps []step) {
	t.Helper()
	for i, s := range steps {
		if s.count {
			if got := w.Count(s.now); got != s.n {
				t.Fatalf("step %d: Count(%d) = %d, want %d", i, s.now, got, s.n)
			}
			continue
		}
		if got := w.TryAcquire(s.now); got != s.ok {
			t.Fatalf("step %d: TryAcquire(%d) = %t, want %t", i, s.now, got, s.ok)
		}
	}
}

func TestSlidingWindow(t *testing.T) {
	tests := []struct {
		name     string
		limit    uint32
		windowNs uint64
		buckets  int
		steps    []step
	}{
		{"counts the current bucket and the buckets-1 before it", 1, 10, 10, []step{
			acquire(0, true), acquire(9, false), count(9, 1),
			count(10, 0), acquire(10, true), acquire(19, false),
		}},
		{"one bucket is a fixed window", 2, 10, 1, []step{
			acquire(0, true), acquire(9, true), acquire(9, false),
			acquire(10, true), count(19, 1), count(20, 0),
		}},
		{"buckets that do not divide the window", 3, 10, 3, []step{
			// bucketNs = 3, so the window is 9 ns, not 10.
			acquire(0, true), acquire(1, true), acquire(2, true),
			acquire(8, false), count(8, 3),
			acquire(9, true), count(9, 1),
		}},
		{"rejected calls are not counted", 2, 100, 10, []step{
			acquire(0, true),
			acquire(50, true), acquire(50, false), acquire(50, false), acquire(50, false),
			count(99, 2),
			acquire(100, true), // bucket 0 left; bucket 5 holds 1, not 4
			acquire(100, false),
		}},
		{"a bucket's slot reused after the window wraps", 1, 4, 4, []step{
			acquire(0, true), acquire(3, false),
			acquire(4, true), // bucket 4: bucket 0 left the window
			acquire(7, false),
			acquire(12, true), // bucket 12, far ahead: everything left
			count(15, 1), count(16, 0),
		}},
		{"steps back in time count in the latest bucket", 2, 100, 10, []step{
			acquire(500, true),
			acquire(5, true), // counts in bucket 50, not bucket 0
			acquire(5, false),
			count(590, 2), // buckets 50-59
			count(600, 0), // buckets 51-60
			count(0, 0),   // still bucket 60: rewinding brings nothing back
			acquire(599, true),
			count(609, 1),
		}},
		{"limit 0 accepts nothing", 0, 10, 2, []step{
			acquire(0, false), count(0, 0), acquire(max64, false),
		}},
		{"bucket MaxUint64 with bucketNs 1", 1, 1, 1, []step{
			acquire(max64-1, true), acquire(max64-1, false),
			acquire(max64, true), acquire(max64, false), count(max64, 1),
			acquire(0, false), count(0, 1),
		}},
		{"three buckets of 1 ns at the end of time", 2, 3, 3, []step{
			acquire(max64-3, true), acquire(max64-2, true),
			acquire(max64-1, false), // buckets max64-3 .. max64-1
			acquire(max64, true),    // bucket max64-3 left
			acquire(max64, false), count(max64, 2),
			count(max64-1, 2),
		}},
		{"the last bucket ends at MaxUint64", 1, max64, 1, []step{
			acquire(0, true), acquire(max64-1, false),
			acquire(max64, true), acquire(max64, false), count(max64, 1),
		}},
		// bucketNs = 3 divides 2^64-1: the last bucket's end is
		// (2^64-1) + 2, past MaxUint64.
		{"the end of the last bucket does not wrap", 1, 3, 1, []step{
			acquire(max64, true), acquire(5, false), count(0, 1),
		}},
		{"a huge number of buckets needs no huge memory", 3, max64, math.MaxInt, []step{
			acquire(0, true), acquire(1, true), acquire(2, true), acquire(3, false),
			// bucketNs = 2, so nowNs = MaxUint64 is bucket 2^63-1:
			// bucket 0 just left the window, bucket 1 has not.
			acquire(max64, true), count(max64, 2),
			acquire(max64, true), acquire(max64, false),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run(t, slidingwindow.New(tt.limit, tt.windowNs, tt.buckets), tt.steps)
		})
	}
}

func TestNewPanics(t *testing.T) {
	tests := []struct {
		windowNs uint64
		buckets  int
		want     string // the panic names the argument
	}{
		{10, 0, "buckets"},
		{10, -1, "buckets"},
		{10, math.MinInt, "buckets"},
		{0, 1, "windowNs"},
		{9, 10, "windowNs"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("New(1,%d,%d)", tt.windowNs, tt.buckets), func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, tt.want) {
					t.Errorf("New(1, %d, %d) panics with %q, want a message naming %s", tt.windowNs, tt.buckets, msg, tt.want)
				}
			}()
			slidingwindow.New(1, tt.windowNs, tt.buckets)
		})
	}
}

// model is the contract's definition, by brute force: a map from bucket id
// to calls accepted in it, summed over the window on every call.
type model struct {
	limit             uint32
	bucketNs, buckets uint64
	cur               uint64
	accepted          map[uint64]uint32
}

func (m *model) count(now uint64) uint32 {
	m.cur = max(m.cur, now/m.bucketNs)
	var n uint32
	for id, a := range m.accepted {
		if m.cur-id < m.buckets {
			n += a
		} else {
			delete(m.accepted, id) // gone for good: keeps the map small
		}
	}
	return n
}

func (m *model) tryAcquire(now uint64) bool {
	if m.count(now) >= m.limit {
		return false
	}
	m.accepted[m.cur]++
	return true
}

// TestMatchesModel compares the window with the brute-force model on random
// streams: small and large steps, steps back, times near MaxUint64.
func TestMatchesModel(t *testing.T) {
	const seed = 2
	r := rand.New(rand.NewPCG(seed, 0))
	t.Logf("seed %d", seed)
	for stream := range 3000 {
		limit := uint32(r.IntN(6))
		if r.IntN(4) == 0 {
			limit = r.Uint32N(1000)
		}
		buckets := 1 + r.IntN(12)
		if r.IntN(4) == 0 {
			buckets = 1 + r.IntN(2000)
		}
		windowNs := uint64(buckets) + r.Uint64N(uint64(buckets)*5)
		if r.IntN(8) == 0 {
			windowNs = uint64(buckets) + r.Uint64()>>r.UintN(64)/2
		}
		w := slidingwindow.New(limit, windowNs, buckets)
		m := &model{limit: limit, bucketNs: windowNs / uint64(buckets), buckets: uint64(buckets), accepted: map[uint64]uint32{}}
		now := []uint64{0, 0, max64 - 10*windowNs, max64 - windowNs, max64 - 3}[r.IntN(5)]
		var calls []string
		for range 200 {
			bucketNs := m.bucketNs
			switch r.IntN(10) {
			case 0: // step back
				now -= min(now, r.Uint64N(2*windowNs))
			case 1: // jump
				now += min(max64-now, r.Uint64()>>r.UintN(64))
			case 2, 3: // same instant
			default:
				now += min(max64-now, r.Uint64N(2*bucketNs))
			}
			if r.IntN(5) == 0 {
				calls = append(calls, fmt.Sprintf("Count(%d)", now))
				if got, want := w.Count(now), m.count(now); got != want {
					t.Fatalf("stream %d: New(%d, %d, %d) then\n%v\n= %d, want %d", stream, limit, windowNs, buckets, calls, got, want)
				}
				continue
			}
			calls = append(calls, fmt.Sprintf("TryAcquire(%d)", now))
			if got, want := w.TryAcquire(now), m.tryAcquire(now); got != want {
				t.Fatalf("stream %d: New(%d, %d, %d) then\n%v\n= %t, want %t", stream, limit, windowNs, buckets, calls, got, want)
			}
		}
	}
}

func TestNoAllocs(t *testing.T) {
	w := slidingwindow.New(100, 1_000_000, 1000)
	now := uint64(0)
	allocs := testing.AllocsPerRun(1000, func() {
		now += 700
		w.TryAcquire(now)
		w.Count(now)
	})
	if allocs != 0 {
		t.Errorf("TryAcquire and Count allocate %.1f times per call, want 0", allocs)
	}
}
