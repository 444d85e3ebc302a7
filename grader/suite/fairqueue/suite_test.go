package fairqueue

import (
	"testing"

	"ratelab/grader/check/checktest"
)

// TestSuite checks the generators and the model (see
// checktest.Generators), grades the reference through the same encoding
// as the child for three seeds, and checks that the benchmark's loop on
// the reference decides, the same way twice.
func TestSuite(t *testing.T) {
	checktest.Generators(t, Suite(nil), domains, func(d domain) float64 { return float64(d.maxOps) / 4 }, replay, refNew)
	checktest.ReferencePasses(t, Suite, API(refNew, refNew), 3, 35)
	t.Run("BenchmarkLoopDecides", func(t *testing.T) { checktest.LoopDecides(t, func() uint64 { return loop(refNew, 5000) }) })
}
