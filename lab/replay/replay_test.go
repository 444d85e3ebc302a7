package replay

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"ratelab/grader/report"
	"ratelab/lab/limiters"
	"ratelab/solutions/gcra"
	"ratelab/solutions/slidingwindow"
	"ratelab/solutions/tokenbucket"
)

// times draws n call times: mostly forward by small or large steps, now
// and then back, now and then near MaxUint64.
func randomTimes(r *rand.Rand, start uint64, n int) []uint64 {
	out := make([]uint64, n)
	t := start
	for i := range out {
		switch r.IntN(10) {
		case 0:
			t -= min(t, r.Uint64N(5_000_000))
		case 1:
			t += r.Uint64N(10_000_000_000)
		case 2:
			if r.IntN(4) == 0 {
				t = math.MaxUint64 - r.Uint64N(3)
			}
		default:
			if d := r.Uint64N(3_000_000); t+d >= t {
				t += d
			}
		}
		out[i] = t
	}
	return out
}

func rates(r *rand.Rand) uint64 {
	switch r.IntN(4) {
	case 0:
		return []uint64{1, 3, 7, 1000, 999_001, 1_000_000_000}[r.IntN(6)]
	case 1:
		return 1 + r.Uint64N(1_000_000_000)
	}
	return 1 + r.Uint64N(5000)
}

// The token bucket model answers like the reference, call for call, and
// what it shows agrees with the reference's Available.
func TestBucketModelAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for run := 0; run < 2000; run++ {
		capacity := []uint64{0, 1, 5, 64, 1 << 40, math.MaxUint64}[r.IntN(6)]
		rate := rates(r)
		if r.IntN(10) == 0 {
			rate = []uint64{0, math.MaxUint64}[r.IntN(2)]
		}
		start := r.Uint64N(1_000_000)
		ref := tokenbucket.New(capacity, rate, start)
		m := NewBucketModel(capacity, rate, start)
		for i, now := range randomTimes(r, start, 30) {
			if r.IntN(3) == 0 {
				if got, want := m.Available(now), ref.Available(now); got != want {
					t.Fatalf("run %d step %d: model Available(%d) = %d, reference %d", run, i, now, got, want)
				}
				continue
			}
			n := r.Uint64N(4)
			if r.IntN(20) == 0 {
				n = math.MaxUint64
			}
			if got, want := m.TryAcquire(now, n), ref.TryAcquire(now, n); got != want {
				t.Fatalf("run %d step %d: model TryAcquire(%d, %d) = %v, reference %v", run, i, now, n, got, want)
			}
		}
	}
}

func TestGCRAModelAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for run := 0; run < 2000; run++ {
		rate := rates(r)
		burst := []uint64{1, 2, 5, 100, 1_000_000}[r.IntN(5)]
		start := r.Uint64N(1_000_000)
		ref := gcra.New(rate, burst, start)
		m := NewGCRAModel(rate, burst, start)
		for i, now := range randomTimes(r, start, 40) {
			if got, want := m.TryAcquire(now), ref.TryAcquire(now); got != want {
				t.Fatalf("run %d step %d: rate %d burst %d: model TryAcquire(%d) = %v, reference %v", run, i, rate, burst, now, got, want)
			}
		}
	}
}

func TestWindowModelAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for run := 0; run < 2000; run++ {
		limit := []uint32{0, 1, 3, 10, math.MaxUint32}[r.IntN(5)]
		buckets := []int{1, 2, 3, 10, 100}[r.IntN(5)]
		windowNs := uint64(buckets) * []uint64{1, 7, 1000, 1_000_000}[r.IntN(4)]
		windowNs += r.Uint64N(uint64(buckets))
		ref := slidingwindow.New(limit, windowNs, buckets)
		m := NewWindowModel(limit, windowNs, buckets)
		for i, now := range randomTimes(r, 0, 40) {
			if r.IntN(3) == 0 {
				if got, want := m.Count(now), ref.Count(now); got != want {
					t.Fatalf("run %d step %d: model Count(%d) = %d, reference %d", run, i, now, got, want)
				}
				continue
			}
			if got, want := m.TryAcquire(now), ref.TryAcquire(now); got != want {
				t.Fatalf("run %d step %d: model TryAcquire(%d) = %v, reference %v", run, i, now, got, want)
			}
		}
	}
}

// truncating is the classic first try: whole tokens only, the fraction of
// each refill dropped (grader/testdata/fixtures/tokenbucket/truncating-refill).
type truncating struct{ tokens, capacity, rate, last uint64 }

func (b *truncating) refill(now uint64) {
	if now <= b.last {
		return
	}
	hi, lo := bits.Mul64(now-b.last, b.rate)
	q, _ := bits.Div64(hi%1_000_000_000, lo, 1_000_000_000)
	b.tokens = min(b.capacity, b.tokens+q)
	b.last = now
}
func (b *truncating) TryAcquire(now, n uint64) bool {
	b.refill(now)
	if n > b.tokens {
		return false
	}
	b.tokens -= n
	return true
}
func (b *truncating) Available(now uint64) uint64 { b.refill(now); return b.tokens }

func call(name string, args ...string) report.Call {
	c := report.Call{Name: name, Args: map[string]any{}}
	for i := 0; i+1 < len(args); i += 2 {
		c.Args[args[i]] = args[i+1]
	}
	return c
}

func step(text string, c report.Call) report.Step {
	return report.Step{Call: text, Name: c.Name, Args: c.Args}
}

func fractional() report.Counterexample {
	setup := call("New", "capacity", "1", "ratePerSec", "1000", "nowNs", "0")
	return report.Counterexample{
		Setup: "New(capacity=1, ratePerSec=1000, nowNs=0)", SetupCall: &setup,
		Steps: []report.Step{
			step("TryAcquire(nowNs=0, n=1)", call("TryAcquire", "nowNs", "0", "n", "1")),
			step("Available(nowNs=600000)", call("Available", "nowNs", "600000")),
			step("Available(nowNs=1200000)", call("Available", "nowNs", "1200000")),
		},
	}
}

func TestRunFindsTheDifferingStep(t *testing.T) {
	yours := Impls{Limiters: limiters.Impl{Name: "Yours", NewBucket: func(c, r, n uint64) limiters.Bucket {
		return &truncating{tokens: c, capacity: c, rate: r, last: n}
	}}}
	res := Run("tokenbucket", fractional(), yours)
	if res.Error != "" || res.Yours != "" {
		t.Fatalf("Run: error %q, yours %q", res.Error, res.Yours)
	}
	var got []string
	for _, s := range res.Steps {
		got = append(got, s.Got+"/"+s.Want+"/"+strconv.FormatBool(s.Differs))
	}
	if strings.Join(got, " ") != "true/true/false 0/0/false 0/1/true" || res.First != 2 {
		t.Errorf("steps = %q, first %d; want the third to differ", got, res.First)
	}
	if s := res.Start[0].Text; s != "1 of 1 tokens (1,000,000,000 units)" {
		t.Errorf("start held = %q", s)
	}
	if s := res.Steps[1].State[0]; s.Text != "0.6 of 1 tokens (600,000,000 units)" || math.Abs(s.Value-0.6) > 1e-12 {
		t.Errorf("held after step 2 = %+v", s)
	}
	if s := res.Steps[2].State[1].Text; s != "t = 1,200,000 ns" {
		t.Errorf("latest after step 3 = %q", s)
	}
}

func TestRunReportsAStubAndMissingCode(t *testing.T) {
	stub := Impls{Limiters: limiters.Impl{NewBucket: func(c, r, n uint64) limiters.Bucket {
		panic("tokenbucket: New is not implemented yet")
	}}}
	res := Run("tokenbucket", fractional(), stub)
	if res.Yours != "not implemented yet" || res.YoursStep != -1 || res.First != -1 || len(res.Steps) != 3 || res.Steps[0].Got != "" {
		t.Errorf("stub: %+v", res)
	}
	res = Run("tokenbucket", fractional(), Impls{Limiters: limiters.Impl{Missing: "your code does not build"}})
	if res.Yours != "your code does not build" || len(res.Steps) != 3 || res.Steps[2].Want != "1" {
		t.Errorf("missing: %+v", res)
	}
}

func TestRunNeedsTheCallsAsData(t *testing.T) {
	cx := fractional()
	cx.SetupCall = nil
	if Replayable("tokenbucket", &cx) {
		t.Error("replayable without setup_call")
	}
	if res := Run("tokenbucket", cx, Reference); res.Error == "" || len(res.Steps) != 0 {
		t.Errorf("Run without setup_call: %+v", res)
	}
	if res := Run("nosuch", fractional(), Reference); res.Error == "" {
		t.Error("Run of an unknown exercise: no error")
	}
	bad := fractional()
	bad.Steps[1] = step("Leak(nowNs=1)", call("Leak", "nowNs", "1"))
	if res := Run("tokenbucket", bad, Reference); !strings.Contains(res.Error, "Leak") {
		t.Errorf("unknown call: error %q", res.Error)
	}
}

func TestGCRAAndWindowState(t *testing.T) {
	setup := call("New", "ratePerSec", "1000", "burst", "2", "nowNs", "0")
	cx := report.Counterexample{SetupCall: &setup, Steps: []report.Step{
		step("TryAcquire(nowNs=0)", call("TryAcquire", "nowNs", "0")),
		step("TryAcquire(nowNs=500000)", call("TryAcquire", "nowNs", "500000")),
		step("TryAcquire(nowNs=600000)", call("TryAcquire", "nowNs", "600000")),
	}}
	res := Run("gcra", cx, Reference)
	if res.Error != "" || res.First != -1 {
		t.Fatalf("gcra: %+v", res)
	}
	var wants []string
	for _, s := range res.Steps {
		wants = append(wants, s.Want)
	}
	if strings.Join(wants, " ") != "true true false" {
		t.Errorf("gcra wants = %q", wants)
	}
	if s := res.Steps[1].State[0].Text; s != "1,500,000 ns of τ = (b − 1)·T = 1,000,000 ns (T = 1,000,000 ns)" {
		t.Errorf("gcra TAT − now after step 2 = %q", s)
	}
	// 1.5 ms ahead of a 1 ms tolerance: full, a call at 0.5 ms is refused.
	if v := res.Steps[1].State[0].Value; v != 1 {
		t.Errorf("gcra TAT − now's bar after step 2 = %v, want 1 (past τ)", v)
	}
	// Burst 1: τ = 0, and any lead at all refuses.
	setup1 := call("New", "ratePerSec", "1000", "burst", "1", "nowNs", "0")
	res = Run("gcra", report.Counterexample{SetupCall: &setup1, Steps: []report.Step{step("TryAcquire(nowNs=0)", call("TryAcquire", "nowNs", "0"))}}, Reference)
	if f := res.Steps[0].State[0]; f.Text != "1,000,000 ns of τ = (b − 1)·T = 0 ns (T = 1,000,000 ns)" || f.Value != 1 {
		t.Errorf("gcra, burst 1, after a grant: TAT − now %q, bar %v; want τ = 0 and a full bar", f.Text, f.Value)
	}

	wsetup := call("New", "limit", "2", "windowNs", "30", "buckets", "3")
	wcx := report.Counterexample{SetupCall: &wsetup, Steps: []report.Step{
		step("TryAcquire(nowNs=0)", call("TryAcquire", "nowNs", "0")),
		step("TryAcquire(nowNs=10)", call("TryAcquire", "nowNs", "10")),
		step("TryAcquire(nowNs=25)", call("TryAcquire", "nowNs", "25")),
		step("Count(nowNs=31)", call("Count", "nowNs", "31")),
	}}
	res = Run("slidingwindow", wcx, Reference)
	if res.Error != "" {
		t.Fatalf("slidingwindow: %s", res.Error)
	}
	if b := res.Steps[2].State[1].Bars; len(b) != 3 || b[0] != 1 || b[1] != 1 || b[2] != 0 {
		t.Errorf("bars after step 3 = %v, want [1 1 0]", b)
	}
	if b := res.Steps[3].State[1].Bars; b[0] != 1 || b[1] != 0 || b[2] != 0 || res.Steps[3].Want != "1" {
		t.Errorf("bars after step 4 = %v (want [1 0 0]), count %s", b, res.Steps[3].Want)
	}
}
