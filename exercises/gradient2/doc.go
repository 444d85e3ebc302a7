// Package gradient2 is the second exercise of week 4: build a gradient
// concurrency limit, after Netflix concurrency-limits' Gradient2Limit, that
// shrinks when latency says requests are queueing and grows while it does
// not.
//
// Update and Limit panic with "not implemented" until you write them, and
// so does New. DefaultConfig is already written: it is data from the course
// contract, not a rule to work out, and your own tests can start from it.
// Replace the panics, add the fields you need, split the code into as many
// files as you like: only the exported API is graded.
//
// # What to build
//
// Each Update is one sample: a request's round-trip time (RTT) in
// nanoseconds, and how many requests were in flight. The limit keeps two
// RTTs: the short one is the sample itself; the long one is a slow
// average. Their ratio, the gradient, says whether a queue is building,
// and the limit follows it.
//
// # The exact rules
//
// New(cfg) starts the limit, est, at cfg.InitialLimit. One sample,
// Update(rttNs, inflight), does, in this order:
//
//  1. queue = QueueSize(int(est)), or 4 if QueueSize is nil.
//  2. short = rttNs.
//  3. long = the long RTT after adding this sample. For the first 10
//     samples it is the plain mean of the samples so far; from the 11th on
//     it is an exponential average: long = long*(1-f) + short*f with
//     f = 2/(LongWindow+1).
//  4. If long/short > 2, the stored long RTT is multiplied by 0.95, for
//     the samples to come; this sample keeps using the undecayed long.
//  5. If inflight < est/2, the sample is app-limited: est does not change.
//  6. Otherwise gradient = max(0.5, min(1, RTTTolerance*long/short)),
//     n = est*gradient + queue, n = est*(1-Smoothing) + n*Smoothing, and
//     est = n clamped into [MinLimit, MaxLimit].
//  7. Return int(est), which is also what Limit() returns.
//
// The grader checks your limit against this model with random and
// targeted streams of samples; it compares limits allowing a relative error
// of 1e-9 in est (so int(est) may round either way right at an integer).
// It never sends rttNs == 0, and only uses configurations with
// MinLimit <= InitialLimit <= MaxLimit, 0 <= Smoothing <= 1,
// RTTTolerance >= 1 and LongWindow >= 1; what you do with others is up to
// you (the reference ignores a 0 ns sample and panics on such a Config,
// naming the field).
//
// # Traps
//
//   - The warm-up. An exponential average has to start from something.
//     Starting it at 0, or at the first sample, gives a long RTT that is
//     wrong for many samples. How many samples are plain-averaged, and what
//     is the 10th value?
//   - The factor. 2/(LongWindow+1), in floating point: what is 2/(600+1)
//     in integer arithmetic?
//   - The decay. It is applied to the stored long RTT, after this sample
//     used it. During the warm-up the next value is the mean of the samples
//     again, so a decay there does not last; from the 10th sample on, it
//     does.
//   - App-limited samples. They leave the limit alone, but they are still
//     RTT samples: what must happen to the long RTT before you return?
//     And is inflight == est/2 app-limited?
//   - The clamps. The gradient stays in [0.5, 1] whatever the tolerance;
//     the limit stays in [MinLimit, MaxLimit]. Where does RTTTolerance go?
//   - Smoothing. Which of the two limits gets the weight Smoothing? Where
//     is the queue added?
//   - Truncation. Keep est as a float64 between samples: only the returned
//     value is rounded down.
//
// # Grading
//
// From the repository root, run
//
//	make grade
//
// or, for this exercise only,
//
//	go run ./cmd/labserver grade --exercise gradient2
//
// Each failed check names the mistake it found (only when the grader's
// model of that mistake gives every answer yours gave) and the shortest
// sequence of calls that shows it; one mistake costs its own points once.
package gradient2
