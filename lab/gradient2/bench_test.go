package gradient2_test

import (
	"testing"

	"ratelab/lab/adaptive"
	"ratelab/lab/gradient2"
)

// BenchmarkStep measures the Gradient2 run a second of virtual time at a
// time (20 bins, about 200 samples at full load), as the browser drives
// it at 1×.
func BenchmarkStep(b *testing.B) {
	r, err := gradient2.New(gradient2.DefaultConfig(), adaptive.Reference)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r.Step(r.Now()+1_000_000_000, gradient2.MaxBins)
	}
}
