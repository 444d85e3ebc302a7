package gradient2_test

import (
	"fmt"

	"ratelab/lab/adaptive"
	"ratelab/lab/gradient2"
)

// The lab's run, one line per 5 s. At half load the limit grows only while
// samples are not app-limited. At 1.3 times the server's throughput the
// queue shows in the short RTT and the limit turns requests away; but as
// the queue lasts, the long RTT follows it up and the limit opens again.
// When the load drops, the long RTT decays back to the service time. At
// twice the throughput the limit falls to its minimum.
func Example() {
	r, err := gradient2.New(gradient2.DefaultConfig(), adaptive.Reference)
	if err != nil {
		fmt.Println(err)
		return
	}
	for s := uint64(5); s <= 40; s += 5 {
		var rejected uint64
		bins := r.Step(s*1_000_000_000, gradient2.MaxBins)
		for _, b := range bins {
			rejected += b.Rejected
		}
		last := bins[len(bins)-1]
		fmt.Printf("%2d s  load %.1f  limit %3d  long RTT %4.0f ms  rejected %4d\n", s, last.Load, last.Limit, last.LongRTT/1e6, rejected)
	}
	// Output:
	//  5 s  load 0.5  limit  41  long RTT   96 ms  rejected    0
	// 10 s  load 0.5  limit  42  long RTT  100 ms  rejected    0
	// 15 s  load 1.3  limit  66  long RTT  234 ms  rejected  235
	// 20 s  load 1.3  limit 200  long RTT  660 ms  rejected   97
	// 25 s  load 0.5  limit 200  long RTT   98 ms  rejected    0
	// 30 s  load 0.5  limit 200  long RTT   99 ms  rejected    0
	// 35 s  load 2.0  limit  23  long RTT  230 ms  rejected  978
	// 40 s  load 2.0  limit  20  long RTT  138 ms  rejected  921
}
