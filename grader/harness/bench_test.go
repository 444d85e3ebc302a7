package harness

import (
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/wire"
)

// record is a heap object a loop allocates (32 bytes: not a tiny
// allocation).
type record struct{ a, b, c, d uint64 }

var sink *record

// allocLoop is a benchmark loop whose run allocates one record every
// every-th iteration (never if every is 0), after a setup that allocates
// 10,000 records and a first 5,000 iterations that allocate one each, as
// a structure growing to its working set would.
func allocLoop(every int) func(uint64) func(int) uint64 {
	return func(seed uint64) func(int) uint64 {
		keep := make([]*record, 0, 16)
		for i := range 10_000 {
			keep = append(keep[:0], &record{a: uint64(i)})
		}
		i := 0
		return func(n int) uint64 {
			d := seed
			for range n {
				i++
				if i <= 5000 || every > 0 && i%every == 0 {
					sink = &record{a: uint64(i)}
				}
				d += uint64(i)
			}
			return d + uint64(len(keep))
		}
	}
}

// TestBenchCountsTheMeasuredIterationsAlone: the allocations a run reports
// are those of its measured iterations, not of its setup or warm-up, each
// one counted.
func TestBenchCountsTheMeasuredIterationsAlone(t *testing.T) {
	r := Local(API{Bench: map[string]func(uint64) func(int) uint64{
		"none": allocLoop(0), "every": allocLoop(1), "half": allocLoop(2), "thousandth": allocLoop(1000),
	}})
	const n = 100_000
	for _, c := range []struct {
		loop string
		want uint64
	}{{"none", 0}, {"every", n}, {"half", n / 2}, {"thousandth", n / 1000}} {
		run := r.Bench(check.BenchSpec{Loop: c.loop, Seed: 1, Warm: 5000, N: n})
		// Another goroutine of the test binary may allocate meanwhile, a
		// few times.
		if run.Panic != nil || run.Allocs < c.want || run.Allocs > c.want+20 {
			t.Errorf("%s: %d allocations in %d iterations (%+v), want %d", c.loop, run.Allocs, n, run, c.want)
		}
	}
}

// TestBenchRunsOnlyWhatWasPrepared: a Bench request runs the run its
// Prepare built, once; a panic in the setup is the run's panic.
func TestBenchRunsOnlyWhatWasPrepared(t *testing.T) {
	s := newServer(API{Bench: map[string]func(uint64) func(int) uint64{
		"count":  func(seed uint64) func(int) uint64 { return func(n int) uint64 { return seed + uint64(n) } },
		"broken": func(uint64) func(int) uint64 { panic("no state") },
	}})
	if resp := s.serve(wire.Request{Prepare: "count", Seed: "40", N: "0"}); resp.Err != "" || resp.Panic != nil {
		t.Fatalf("Prepare: %+v", resp)
	}
	if resp := s.serve(wire.Request{Bench: "other", N: "2"}); resp.Err == "" {
		t.Errorf("Bench of a loop not prepared answered %+v; want an error", resp)
	}
	s.serve(wire.Request{Prepare: "count", Seed: "40", N: "0"})
	if resp := s.serve(wire.Request{Bench: "count", N: "2"}); resp.Digest != "42" {
		t.Errorf("Bench(count, 2) after Prepare(seed 40) = %+v, want digest 42", resp)
	}
	if resp := s.serve(wire.Request{Bench: "count", N: "2"}); resp.Err == "" {
		t.Errorf("a second Bench without Prepare answered %+v; want an error", resp)
	}
	if resp := s.serve(wire.Request{Prepare: "broken", Seed: "1", N: "0"}); resp.Panic == nil || *resp.Panic != "no state" {
		t.Errorf("Prepare of a loop whose setup panics answered %+v; want the panic", resp)
	}
}
