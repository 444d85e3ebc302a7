package retry_test

import (
	"fmt"

	"ratelab/lab/retry"
)

// A third of every round's attempts fail. Three tries hide it from the
// request plane: the dashboard reads above 96% ok while the target refuses
// one attempt in three.
func Example() {
	c := retry.New(3, 1)
	for range 100 {
		c.Round(300, 100)
	}
	n := c.Counters()
	fmt.Printf("attempt failure %.0f%%, %.0f%% of attempts are retries\n", 100*n.AttemptFailure(), 100*float64(n.Retries)/float64(n.Attempts))
	fmt.Printf("requests ok %.1f%%\n", 100*n.OK())
	// Output:
	// attempt failure 33%, 30% of attempts are retries
	// requests ok 96.2%
}

func ExampleCounters_Sub() {
	c := retry.New(2, 1)
	c.Round(10, 10) // every first try fails
	before := c.Counters()
	c.Round(10, 0) // the ten retries take the round, and succeed
	w := c.Counters().Sub(before)
	fmt.Println(w.Attempts, "attempts,", w.Retries, "retries,", w.RequestsOK, "requests ok")
	// Output: 10 attempts, 10 retries, 10 requests ok
}
