package gcra_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"ratelab/solutions/gcra"
	"ratelab/solutions/tokenbucket"
)

const max64 = math.MaxUint64

// call is one TryAcquire(now) and the answer it should get.
type call struct {
	now  uint64
	want bool
}

func TestGCRA(t *testing.T) {
	tests := []struct {
		name                 string
		rate, burst, startNs uint64
		calls                []call
	}{
		{"starts full", 1, 3, 0, []call{
			{0, true}, {0, true}, {0, true}, {0, false},
		}},
		{"one per interval at 1000/s", 1000, 1, 0, []call{
			{0, true}, {999_999, false}, {1_000_000, true}, {1_000_000, false},
			{1_500_000, false}, {2_000_000, true},
		}},
		// 10^9/3 ns is not a whole number: a GCRA with T = 333_333_333 ns
		// would grant the second call 1/3 ns early.
		{"rate 3 does not divide a second", 3, 1, 0, []call{
			{0, true}, {333_333_333, false}, {333_333_334, true},
			// The bucket was full again at 333_333_334 ns, 2 units over:
			// burst 1 caps them, so the next interval starts from there.
			{666_666_667, false}, {666_666_668, true},
			{1_000_000_000, false}, {1_000_000_002, true},
		}},
		{"rate 7", 7, 2, 0, []call{
			{0, true}, {0, true}, {0, false},
			{142_857_142, false}, {142_857_143, true}, {142_857_143, false},
		}},
		{"rate 999_999_937: T just over 1 ns", 999_999_937, 1, 0, []call{
			{0, true}, {1, false}, {2, true}, {3, false}, {4, true},
		}},
		{"a day idle forgets the schedule", 1_000_000_000, 1_000_000, 0, []call{
			{0, true}, {86_400_000_000_000, true},
		}},
		// 2^35 ns * 2^29 per second is 2^64 ticks: in 64 bits, zero.
		{"elapsed*rate would wrap to 0", 1 << 29, 1, 0, []call{
			{0, true}, {1 << 35, true}, {1 << 35, false},
		}},
		{"steps back in time count as the latest time", 1000, 2, 5_000_000, []call{
			{5_000_000, true}, {5_000_000, true},
			{0, false},         // before New's time: nothing earned
			{6_000_000, true},  // one interval later
			{5_500_000, false}, // earlier, counts as 6 ms: nothing left
			{6_500_000, false}, // 0.5 ms after 6 ms, not 1 ms after 5.5 ms
			{7_000_000, true},
		}},
		{"times near MaxUint64", 1_000_000_000, 2, max64 - 1, []call{
			{max64 - 1, true}, {max64 - 1, true}, {max64 - 1, false},
			{max64, true}, {max64, false}, {0, false},
		}},
		{"slowest rate, largest burst, end of time", 1, 1_000_000, max64 - 2_000_000_000, []call{
			{max64, true}, {max64, true}, {0, true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := gcra.New(tt.rate, tt.burst, tt.startNs)
			for i, c := range tt.calls {
				if got := g.TryAcquire(c.now); got != c.want {
					t.Fatalf("call %d: TryAcquire(%d) = %t, want %t", i, c.now, got, c.want)
				}
			}
		})
	}
}

func TestNewPanics(t *testing.T) {
	tests := []struct {
		rate, burst uint64
		want        string // the panic names the argument
	}{
		{0, 1, "ratePerSec"},
		{1_000_000_001, 1, "ratePerSec"},
		{max64, 1, "ratePerSec"},
		{1, 0, "burst"},
		{1, 1_000_001, "burst"},
		{1, max64, "burst"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("New(%d,%d,0)", tt.rate, tt.burst), func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, tt.want) {
					t.Errorf("New(%d, %d, 0) panics with %q, want a message naming %s", tt.rate, tt.burst, msg, tt.want)
				}
			}()
			gcra.New(tt.rate, tt.burst, 0)
		})
	}
	for _, ok := range [][2]uint64{{1, 1}, {1_000_000_000, 1_000_000}} {
		gcra.New(ok[0], ok[1], max64) // must not panic
	}
}

// TestMatchesTokenBucket checks the contract's definition of GCRA: call for
// call, the same answers as tokenbucket.New(burst, ratePerSec, now) taking
// one token, on random streams with steps back and times near MaxUint64.
func TestMatchesTokenBucket(t *testing.T) {
	const seed = 7
	r := rand.New(rand.NewPCG(seed, 0))
	t.Logf("seed %d", seed)
	rates := []uint64{1, 2, 3, 7, 1000, 999_999_937, 999_999_999, 1_000_000_000}
	bursts := []uint64{1, 2, 3, 10, 1_000_000}
	for stream := range 3000 {
		rate := rates[r.IntN(len(rates))]
		if r.IntN(3) == 0 {
			rate = 1 + r.Uint64N(1_000_000_000)
		}
		burst := bursts[r.IntN(len(bursts))]
		if r.IntN(3) == 0 {
			burst = 1 + r.Uint64N(1_000_000)
		}
		interval := 1_000_000_000/rate + 1 // ns, rounded up
		now := []uint64{0, 1 << 40, max64 - 1000*interval, max64 - interval, max64}[r.IntN(5)]
		g, tb := gcra.New(rate, burst, now), tokenbucket.New(burst, rate, now)
		var calls []uint64
		for range 80 {
			switch r.IntN(10) {
			case 0: // step back
				now -= min(now, r.Uint64N(3*interval))
			case 1: // long idle
				now += min(max64-now, r.Uint64N(burst*interval*2))
			case 2: // a jump, often long enough to overflow elapsed*rate
				now += min(max64-now, r.Uint64()>>r.UintN(64))
			case 3: // same instant
			default: // around one interval, a little early or late
				now += min(max64-now, interval-1+r.Uint64N(3)-r.Uint64N(min(interval, 3)))
			}
			calls = append(calls, now)
			if got, want := g.TryAcquire(now), tb.TryAcquire(now, 1); got != want {
				t.Fatalf("stream %d: New(%d, %d, ...) then TryAcquire at %v:\nlast TryAcquire(%d) = %t, want %t (token bucket)",
					stream, rate, burst, calls, now, got, want)
			}
		}
	}
}

func TestNoAllocs(t *testing.T) {
	g := gcra.New(1_000_000, 100, 0)
	now := uint64(0)
	if allocs := testing.AllocsPerRun(1000, func() { now += 700; g.TryAcquire(now) }); allocs != 0 {
		t.Errorf("TryAcquire allocates %.1f times per call, want 0", allocs)
	}
}
