// Package limiters holds the limiters that the lab runs side by side and the
// adapters that let it run the week 1 and week 2 exercise packages.
//
// The lab's own limiters are the ones no exercise asks for: FixedWindow (one
// counter per calendar window), SlidingLog (the last N accepted times) and
// NaiveBucket (a token bucket with the classic integer refill bug, which
// reports the credit the bug throws away). Each one takes a single message
// per call and never reads a clock: time is an argument in nanoseconds.
//
// The exercise types, the token bucket, the GCRA and the bucketed sliding
// window, come from an Impl: Reference builds them from the solutions
// packages, and a caller such as the WebAssembly shell may build another Impl
// from the learner's exercises packages. This package never imports
// exercises, so a learner's build error cannot break the lab.
//
// Nothing here is safe for concurrent use, and nothing here is meant for
// production: the limiters are written to be read and shown, not tuned.
package limiters
