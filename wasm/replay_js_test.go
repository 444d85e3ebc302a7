package main

import (
	"encoding/json"
	"strings"
	"testing"

	"ratelab/lab/guard"
	"ratelab/lab/replay"
)

func TestReplayRunsOnTheReferenceAndYours(t *testing.T) {
	r := api().Get("replay")
	if r.Get("exercises").Length() != len(replay.IDs()) {
		t.Fatalf("ratelab.replay.exercises has %d ids, want %d", r.Get("exercises").Length(), len(replay.IDs()))
	}
	cx := `{"setup": "New(capacity=1, ratePerSec=1000, nowNs=0)",
		"setup_call": {"name": "New", "args": {"capacity": "1", "ratePerSec": "1000", "nowNs": "0"}},
		"steps": [{"call": "TryAcquire(nowNs=0, n=1)", "got": "true", "want": "true", "name": "TryAcquire", "args": {"nowNs": "0", "n": "1"}},
			{"call": "Available(nowNs=1200000)", "got": "0", "want": "1", "name": "Available", "args": {"nowNs": "1200000"}}]}`
	var res replay.Result
	if err := json.Unmarshal([]byte(r.Call("run", "tokenbucket", cx).String()), &res); err != nil {
		t.Fatal(err)
	}
	if res.Error != "" || len(res.Steps) != 2 || res.Steps[1].Want != "1" || len(res.Steps[1].State) == 0 {
		t.Errorf("run = %+v", res)
	}
	// Yours is the learner's exercises/tokenbucket: whatever it does, the
	// replay says it (a stub: not implemented yet).
	if res.Yours == "" && res.Steps[1].Got == "" {
		t.Errorf("Yours neither answered nor said why: %+v", res)
	}
	if err := json.Unmarshal([]byte(r.Call("run", "tokenbucket", "{").String()), &res); err != nil || res.Error == "" {
		t.Errorf("bad JSON: %v, %+v", err, res)
	}
}

// Every week's exercises replay through ratelab.replay.run, Yours built
// from the learner's packages (the week 3 and 5 ones wired in for it): a
// throttle counterexample as the grader writes it, nested configs as text.
func TestReplayRunsTheThrottle(t *testing.T) {
	cx := `{"setup": "New(Config{…}, nowNs=0)",
		"setup_call": {"name": "New", "args": {"nowNs": "0", "arg1": {
			"Breaker": "{TTLNs: 0, DegradedWriteLimit: 0, AutoRecover: false}",
			"Rate": "{MaxCalls: 1, WindowNs: 501}",
			"Congestion": "{WindowNs: 1, LowBelow: 0, HighAbove: 0, ReduceBps: 0, IncreaseBps: 0, MinMaxCalls: 1, MaxMaxCalls: 1}"}}},
		"steps": [{"call": "Write(addr=3, nowNs=0)", "name": "Write", "args": {"addr": "3", "nowNs": "0"}},
			{"call": "Write(addr=3, nowNs=1)", "name": "Write", "args": {"addr": "3", "nowNs": "1"}},
			{"call": "Write(addr=3, nowNs=501)", "name": "Write", "args": {"addr": "3", "nowNs": "501"}}]}`
	var res replay.Result
	if err := json.Unmarshal([]byte(api().Get("replay").Call("run", "throttle", cx).String()), &res); err != nil {
		t.Fatal(err)
	}
	var wants []string
	for _, s := range res.Steps {
		wants = append(wants, s.Want)
	}
	if res.Error != "" || strings.Join(wants, " ") != "nil ErrRateLimited nil" {
		t.Fatalf("run = %+v", res)
	}
	if res.Yours == "" && res.Steps[2].Got == "" {
		t.Errorf("Yours neither answered nor said why: %+v", res)
	}
}

// The governor's pure Decide replays from its setup's binding (no
// setup_call), Yours' Decide taken from the learner's exercises/governor.
func TestReplayRunsDecide(t *testing.T) {
	cx := `{"setup": "cfg = Config{Floor: 1, Ceiling: 10, Start: 0, Low: 0, High: 0.1}",
		"steps": [{"call": "Decide(cfg, frac=0.1, current=1, lastBad=0)", "name": "Decide",
			"args": {"cfg": "cfg", "frac": 0.1, "current": "1", "lastBad": "0"}}]}`
	var res replay.Result
	if err := json.Unmarshal([]byte(api().Get("replay").Call("run", "governor", cx).String()), &res); err != nil {
		t.Fatal(err)
	}
	if res.Error != "" || len(res.Steps) != 1 || res.Steps[0].Want != "{Action: Hold, Offer: 1, LastBad: 0}" {
		t.Fatalf("run = %+v", res)
	}
	if res.Yours == "" && res.Steps[0].Got == "" {
		t.Errorf("Yours neither answered nor said why: %+v", res)
	}
	if res.Yours == guard.Missing("") {
		t.Errorf("Yours' Decide is not wired in: %+v", res)
	}
}
