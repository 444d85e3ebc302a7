// Package adaptive is how the week 4 lab sees the two adaptive exercises,
// the backpressure governor and the Gradient2 concurrency limit: as the
// interfaces Governor and Limit, built by an Impl.
//
// Reference builds them from the solutions packages. The WebAssembly shell
// builds another Impl, "Yours", from the learner's exercises packages, so
// that this package, and every lab package that runs an Impl, never imports
// exercises: a learner's build error cannot break the lab.
//
// Code from an Impl other than Reference may panic; the runs that use it
// recover, stop, and report why with guard.Status, which says "not
// implemented yet" for an exercise stub.
package adaptive
