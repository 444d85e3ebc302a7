package breaker_test

import (
	"fmt"

	"ratelab/solutions/breaker"
)

var names = []string{"Closed", "Open", "HalfOpen"}

// Two failures in a row open the breaker; after OpenNs it lets one probe
// through, and the probe's success closes it again.
func Example() {
	b, _ := breaker.New(breaker.Config{FailureThreshold: 2, OpenNs: 1000, HalfOpenProbes: 1}, 0)
	for _, now := range []uint64{10, 20} {
		t, _ := b.Allow(now)
		b.Done(t, false, now+5)
	}
	_, ok := b.Allow(30)
	fmt.Println(names[b.State(30)], ok)
	fmt.Println(names[b.State(1025)]) // opened at 25: over at 1025 exactly
	probe, ok := b.Allow(1025)
	_, again := b.Allow(1026)
	fmt.Println(ok, again)
	b.Done(probe, true, 1030)
	fmt.Println(names[b.State(1030)])
	// Output:
	// Open false
	// HalfOpen
	// true false
	// Closed
}

// A success in between sets the count of consecutive failures back to 0.
func ExampleBreaker_Done() {
	b, _ := breaker.New(breaker.Config{FailureThreshold: 2, OpenNs: 1000, HalfOpenProbes: 1}, 0)
	for _, success := range []bool{false, true, false} {
		t, _ := b.Allow(0)
		b.Done(t, success, 0)
	}
	fmt.Println(names[b.State(0)])
	// Output: Closed
}

// A call that started before the breaker opened reports after it: its
// ticket is from an earlier generation, and its success is ignored.
func ExampleBreaker_Done_stale() {
	b, _ := breaker.New(breaker.Config{FailureThreshold: 1, OpenNs: 1000, HalfOpenProbes: 1}, 0)
	slow, _ := b.Allow(0)
	fast, _ := b.Allow(1)
	b.Done(fast, false, 2) // opens it
	b.Done(slow, true, 3)  // too late: ignored
	fmt.Println(names[b.State(3)])
	// Output: Open
}

// New names the field that is 0.
func ExampleNew() {
	_, err := breaker.New(breaker.Config{FailureThreshold: 3, HalfOpenProbes: 1}, 0)
	fmt.Println(err)
	// Output: breaker: OpenNs must be at least 1
}
