package sim_test

import (
	"fmt"

	"ratelab/lab/limiters"
	"ratelab/lab/sim"
)

// The edge attack on 100 messages per second: 100 in the 50 ms before 1 s,
// 100 in the 50 ms after.
func Example() {
	cfg := sim.Config{Limit: 100, WindowNs: 1_000_000_000, Buckets: 10, Traffic: "edge"}
	s, err := sim.New(cfg, limiters.Reference)
	if err != nil {
		fmt.Println(err)
		return
	}
	for s.Now() < 1_100_000_000 {
		s.Step(256, 1_100_000_000) // one animation frame's batch
	}
	var st sim.State
	s.State(&st)
	for id, l := range st.Lanes {
		fmt.Printf("%-14s accepted %3d, at most %3d in any 1 s\n", sim.Lane(id).Name(), l.Accepted, l.MaxInWindow)
	}
	// Output:
	// Fixed window   accepted 200, at most 200 in any 1 s
	// Sliding window accepted 100, at most 100 in any 1 s
	// Token bucket   accepted 109, at most 109 in any 1 s
	// Sliding log    accepted 100, at most 100 in any 1 s
	// GCRA           accepted 109, at most 109 in any 1 s
}

func ExampleSim_Step() {
	cfg := sim.Config{Limit: 2, WindowNs: 1_000_000_000, Buckets: 2, Traffic: "steady"} // every 400 ms
	s, _ := sim.New(cfg, limiters.Reference)
	b := s.Step(100, 1_000_000_000)
	for i, t := range b.Times {
		fmt.Printf("%4d ms  fixed %v  token bucket %v\n", t/1_000_000,
			b.Accept[i]&(1<<sim.Fixed) != 0, b.Accept[i]&(1<<sim.TokenBucket) != 0)
	}
	// Output:
	//    0 ms  fixed true  token bucket true
	//  400 ms  fixed true  token bucket true
	//  800 ms  fixed false  token bucket true
}

func ExamplePeak() {
	p := sim.NewPeak(10)
	for _, t := range []uint64{0, 3, 9, 10, 11, 25} {
		p.Add(t)
	}
	fmt.Println(p.Max(), "events in [", p.MaxAt(), ",", p.MaxAt()+10, ")")
	// Output: 4 events in [ 3 , 13 )
}

// The naive refill demo: a call every 100 µs against 1,000 tokens per
// second, with a burst of 10.
func ExampleState_lost() {
	cfg := sim.Config{Limit: 1000, WindowNs: 1_000_000_000, Buckets: 1, Burst: 10, Refill: sim.Naive, Traffic: "naive-demo"}
	s, _ := sim.New(cfg, limiters.Reference)
	for s.Now() < 999_999_999 {
		s.Step(sim.MaxBatch, 999_999_999)
	}
	var st sim.State
	s.State(&st)
	fmt.Println("naive token bucket:", st.Lanes[sim.TokenBucket].Accepted, "accepted, lost", st.Lost, "tokens")
	fmt.Println("GCRA (exact):", st.Lanes[sim.GCRA].Accepted, "accepted")
	// Output:
	// naive token bucket: 10 accepted, lost 999.9 tokens
	// GCRA (exact): 1009 accepted
}
