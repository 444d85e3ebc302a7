// Package target models the systems the week 4 lab puts under load: a
// target that serves a number of concurrent attempts and fails the rest
// (Target), and a server whose latency grows as work queues up (Queue).
//
// A Target's capacity is a number of concurrent attempts. It may change
// during a run, as a real one does when its caches warm up or a compaction
// starts (Change), and it wobbles from one round to the next by a seeded
// noise. Past its capacity a robust target refuses the excess cleanly; a
// fragile one also loses capacity to the overload itself (Profile.Collapse),
// which is why an adaptive client assumes the most fragile target until it
// has seen otherwise. Named returns the lab's four profiles.
//
// Everything here is deterministic: the same profile and seed give the same
// failures, natively and in WebAssembly. Time is an argument in virtual
// nanoseconds; nothing reads a clock. Nothing is safe for concurrent use.
//
// These are teaching models, small enough to reason about on paper, not
// queueing theory: use them to see how a client reacts, not to size a
// system.
package target
