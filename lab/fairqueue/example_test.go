package fairqueue_test

import (
	"fmt"

	"ratelab/lab/fairqueue"
)

// The lab's run for 60 s: six bursts of the burster A. The FIFO lets A
// take most of the engine while a burst lasts and makes everyone wait
// behind it; round robin and DRR keep the light sessions C to F at a few
// milliseconds, sequencing thousands of commands out of arrival order to
// do it. Round robin counts commands, so B's cost-5 commands go through
// as fast as A's cost-1 ones and the gap between two backlogged sessions
// grows far past DRR's bound; DRR keeps it below 2 × quantum + the
// largest cost.
func Example() {
	r, err := fairqueue.New(fairqueue.DefaultConfig(), fairqueue.Reference)
	if err != nil {
		fmt.Println(err)
		return
	}
	for r.Now() < 60e9 {
		r.Step(60e9, fairqueue.MaxBins)
	}
	fmt.Printf("bound 2×quantum + largest cost = %d\n", r.Bound())
	for l := range fairqueue.Lane(fairqueue.NumLanes) {
		st := r.Lane(l)
		fmt.Printf("%-4s out of order %5d  worst gap %4d\n", l, st.OutOfOrder, st.WorstGap)
		for _, s := range []int{0, 1, 2} {
			ss := st.Sessions[s]
			fmt.Printf("  %s peak share %3.0f%%  p50 %7.1f ms  p99 %7.1f ms\n", fairqueue.SessionName(s), 100*ss.Peak, ss.P50/1e6, ss.P99/1e6)
		}
	}
	// Output:
	// bound 2×quantum + largest cost = 15
	// fifo out of order     0  worst gap 1847
	//   A peak share  74%  p50   537.0 ms  p99  1122.0 ms
	//   B peak share  73%  p50     7.8 ms  p99  1122.0 ms
	//   C peak share  10%  p50     9.3 ms  p99  1122.0 ms
	// rr   out of order 10888  worst gap  165
	//   A peak share  46%  p50  1548.8 ms  p99  3235.9 ms
	//   B peak share  59%  p50     3.0 ms  p99    35.5 ms
	//   C peak share   8%  p50     3.2 ms  p99    20.4 ms
	// drr  out of order 12650  worst gap    5
	//   A peak share  47%  p50  1288.2 ms  p99  2570.4 ms
	//   B peak share  70%  p50     8.9 ms  p99   588.8 ms
	//   C peak share   8%  p50     4.3 ms  p99    14.1 ms
}
