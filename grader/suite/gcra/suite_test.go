package gcra

import (
	"testing"

	"ratelab/grader/check/checktest"
)

// TestSuite runs the tests every suite gets (see checktest.Run).
func TestSuite(t *testing.T) {
	checktest.Run(t, Checks, func(d domain) float64 { return float64(d.maxOps) / 3 }, replay)
}
