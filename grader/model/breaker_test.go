package model

import (
	"math"
	"testing"
)

// state is a breaker state type of a test's own, as the suites and the
// lab have theirs.
type state uint8

const (
	stClosed state = iota
	stOpen
	stHalfOpen
)

// TestBreakerRules walks the breaker through each rule of the contract:
// failures in a row open it, a success resets the count, the open period
// ends on time into HalfOpen, whose probes are limited, a failed probe
// reopens and enough successes close; stale and unissued tickets change
// nothing; time never goes back.
func TestBreakerRules(t *testing.T) {
	m := NewBreaker[state](BreakerConfig{FailureThreshold: 2, OpenNs: 100, HalfOpenProbes: 2}, 1000)
	m.Call = 0
	expect := func(what string, got, want any) {
		t.Helper()
		if got != want {
			t.Fatalf("%s: got %v, want %v", what, got, want)
		}
	}
	expect("new state", m.StateAt(1000), stClosed)
	expect("no change yet", m.ChangedAt, -1)

	g0, ok := m.Allow(1000)
	expect("closed allows", ok, true)
	m.Done(g0, true, false, 1001)
	m.Done(g0, true, true, 1002) // a success resets the count
	m.Done(g0, true, false, 1003)
	expect("one failure in a row is not enough", m.StateAt(1003), stClosed)
	m.Done(g0, false, false, 1004) // never issued: not counted
	expect("an unissued ticket is not counted", m.StateAt(1004), stClosed)
	m.Call = 7
	m.Done(g0, true, false, 1005)
	expect("two failures in a row open it", m.StateAt(1005), stOpen)
	expect("the change's call", m.ChangedAt, 7)
	expect("opened at the latest time", m.OpenedAt, uint64(1005))
	expect("not from HalfOpen", m.FromHalf, false)
	if _, ok := m.Allow(1104); ok {
		t.Fatal("open allowed a call before its period ended")
	}
	m.Done(g0, true, true, 900) // stale, and earlier than the latest time
	expect("time never goes back", m.Latest, uint64(1104))
	expect("still open just before the end", m.StateAt(1104), stOpen)

	expect("half-open at the end", m.StateAt(1105), stHalfOpen)
	g1, ok1 := m.Allow(1105)
	_, ok2 := m.Allow(1105)
	_, ok3 := m.Allow(1105)
	expect("probes let through", [3]bool{ok1, ok2, ok3}, [3]bool{true, true, false})
	m.Done(g0, true, false, 1106) // a ticket of an earlier generation
	expect("a stale failure is ignored", m.StateAt(1106), stHalfOpen)
	m.Done(g1, true, false, 1107)
	expect("a failed probe reopens", m.StateAt(1107), stOpen)
	expect("from HalfOpen", m.FromHalf, true)

	m.StateAt(1207)
	g2, _ := m.Allow(1207)
	m.Allow(1207)
	m.Done(g2, true, true, 1208)
	expect("one success of two", m.StateAt(1208), stHalfOpen)
	m.Done(g2, true, true, 1209)
	expect("two successes close", m.StateAt(1209), stClosed)
	expect("the failure count starts again", m.Failures, uint32(0))
	expect("a generation a change", m.Gen, uint64(5))
}

// TestBreakerOpenForEver: an open period whose end is past MaxUint64
// never ends.
func TestBreakerOpenForEver(t *testing.T) {
	m := NewBreaker[state](BreakerConfig{FailureThreshold: 1, OpenNs: math.MaxUint64 - 5, HalfOpenProbes: 1}, 10)
	g, _ := m.Allow(10)
	m.Done(g, true, false, 10)
	if _, ok := m.OpenEnd(); ok {
		t.Fatal("OpenEnd: an end past MaxUint64")
	}
	if s := m.StateAt(math.MaxUint64); s != stOpen {
		t.Fatalf("state at MaxUint64 = %v, want open", s)
	}
}
