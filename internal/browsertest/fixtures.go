package browsertest

import "ratelab/grader/report"

// SampleReport returns a grade report of exercises/ as the grader would
// write it for a learner part-way through week 1: tokenbucket failed (a
// fractional-tokens counterexample and a benchmark over budget), gcra
// passed, slidingwindow absent (never graded).
func SampleReport() *report.Report {
	f := func(v float64) *float64 { return &v }
	r := &report.Report{
		Schema: report.Schema,
		Target: "exercises",
		Seed:   1,
		Exercises: []report.Exercise{
			{
				ID: "tokenbucket", Week: 1, Title: "Token bucket",
				Status: report.Failed, Score: 20, MaxScore: 35,
				Checks: []report.Check{
					{
						ID: "tokenbucket/capacity", Title: "Starts full and never holds more than its capacity",
						Kind: report.Property, Pitfall: "capacity", Status: report.Passed, Score: 5, MaxScore: 5,
					},
					{
						ID: "tokenbucket/fractional-tokens", Title: "Keeps fractional tokens between calls",
						Kind: report.Property, Pitfall: "fractional-tokens", Status: report.Failed, Score: 0, MaxScore: 5,
						Message: "A client calling every 600 µs at 1,000 tokens per second never got its token back: the fraction earned by each call was dropped.",
						Hint:    "Keep the bucket's contents in units of a billionth of a token, or move the last-refill time forward only by the time you converted into whole tokens.",
						Counterexample: &report.Counterexample{
							Setup: "New(capacity=1, ratePerSec=1000, nowNs=0)",
							Steps: []report.Step{
								{Call: "TryAcquire(nowNs=0, n=1)", Got: "true", Want: "true"},
								{Call: "Available(nowNs=600000)", Got: "0", Want: "0"},
								{Call: "Available(nowNs=1200000)", Got: "0", Want: "1"},
							},
						},
					},
					{
						ID: "tokenbucket/backward-time", Title: "A step back in time adds and rewinds nothing",
						Kind: report.Case, Pitfall: "backward-time", Status: report.Passed, Score: 5, MaxScore: 5,
					},
					{
						ID: "tokenbucket/partial-take", Title: "Takes all n tokens or none",
						Kind: report.Property, Pitfall: "partial-take", Status: report.Passed, Score: 5, MaxScore: 5,
					},
					{
						ID: "tokenbucket/overflow", Title: "No overflow after a long idle or with huge arguments",
						Kind: report.Property, Pitfall: "overflow", Status: report.Passed, Score: 5, MaxScore: 5,
					},
					{
						ID: "tokenbucket/exactness", Title: "Agrees with the model on every call",
						Kind: report.Property, Pitfall: "exactness", Status: report.Error, Score: 0, MaxScore: 5,
						Message: "panic: runtime error: integer divide by zero (TryAcquire with ratePerSec=0)",
						Hint:    "Every uint64 value of every argument is legal, zero included.",
					},
					{
						ID: "tokenbucket/budget", Title: "TryAcquire within 40 ns, without allocating",
						Kind: report.Benchmark, Pitfall: "budget", Status: report.Failed, Score: 0, MaxScore: 5,
						Message: "52.3 ns per call is over the 40 ns budget.",
						Hint:    "Look for a division or a loop on the hot path.",
						NsPerOp: f(52.3), AllocsPerOp: f(0), BudgetNs: f(40), RefNsPerOp: f(11.8),
					},
				},
			},
			{
				ID: "gcra", Week: 1, Title: "GCRA",
				Status: report.Passed, Score: 30, MaxScore: 30,
				Checks: []report.Check{
					{ID: "gcra/exactness", Title: "Decides like the token bucket, call for call", Kind: report.Property, Pitfall: "exactness", Status: report.Passed, Score: 20, MaxScore: 20},
					{ID: "gcra/budget", Title: "TryAcquire within 40 ns, without allocating", Kind: report.Benchmark, Pitfall: "budget", Status: report.Passed, Score: 10, MaxScore: 10,
						NsPerOp: f(8.1), AllocsPerOp: f(0), BudgetNs: f(40), RefNsPerOp: f(7.9)},
				},
			},
		},
	}
	r.Total()
	return r
}
