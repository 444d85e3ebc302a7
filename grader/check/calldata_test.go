package check

import (
	"reflect"
	"testing"

	"ratelab/grader/report"
)

func TestCallDataReadsThePrintedCalls(t *testing.T) {
	for call, want := range map[string]report.Call{
		"New(capacity=18, ratePerSec=999_001, nowNs=0)":                    {Name: "New", Args: map[string]any{"capacity": "18", "ratePerSec": "999001", "nowNs": "0"}},
		"TryAcquire(nowNs=math.MaxUint64-614, n=1)":                        {Name: "TryAcquire", Args: map[string]any{"nowNs": "18446744073709551001", "n": "1"}},
		"New(limit=math.MaxUint32, windowNs=8, buckets=4) // bucketNs = 2": {Name: "New", Args: map[string]any{"limit": "4294967295", "windowNs": "8", "buckets": "4"}},
		"Update(rttNs=1000, inflight=0) ×10":                               {Name: "Update", Args: map[string]any{"rttNs": "1000", "inflight": "0", "times": "10"}},
		"Decide(cfg=Config{Floor: 1, Ceiling: 8}, frac=0.31, current=2.5, lastBad=0)": {Name: "Decide",
			Args: map[string]any{"cfg": map[string]any{"Floor": "1", "Ceiling": "8"}, "frac": 0.31, "current": 2.5, "lastBad": "0"}},
		"New(cfg) with cfg = Config{Floor: 0.5, Ceiling: 100, Start: 0, Low: 0, High: 0.05}": {Name: "New",
			Args: map[string]any{"cfg": map[string]any{"Floor": 0.5, "Ceiling": "100", "Start": "0", "Low": "0", "High": 0.05}}},
		"Observe(cumFailures=3, cumResolved=10) [window: 3 of 10 failed, frac 0.3]": {Name: "Observe", Args: map[string]any{"cumFailures": "3", "cumResolved": "10"}},
		"Decide(cfg, frac=0.3, current=8, lastBad=0)":                               {Name: "Decide", Args: map[string]any{"cfg": "cfg", "frac": 0.3, "current": "8", "lastBad": "0"}},
		"MemoryClearStep(streak=2, cleanAtOrAboveLastBad=true)":                     {Name: "MemoryClearStep", Args: map[string]any{"streak": "2", "cleanAtOrAboveLastBad": true}},
		"Limit()": {Name: "Limit", Args: map[string]any{}},
		"New(Config{InitialLimit: 20, QueueSize: func(l int) float64 { return math.Sqrt(float64(l)) }})": {Name: "New",
			Args: map[string]any{"arg1": map[string]any{"InitialLimit": "20", "QueueSize": "func(l int) float64 { return math.Sqrt(float64(l)) }"}}},
		`Open(session=7, class="market-maker", nowNs=0)`: {Name: "Open", Args: map[string]any{"session": "7", "class": `"market-maker"`, "nowNs": "0"}},
	} {
		got, ok := CallData(call)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("CallData(%q) = %+v, %v; want %+v", call, got, ok, want)
		}
	}
	for _, notACall := range []string{"", "true", "panic: boom", "(1)", "New(x", "cfg = Config{Floor: 1}"} {
		if c, ok := CallData(notACall); ok {
			t.Errorf("CallData(%q) = %+v, want false", notACall, c)
		}
	}
}
