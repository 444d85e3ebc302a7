package governor_test

import (
	"testing"

	"ratelab/lab/adaptive"
	"ratelab/lab/governor"
	"ratelab/lab/target"
)

// BenchmarkStep measures the drain loop as the browser drives it: each
// operation is one window (ten rounds of the offer's attempts, the retry
// bookkeeping and one Observe), against each target.
func BenchmarkStep(b *testing.B) {
	for _, name := range target.Names {
		b.Run(name, func(b *testing.B) {
			r, err := governor.New(governor.DefaultConfig(name), adaptive.Reference)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				r.Step(1)
			}
		})
	}
}
