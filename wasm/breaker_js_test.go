package main

import (
	"bytes"
	"strings"
	"testing"

	"ratelab/lab/breaker"
)

func TestBreakerStepMatchesLab(t *testing.T) {
	s := newJS(t, "newBreakerSim", map[string]any{"impl": "reference", "scenario": "slow-calls", "seed": 7})
	sc, _ := breaker.Named(breaker.SlowCallsName)
	sc.Seed = 7
	want, err := breaker.New(sc, breaker.Reference)
	if err != nil {
		t.Fatal(err)
	}
	var sent [2]int
	buf := uint8Array(breaker.EncodedLen)
	for _, until := range []float64{0, 16.7e6, 2.5e9, 9.5e9, 40e9, 40e9} {
		n := s.Call("step", until, buf).Int()
		want.Step(uint64(until))
		b := want.Encode(nil, &sent)
		if n != len(b) || !bytes.Equal(goBytes(buf, n), b) {
			t.Fatalf("step(%v): %d bytes, differ from breaker's Encode", until, n)
		}
	}
	info := s.Call("info")
	if info.Get("implStatus").String() != "Reference" || !info.Get("done").Bool() ||
		info.Get("scenario").Get("halfOpenProbes").Int() != int(sc.Breaker.HalfOpenProbes) || info.Get("scenario").Get("seed").Int() != 7 {
		t.Errorf("info() = %v, %v, %v; want Reference, done, the scenario's", info.Get("implStatus"), info.Get("done"), info.Get("scenario"))
	}
	c := api().Get("breaker")
	if c.Get("bytes").Int() != breaker.EncodedLen || c.Get("scenarios").Length() != len(breaker.Names) || c.Get("states").Index(2).String() != "half-open" {
		t.Error("ratelab.breaker: bytes, scenarios or states are not breaker's")
	}
}

func TestBreakerYoursAndErrors(t *testing.T) {
	s := newJS(t, "newBreakerSim", map[string]any{"impl": "yours"})
	s.Call("step", 1e9, uint8Array(breaker.EncodedLen))
	status := s.Call("info").Get("implStatus").String()
	if status != "Yours" && !strings.HasPrefix(status, "Yours: ") {
		t.Errorf("implStatus = %q, want Yours, or Yours and why it stopped", status)
	}
	t.Logf("breaker: implStatus %s", status)
	for _, cfg := range []any{nil, map[string]any{"impl": "theirs"}, map[string]any{"scenario": "flood"}, map[string]any{"seed": -1}} {
		if e := api().Call("newBreakerSim", cfg).Get("error"); e.IsUndefined() {
			t.Errorf("newBreakerSim(%v) made a run", cfg)
		}
	}
	if s := api().Call("newBreakerSim", map[string]any{"impl": "reference", "scenario": "blip"}); !s.Get("error").IsUndefined() {
		t.Errorf("newBreakerSim(blip) = %v", s.Get("error"))
	} else {
		s.Call("free")
	}
}
