// Package sim runs one stream of messages against the lab's limiters side
// by side, in virtual time, and measures what each one let through.
//
// A Sim owns a traffic.Source and one lane per limiter: the fixed window,
// the bucketed sliding window, the token bucket, the sliding log and the
// GCRA, all configured for the same long-run limit of N messages per window
// W. The browser advances it once per animation frame with Step, which
// decides a whole batch of messages and returns the decisions as two flat
// slices (Batch.Encode turns them into one byte slice to copy to
// JavaScript in one call), and reads the lanes' state and measures with
// State. Nothing here reads a clock or does I/O: the same Config, seed and
// Impl give the same decisions however the run is cut into batches.
//
// The key measure is the peak: for accepted times t1 <= t2 <= ..., the
// largest number of them in any half-open interval [a, a+W), which is the
// largest j-i+1 with tj - ti < W. A limiter that keeps "at most N in any
// window of length W" has a peak of at most N. Peak computes it
// incrementally, in O(1) amortised per accepted message.
//
// Lanes running an Impl other than limiters.Reference may panic; Sim
// catches the panic, stops that lane and keeps its message. It cannot stop a
// lane that never returns.
package sim
