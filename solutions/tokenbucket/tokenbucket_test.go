package tokenbucket_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"ratelab/solutions/tokenbucket"
)

const max64 = math.MaxUint64

// step is one call on a bucket: TryAcquire(now, n) wanting ok, or, when
// avail is set, Available(now) wanting tokens.
type step struct {
	avail  bool
	now, n uint64
	ok     bool
	tokens uint64
}

func acquire(now, n uint64, ok bool) step { return step{now: now, n: n, ok: ok} }
func available(now, tokens uint64) step   { return step{avail: true, now: now, tokens: tokens} }
func (s step) call() string {
	if s.avail {
		return fmt.Sprintf("Available(%d)", s.now)
	}
	return fmt.Sprintf("TryAcquire(%d, %d)", s.now, s.n)
}

// run replays steps on b and stops at the first wrong answer, naming the
// call the way a learner would write it.
func run(t *testing.T, b *tokenbucket.TokenBucket, steps []step) {
	t.Helper()
	for i, s := range steps {
		if s.avail {
			if got := b.Available(s.now); got != s.tokens {
				t.Fatalf("step %d: %s = %d, want %d", i, s.call(), got, s.tokens)
			}
			continue
		}
		if got := b.TryAcquire(s.now, s.n); got != s.ok {
			t.Fatalf("step %d: %s = %t, want %t", i, s.call(), got, s.ok)
		}
	}
}

// fractional is the first classic trap: at 1000 tokens/s a call every
// 100 µs earns a tenth of a token, and ten of them make one token.
func fractional() []step {
	steps := []step{acquire(0, 1, true)}
	for k := uint64(1); k < 10; k++ {
		steps = append(steps, acquire(k*100_000, 1, false))
	}
	return append(steps, acquire(1_000_000, 1, true), acquire(1_000_000, 1, false))
}

const day = 86_400 * 1_000_000_000

func TestTokenBucket(t *testing.T) {
	tests := []struct {
		name                    string
		capacity, rate, startNs uint64
		steps                   []step
	}{
		{"starts full", 3, 1, 0, []step{
			available(0, 3), acquire(0, 3, true), acquire(0, 1, false), available(0, 0),
		}},
		{"fractional tokens at 1000/s every 100µs", 1, 1000, 0, fractional()},
		{"a day idle at 1e6/s", 1 << 40, 1_000_000, 0, []step{
			acquire(0, 1<<40, true),
			available(day, 86_400_000_000),
		}},
		{"a day idle at 1e6/s refills to capacity", 1_000_000, 1_000_000, 0, []step{
			acquire(0, 1_000_000, true),
			available(day, 1_000_000),
			acquire(day, 1_000_001, false),
		}},
		{"a day idle at MaxUint64/s", max64, max64, 0, []step{
			acquire(0, max64, true),
			available(0, 0),
			available(day, max64),
			acquire(max64, max64, true),
			acquire(max64, 1, false),
		}},
		{"steps back in time add nothing and rewind nothing", 10, 1000, 1_000_000, []step{
			acquire(1_000_000, 10, true),
			acquire(500_000, 1, false),  // before New's time: nothing earned
			available(2_000_000, 1),     // 1 ms at 1000/s
			acquire(1_500_000, 1, true), // earlier than 2 ms, but the token is there
			available(2_500_000, 0),     // 0.5 ms since 2 ms, not 1 ms since 1.5 ms
			available(3_000_000, 1),
			acquire(0, 1, true),
			acquire(0, 1, false),
		}},
		{"partial takes take nothing", 5, 0, 0, []step{
			acquire(0, 6, false), available(0, 5),
			acquire(0, max64, false), available(0, 5),
			acquire(0, 5, true), acquire(0, 1, false),
		}},
		{"n == 0 always succeeds", 1, 0, 0, []step{
			acquire(0, 1, true), acquire(0, 0, true), acquire(max64, 0, true),
		}},
		{"capacity 0 grants nothing but n == 0", 0, max64, 0, []step{
			available(0, 0), acquire(0, 0, true), acquire(max64, 1, false), available(max64, 0),
		}},
		{"rate 0 never refills", 2, 0, 0, []step{
			acquire(0, 2, true), acquire(max64, 1, false), available(max64, 0),
		}},
		{"the cap drops the fraction", 1, 3, 0, []step{
			acquire(0, 1, true),
			available(500_000_000, 1),      // 1.5 tokens earned, capped at 1
			acquire(500_000_000, 1, true),  // now empty, no half token left
			acquire(833_333_333, 1, false), // 999_999_999 units
			acquire(833_333_334, 1, true),  // 1_000_000_002 units
		}},
		{"waiting exactly long enough for k tokens gets k", 10, 3, 0, []step{
			acquire(0, 10, true),
			acquire(2_333_333_333, 7, false), // 6_999_999_999 units
			acquire(2_333_333_334, 7, true),  // 7_000_000_002 units
			acquire(2_333_333_334, 1, false),
		}},
		{"times near MaxUint64", 2, 1_000_000_000, max64 - 1, []step{
			acquire(max64-1, 2, true),
			acquire(max64, 1, true), // 1 ns at 1e9/s is one token
			acquire(max64, 1, false),
			acquire(0, 0, true),
			acquire(0, 1, false),
		}},
		{"the longest idle at the highest rate", max64, max64, 0, []step{
			acquire(0, max64-1, true),
			available(1, 18_446_744_074), // 1 token + (2^64-1) units, 10^9 to a token
			available(2, 36_893_488_148),
			available(max64, max64),
		}},
		{"u + elapsed*rate passes 2^128", max64, max64, 0, []step{
			acquire(0, 1, true),
			available(max64, max64), // (2^64-1)^2 + (2^64-2)*10^9 units: capped
		}},
		{"huge capacity refills in 128 bits", max64, 1_000_000_000, 0, []step{
			acquire(0, max64, true),
			available(max64, max64), // 2^64-1 tokens earned exactly
			acquire(max64, max64, true),
			available(max64, 0),
		}},
		{"huge capacity, rate 1, full after 1.8e28 ns only", max64, 1, 0, []step{
			acquire(0, max64, true),
			available(max64, 18_446_744_073), // floor((2^64-1)/1e9)
			acquire(max64, 18_446_744_073, true),
			acquire(max64, 1, false),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run(t, tokenbucket.New(tt.capacity, tt.rate, tt.startNs), tt.steps)
		})
	}
}

// model is the contract's definition, written with big integers so that it
// cannot overflow: u units, 10^9 to a token, capped at capacity*10^9.
type model struct {
	rate, latest uint64
	u, capU      *big.Int
}

var bigUnit = big.NewInt(1_000_000_000)

func newModel(capacity, rate, now uint64) *model {
	capU := new(big.Int).Mul(new(big.Int).SetUint64(capacity), bigUnit)
	return &model{rate: rate, latest: now, u: new(big.Int).Set(capU), capU: capU}
}

func (m *model) refill(now uint64) {
	if now <= m.latest {
		return
	}
	add := new(big.Int).Mul(new(big.Int).SetUint64(now-m.latest), new(big.Int).SetUint64(m.rate))
	m.u.Add(m.u, add)
	if m.u.Cmp(m.capU) > 0 {
		m.u.Set(m.capU)
	}
	m.latest = now
}

func (m *model) tryAcquire(now, n uint64) bool {
	m.refill(now)
	need := new(big.Int).Mul(new(big.Int).SetUint64(n), bigUnit)
	if need.Cmp(m.u) > 0 {
		return false
	}
	m.u.Sub(m.u, need)
	return true
}

func (m *model) available(now uint64) uint64 {
	m.refill(now)
	return new(big.Int).Quo(m.u, bigUnit).Uint64()
}

// pick returns one of the interesting values, or a random one.
func pick(r *rand.Rand, interesting ...uint64) uint64 {
	if i := r.IntN(len(interesting) + 2); i < len(interesting) {
		return interesting[i]
	}
	return r.Uint64() >> r.UintN(64)
}

// TestMatchesModel compares the bucket with the big-integer model on random
// streams that mix small steps, long idles, steps back and extreme values.
func TestMatchesModel(t *testing.T) {
	const seed = 20240601
	r := rand.New(rand.NewPCG(seed, 0))
	t.Logf("seed %d", seed)
	for stream := range 2000 {
		capacity := pick(r, 0, 1, 2, 3, 100, 1_000_000_000, 18_446_744_073, 1<<40, max64-1, max64)
		rate := pick(r, 0, 1, 3, 7, 1000, 999_999_937, 1_000_000_000, 1<<40, max64-1, max64)
		now := pick(r, 0, 1, max64-1_000_000_000, max64-1, max64)
		b, m := tokenbucket.New(capacity, rate, now), newModel(capacity, rate, now)
		var calls []string
		for range 60 {
			switch r.IntN(8) {
			case 0: // step back
				now -= min(now, pick(r, 1, 1000, 1_000_000))
			case 1: // a long idle or a jump to the end of time
				now = pick(r, max64, max64-1, now+day, now+(1<<62))
			case 2: // no time passes
			default:
				now += min(max64-now, pick(r, 1, 100_000, 333_333_333, 1_000_000_000))
			}
			if r.IntN(4) == 0 {
				calls = append(calls, fmt.Sprintf("Available(%d)", now))
				if got, want := b.Available(now), m.available(now); got != want {
					t.Fatalf("stream %d: New(%d, %d, ...) then\n%v\n= %d, want %d", stream, capacity, rate, calls, got, want)
				}
				continue
			}
			n := pick(r, 0, 1, 2, 10, capacity, capacity+1, max64)
			calls = append(calls, fmt.Sprintf("TryAcquire(%d, %d)", now, n))
			if got, want := b.TryAcquire(now, n), m.tryAcquire(now, n); got != want {
				t.Fatalf("stream %d: New(%d, %d, ...) then\n%v\n= %t, want %t", stream, capacity, rate, calls, got, want)
			}
		}
	}
}

func TestNoAllocs(t *testing.T) {
	b := tokenbucket.New(100, 1_000_000, 0)
	now := uint64(0)
	allocs := testing.AllocsPerRun(1000, func() {
		now += 700
		b.TryAcquire(now, 1)
		b.Available(now)
	})
	if allocs != 0 {
		t.Errorf("TryAcquire and Available allocate %.1f times per call, want 0", allocs)
	}
}
