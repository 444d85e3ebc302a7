// Package traffic makes the message streams that the lab sends to its
// limiters: endless sequences of arrival times in virtual nanoseconds.
//
// Every Source is deterministic: the random ones draw from a PCG generator
// seeded by the caller, so the same seed gives the same stream on every
// machine and in WebAssembly. Times never decrease, and two messages may
// share a time. Named builds the lab's scenarios (steady, bursty, random,
// edge and naive-demo) from the limit they are meant to test.
//
// The package reads no clock and does no I/O. Virtual time starts at 0 and
// is not meant to run for centuries: a stream that passed 2^64 ns would
// wrap.
package traffic
