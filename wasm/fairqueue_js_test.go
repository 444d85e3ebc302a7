package main

import (
	"bytes"
	"strings"
	"testing"

	"ratelab/lab/fairqueue"
)

// TestFairqueueStepMatchesLab runs the contention lab through the
// JavaScript API and through package fairqueue, and wants the same bytes,
// step after step.
func TestFairqueueStepMatchesLab(t *testing.T) {
	s := api().Get("fairqueue").Call("newSim", map[string]any{"impl": "reference", "quantum": 10, "burstRate": 16, "heavyCost": 20, "seed": 3})
	if e := s.Get("error"); !e.IsUndefined() {
		t.Fatalf("newSim = {error: %q}", e.String())
	}
	defer s.Call("free")
	cfg := fairqueue.DefaultConfig()
	cfg.Quantum, cfg.BurstRate, cfg.HeavyCost, cfg.Seed = 10, 16, 20, 3
	want, err := fairqueue.New(cfg, fairqueue.Reference)
	if err != nil {
		t.Fatal(err)
	}
	buf := uint8Array(fairqueue.MaxStepBytes(fairqueue.MaxBins))
	for until := 16.7e6; until < 12e9; until += 16.7e6 * 11 {
		n := s.Call("step", until, 50, buf).Int()
		b := want.EncodeStep(nil, want.Step(uint64(until), 50))
		if !bytes.Equal(goBytes(buf, len(b)), b) {
			t.Fatalf("step(%v): %d bins, bytes differ from fairqueue's EncodeStep", until, n)
		}
	}
	info := s.Call("info")
	if info.Get("implStatus").String() != "Reference" || info.Get("bound").Int() != 40 || info.Get("quantum").Int() != 10 {
		t.Errorf("info() = implStatus %v, bound %v, quantum %v; want Reference, 40, 10", info.Get("implStatus"), info.Get("bound"), info.Get("quantum"))
	}
}

// TestFairqueueYours: the learner's DRR runs, or its lane says why not; a
// stub says it is not implemented, and nothing panics out of the shell.
func TestFairqueueYours(t *testing.T) {
	s := api().Get("fairqueue").Call("newSim", map[string]any{"impl": "yours"})
	if e := s.Get("error"); !e.IsUndefined() {
		t.Fatalf("newSim = {error: %q}", e.String())
	}
	defer s.Call("free")
	s.Call("step", 3e9, 100, uint8Array(fairqueue.MaxStepBytes(100)))
	status := s.Call("info").Get("implStatus").String()
	if status != "Yours" && !strings.HasPrefix(status, "Yours: ") {
		t.Errorf("implStatus = %q, want Yours, or Yours and why it stopped", status)
	}
	t.Logf("implStatus %s", status)
}

func TestFairqueueErrors(t *testing.T) {
	for _, c := range []map[string]any{
		{"impl": "mine"}, {"quantum": 0}, {"quantum": 2.5}, {"heavyCost": 0},
		{"quantum": 1, "heavyCost": 65}, {"burstRate": -1}, {"seed": -1},
	} {
		s := api().Get("fairqueue").Call("newSim", c)
		if e := s.Get("error"); e.IsUndefined() {
			s.Call("free")
			t.Errorf("newSim(%v): no error", c)
		}
	}
	if e := api().Get("fairqueue").Call("newSim").Get("error"); e.IsUndefined() {
		t.Error("newSim(): no error")
	}
}
