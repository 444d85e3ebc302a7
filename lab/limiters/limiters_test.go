package limiters_test

import (
	"math/rand/v2"
	"testing"

	"ratelab/lab/limiters"
	"ratelab/solutions/tokenbucket"
)

// step is one call to a one-message limiter and the answer wanted.
type step struct {
	now  uint64
	want bool
}

type oneMessage interface{ TryAcquire(nowNs uint64) bool }

func run(t *testing.T, l oneMessage, steps []step) {
	t.Helper()
	for i, s := range steps {
		if got := l.TryAcquire(s.now); got != s.want {
			t.Fatalf("step %d: TryAcquire(%d) = %v, want %v", i, s.now, got, s.want)
		}
	}
}

func TestFixedWindow(t *testing.T) {
	tests := []struct {
		name  string
		limit uint32
		steps []step
	}{
		{"fills then refuses", 2, []step{{0, true}, {1, true}, {9, false}}},
		{"resets at the boundary", 2, []step{{8, true}, {9, true}, {9, false}, {10, true}, {11, true}, {12, false}}},
		{"admits 2N across a boundary", 3, []step{{9, true}, {9, true}, {9, true}, {10, true}, {10, true}, {10, true}, {10, false}}},
		{"time going back stays in the latest window", 1, []step{{25, true}, {15, false}, {0, false}, {30, true}}},
		{"limit 0 admits nothing", 0, []step{{0, false}, {100, false}}},
		{"last nanosecond", 1, []step{{^uint64(0), true}, {^uint64(0), false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run(t, limiters.NewFixedWindow(tt.limit, 10), tt.steps)
		})
	}
}

func TestFixedWindowCount(t *testing.T) {
	f := limiters.NewFixedWindow(5, 10)
	for _, now := range []uint64{1, 2, 3} {
		f.TryAcquire(now)
	}
	if got := f.Count(9); got != 3 {
		t.Errorf("Count(9) = %d, want 3", got)
	}
	if got := f.Count(10); got != 0 {
		t.Errorf("Count(10) = %d, want 0", got)
	}
	if got := f.Count(0); got != 3 {
		t.Errorf("Count(0) after times up to 3 = %d, want 3 (time never rewinds)", got)
	}
}

func TestSlidingLog(t *testing.T) {
	tests := []struct {
		name  string
		limit uint32
		steps []step
	}{
		{"fills then refuses", 2, []step{{0, true}, {5, true}, {9, false}}},
		{"oldest must be a whole window old", 2, []step{{0, true}, {5, true}, {9, false}, {10, true}, {14, false}, {15, true}}},
		{"no 2N at a calendar boundary", 3, []step{{9, true}, {9, true}, {9, true}, {10, false}, {18, false}, {19, true}}},
		{"time going back counts as the latest", 1, []step{{20, true}, {0, false}, {29, false}, {30, true}}},
		{"limit 0 admits nothing", 0, []step{{0, false}, {100, false}}},
		{"last nanosecond", 1, []step{{^uint64(0) - 10, true}, {^uint64(0), true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run(t, limiters.NewSlidingLog(tt.limit, 10), tt.steps)
		})
	}
}

// logModel is the sliding log's definition, kept naively: every accepted
// time, and a count over all of them.
type logModel struct {
	limit    int
	windowNs uint64
	accepted []uint64
	latest   uint64
}

func (m *logModel) TryAcquire(now uint64) bool {
	now = max(now, m.latest)
	m.latest = now
	n := 0
	for _, a := range m.accepted {
		if now-a < m.windowNs {
			n++
		}
	}
	if n >= m.limit {
		return false
	}
	m.accepted = append(m.accepted, now)
	return true
}

func TestSlidingLogMatchesDefinition(t *testing.T) {
	const seed = 2
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	for trial := range 200 {
		limit := 1 + r.IntN(8)
		window := 1 + r.Uint64N(50)
		l := limiters.NewSlidingLog(uint32(limit), window)
		m := &logModel{limit: limit, windowNs: window}
		var now uint64
		for i := range 300 {
			switch r.IntN(10) {
			case 0: // a step back in time
				now -= min(now, r.Uint64N(20))
			default:
				now += r.Uint64N(window/2 + 1)
			}
			got, want := l.TryAcquire(now), m.TryAcquire(now)
			if got != want {
				t.Fatalf("trial %d (limit %d, window %d) call %d: TryAcquire(%d) = %v, want %v", trial, limit, window, i, now, got, want)
			}
			if c, n := l.Count(now), countIn(m, now); c != n {
				t.Fatalf("trial %d call %d: Count(%d) = %d, want %d", trial, i, now, c, n)
			}
		}
	}
}

func countIn(m *logModel, now uint64) uint32 {
	now = max(now, m.latest)
	var n uint32
	for _, a := range m.accepted {
		if now-a < m.windowNs {
			n++
		}
	}
	return n
}

func TestCreditString(t *testing.T) {
	tests := []struct {
		c    limiters.Credit
		want string
	}{
		{limiters.Credit{}, "0"},
		{limiters.Credit{Tokens: 12}, "12"},
		{limiters.Credit{Tokens: 999, Units: 900_000_000}, "999.9"},
		{limiters.Credit{Units: 1}, "0.000000001"},
		{limiters.Credit{Tokens: 3, Units: 140_000_000}, "3.14"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.c, got, tt.want)
		}
	}
}

// TestNaiveBucketDemo is the lesson's demo: 1,000 tokens/s, a call every
// 100 µs. Each call earns 0.1 token, which the naive refill throws away.
func TestNaiveBucketDemo(t *testing.T) {
	naive := limiters.NewNaiveBucket(10, 1000, 0)
	exact := tokenbucket.New(10, 1000, 0)
	var gotNaive, gotExact int
	for now := uint64(0); now < 1_000_000_000; now += 100_000 {
		if naive.TryAcquire(now) {
			gotNaive++
		}
		if exact.TryAcquire(now, 1) {
			gotExact++
		}
	}
	if gotNaive != 10 {
		t.Errorf("naive bucket granted %d in 1 s, want 10 (the initial burst only)", gotNaive)
	}
	if gotExact != 1009 {
		t.Errorf("exact bucket granted %d in 1 s, want 1009", gotExact)
	}
	// 9,999 calls after the first each threw 0.1 token away.
	if got := naive.Lost().String(); got != "999.9" {
		t.Errorf("Lost() = %s, want 999.9", got)
	}
}

func TestNaiveBucket(t *testing.T) {
	t.Run("whole tokens lose nothing", func(t *testing.T) {
		b := limiters.NewNaiveBucket(2, 1000, 0)
		run(t, b, []step{{0, true}, {0, true}, {0, false}, {1_000_000, true}, {1_000_000, false}, {3_000_000, true}, {3_000_000, true}, {3_000_000, false}})
		if got := b.Lost(); got != (limiters.Credit{}) {
			t.Errorf("Lost() = %v, want 0", got)
		}
	})
	t.Run("fraction below capacity is lost", func(t *testing.T) {
		b := limiters.NewNaiveBucket(5, 1000, 0)
		run(t, b, []step{{0, true}, {0, true}, {0, true}, {0, true}, {0, true}, {0, false}, {1_500_000, true}, {1_500_000, false}})
		if got := b.Lost().String(); got != "0.5" {
			t.Errorf("Lost() = %s, want 0.5", got)
		}
	})
	t.Run("fraction above capacity is not counted", func(t *testing.T) {
		b := limiters.NewNaiveBucket(1, 1000, 0)
		run(t, b, []step{{0, true}, {1_500_000, true}, {3_700_000, true}})
		if got := b.Lost().String(); got != "0" {
			t.Errorf("Lost() = %s, want 0: the bucket was full after each refill", got)
		}
	})
	t.Run("long idle neither overflows nor wraps", func(t *testing.T) {
		b := limiters.NewNaiveBucket(3, 1_000_000_000, 0)
		run(t, b, []step{{0, true}, {0, true}, {0, true}, {0, false}, {^uint64(0), true}, {^uint64(0), true}, {^uint64(0), true}, {^uint64(0), false}})
	})
	t.Run("time going back adds nothing", func(t *testing.T) {
		b := limiters.NewNaiveBucket(2, 1000, 5_000_000)
		run(t, b, []step{{5_000_000, true}, {5_000_000, true}, {0, false}, {6_000_000, true}, {6_000_000, false}})
	})
	t.Run("Tokens changes nothing", func(t *testing.T) {
		b := limiters.NewNaiveBucket(2, 1000, 0)
		b.TryAcquire(0)
		b.TryAcquire(0)
		if got := b.Tokens(1_500_000); got != 1 {
			t.Errorf("Tokens(1.5 ms) = %d, want 1", got)
		}
		if got := b.Lost(); got != (limiters.Credit{}) {
			t.Errorf("Lost() after Tokens = %v, want 0", got)
		}
		run(t, b, []step{{2_000_000, true}, {2_000_000, true}, {2_000_000, false}})
	})
}

// TestNaiveNeverAheadOfExact checks, on random call sequences, that the naive
// bucket never holds more than the exact one (so never grants a message the
// exact one would refuse) and that whenever it is below capacity the gap is
// at least the credit it reports lost since it was last full.
func TestNaiveNeverAheadOfExact(t *testing.T) {
	const seed = 3
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	for trial := range 300 {
		capacity := 1 + r.Uint64N(5)
		rate := 1 + r.Uint64N(3000)
		naive := limiters.NewNaiveBucket(capacity, rate, 0)
		exact := tokenbucket.New(capacity, rate, 0)
		var now uint64
		for i := range 200 {
			now += r.Uint64N(2_000_000)
			gotNaive, gotExact := naive.TryAcquire(now), exact.TryAcquire(now, 1)
			if gotNaive && !gotExact {
				t.Fatalf("trial %d (capacity %d, rate %d) call %d at %d: naive granted, exact refused", trial, capacity, rate, i, now)
			}
			if n, e := naive.Tokens(now), exact.Available(now); n > e {
				t.Fatalf("trial %d call %d: naive holds %d tokens, exact %d", trial, i, n, e)
			}
		}
	}
}

// fakeBucket records the times it is asked about.
type fakeBucket struct {
	asked []uint64
}

func (f *fakeBucket) TryAcquire(nowNs, n uint64) bool {
	f.asked = append(f.asked, nowNs)
	return true
}

func (f *fakeBucket) Available(nowNs uint64) uint64 {
	f.asked = append(f.asked, nowNs)
	return 7
}

func TestTokenBucketAsksInexactBucketOnlyAtLatestCall(t *testing.T) {
	for _, exact := range []bool{false, true} {
		f := &fakeBucket{}
		b := limiters.NewTokenBucket(f, exact, 0)
		b.TryAcquire(100)
		b.Tokens(250)
		want := uint64(100)
		if exact {
			want = 250
		}
		if got := f.asked[len(f.asked)-1]; got != want {
			t.Errorf("exact=%v: Tokens(250) asked Available(%d), want Available(%d)", exact, got, want)
		}
	}
}

func TestSlidingWindowShadowMatchesReference(t *testing.T) {
	const seed = 4
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	for trial := range 200 {
		limit := uint32(1 + r.IntN(10))
		k := 1 + r.IntN(6)
		window := uint64(k) * (1 + r.Uint64N(20))
		ref := limiters.Reference.NewWindow(limit, window, k)
		w := limiters.NewSlidingWindow(limiters.Reference.NewWindow(limit, window, k), window, k)
		var now uint64
		for i := range 200 {
			now += r.Uint64N(window/2 + 1)
			if r.IntN(8) == 0 {
				now -= min(now, r.Uint64N(window))
			}
			if got, want := w.TryAcquire(now), ref.TryAcquire(now); got != want {
				t.Fatalf("trial %d call %d: TryAcquire(%d) = %v, want %v", trial, i, now, got, want)
			}
			want := ref.Count(now)
			if got := w.Count(now); got != want {
				t.Fatalf("trial %d call %d: shadow Count(%d) = %d, want %d", trial, i, now, got, want)
			}
			var sum uint32
			buckets := w.Buckets(nil, now)
			for _, c := range buckets {
				sum += c
			}
			if len(buckets) != k || sum != want {
				t.Fatalf("trial %d call %d: Buckets(%d) = %v, want %d buckets summing to %d", trial, i, now, buckets, k, want)
			}
		}
	}
}

func TestSlidingWindowBucketsOrder(t *testing.T) {
	w := limiters.NewSlidingWindow(limiters.Reference.NewWindow(10, 30, 3), 30, 3)
	for _, now := range []uint64{0, 12, 13, 25, 25, 25} {
		w.TryAcquire(now)
	}
	got := w.Buckets(nil, 25)
	want := []uint32{1, 2, 3}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("Buckets(25) = %v, want %v (oldest first)", got, want)
	}
	got = w.Buckets(nil, 31)
	want = []uint32{2, 3, 0}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("Buckets(31) = %v, want %v", got, want)
	}
}
