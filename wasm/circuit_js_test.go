package main

import (
	"bytes"
	"strings"
	"testing"

	"ratelab/lab/circuit"
)

func TestCircuitStepMatchesLab(t *testing.T) {
	s := newJS(t, "newCircuitSim", map[string]any{"impl": "reference", "scenario": "slow-calls", "seed": 7})
	sc, _ := circuit.Named(circuit.SlowCallsName)
	sc.Seed = 7
	want, err := circuit.New(sc, circuit.Reference)
	if err != nil {
		t.Fatal(err)
	}
	var sent [2]int
	buf := uint8Array(circuit.EncodedLen)
	for _, until := range []float64{0, 16.7e6, 2.5e9, 9.5e9, 40e9, 40e9} {
		n := s.Call("step", until, buf).Int()
		want.Step(uint64(until))
		b := want.Encode(nil, &sent)
		if n != len(b) || !bytes.Equal(goBytes(buf, n), b) {
			t.Fatalf("step(%v): %d bytes, differ from circuit's Encode", until, n)
		}
	}
	info := s.Call("info")
	if info.Get("implStatus").String() != "Reference" || !info.Get("done").Bool() ||
		info.Get("scenario").Get("halfOpenProbes").Int() != int(sc.Breaker.HalfOpenProbes) || info.Get("scenario").Get("seed").Int() != 7 {
		t.Errorf("info() = %v, %v, %v; want Reference, done, the scenario's", info.Get("implStatus"), info.Get("done"), info.Get("scenario"))
	}
	c := api().Get("circuit")
	if c.Get("bytes").Int() != circuit.EncodedLen || c.Get("scenarios").Length() != len(circuit.Names) || c.Get("states").Index(2).String() != "half-open" {
		t.Error("ratelab.circuit: bytes, scenarios or states are not circuit's")
	}
}

func TestCircuitYoursAndErrors(t *testing.T) {
	s := newJS(t, "newCircuitSim", map[string]any{"impl": "yours"})
	s.Call("step", 1e9, uint8Array(circuit.EncodedLen))
	status := s.Call("info").Get("implStatus").String()
	if status != "Yours" && !strings.HasPrefix(status, "Yours: ") {
		t.Errorf("implStatus = %q, want Yours, or Yours and why it stopped", status)
	}
	t.Logf("breaker: implStatus %s", status)
	for _, cfg := range []any{nil, map[string]any{"impl": "theirs"}, map[string]any{"scenario": "flood"}, map[string]any{"seed": -1}} {
		if e := api().Call("newCircuitSim", cfg).Get("error"); e.IsUndefined() {
			t.Errorf("newCircuitSim(%v) made a run", cfg)
		}
	}
	if s := api().Call("newCircuitSim", map[string]any{"impl": "reference", "scenario": "blip"}); !s.Get("error").IsUndefined() {
		t.Errorf("newCircuitSim(blip) = %v", s.Get("error"))
	} else {
		s.Call("free")
	}
}
