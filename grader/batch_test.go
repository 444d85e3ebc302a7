package grader

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"ratelab/grader/check"
	"ratelab/grader/harness"
	"ratelab/grader/wire"
)

// counter is what the counting children serve: New(start) makes one, Add(d)
// adds d and returns the sum. quirk, if not 0, is added to the answer of
// an Add of 2 (not to the sum kept).
type counter struct{ n, quirk uint64 }

func (c *counter) Add(d uint64) uint64 {
	c.n += d
	if d == 2 {
		return c.n + c.quirk
	}
	return c.n
}

// counterAPIs are the fake children (see fakeChild) that serve a counter
// through the real harness: the reference, and one that answers one call
// otherwise.
var counterAPIs = map[string]harness.API{
	"counter":       counterAPI(0),
	"counter-quirk": counterAPI(100),
}

func counterAPI(quirk uint64) harness.API {
	return harness.API{Funcs: map[string]any{"New": func(start uint64) *counter { return &counter{n: start, quirk: quirk} }}}
}

// countScript is a replay: a counter made at 40, then Add(1), Add(2), then
// Add(1) eight times; it returns the sums.
func countScript(r check.Remote) []uint64 {
	var o wire.Obj
	r.Call(0, "New", []any{uint64(40)}, &o)
	var sums []uint64
	for _, d := range []uint64{1, 2, 1, 1, 1, 1, 1, 1, 1, 1} {
		var n uint64
		r.Call(o, "Add", []any{d}, &n)
		sums = append(sums, n)
	}
	return sums
}

// TestAReplayCostsARoundTripABatch counts the round trips of one replay of
// countScript, its calls sent ahead as the reference's recording gives
// them: one for code that answers as the reference does; two for code
// that answers one call otherwise (the calls after it are foreseen again
// from the answers it gave, and sent in a second batch); one a call when
// they are sent one by one. The answers are the process's own every time.
func TestAReplayCostsARoundTripABatch(t *testing.T) {
	for _, tc := range []struct {
		mode     string
		oneByOne bool
		trips    int64
		third    uint64 // the answer to Add(2)
	}{
		{"counter", false, 1, 43},
		{"counter", true, 11, 43},
		{"counter-quirk", false, 2, 143},
		{"counter-quirk", true, 11, 143},
	} {
		c := fake(t, context.Background(), tc.mode)
		c.counts = &Counts{}
		c.noAhead = tc.oneByOne
		c.arm(time.Minute)
		rec := harness.Record(counterAPI(0))
		var sums []uint64
		if base := c.Base(); base != 0 {
			record := func(given []json.RawMessage) (calls, answers []json.RawMessage) {
				rec.Start(base)
				rec.Force(given)
				countScript(rec)
				return rec.Recorded()
			}
			calls, answers := record(nil)
			c.SendAhead(calls, answers, record)
			sums = countScript(c)
			c.EndAhead()
		} else {
			sums = countScript(c)
		}
		if l := c.takeLost(); l != nil {
			t.Fatalf("%s (one by one %t): lost %v", tc.mode, tc.oneByOne, l)
		}
		c.stop()
		want := []uint64{41, tc.third, 44, 45, 46, 47, 48, 49, 50, 51}
		if len(sums) != len(want) || sums[1] != want[1] || sums[9] != want[9] {
			t.Errorf("%s (one by one %t): sums %v, want %v", tc.mode, tc.oneByOne, sums, want)
		}
		if got := c.counts.RoundTrips(); got != tc.trips {
			t.Errorf("%s (one by one %t): %d round trips for 11 calls, want %d", tc.mode, tc.oneByOne, got, tc.trips)
		}
		wantAhead := int64(11)
		if tc.oneByOne {
			wantAhead = 0
		}
		if calls, ahead := c.counts.Calls(), c.counts.Ahead(); calls != 11 || ahead != wantAhead {
			t.Errorf("%s (one by one %t): %d calls, %d of them sent ahead; want 11, %d", tc.mode, tc.oneByOne, calls, ahead, wantAhead)
		}
	}
}
