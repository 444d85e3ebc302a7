package main

import (
	"bytes"
	"strings"
	"testing"

	"ratelab/lab/hierarchy"
)

func TestHierarchyStepMatchesLab(t *testing.T) {
	s := newJS(t, "newHierarchySim", map[string]any{"impl": "reference", "seed": 3})
	cfg := hierarchy.DefaultConfig()
	cfg.Seed = 3
	want, err := hierarchy.New(cfg, hierarchy.Reference)
	if err != nil {
		t.Fatal(err)
	}
	buf := uint8Array(hierarchy.EncodedLen)
	for _, until := range []float64{0, 16.7e6, 1e9, 12.5e9, 40e9} {
		n := s.Call("step", until, buf).Int()
		want.Step(uint64(until))
		b := want.Encode(nil)
		if n != len(b) || !bytes.Equal(goBytes(buf, n), b) {
			t.Fatalf("step(%v): %d bytes, differ from hierarchy's Encode", until, n)
		}
	}
	info := s.Call("info")
	if info.Get("implStatus").String() != "Reference" || !info.Get("done").Bool() {
		t.Errorf("info() = %v, %v; want Reference, done", info.Get("implStatus"), info.Get("done"))
	}
	if api().Get("hierarchy").Get("bytes").Int() != hierarchy.EncodedLen {
		t.Error("ratelab.hierarchy.bytes is not hierarchy.EncodedLen")
	}
}

func TestHierarchyYoursAndErrors(t *testing.T) {
	s := newJS(t, "newHierarchySim", map[string]any{"impl": "yours"})
	s.Call("step", 1e9, uint8Array(hierarchy.EncodedLen))
	status := s.Call("info").Get("implStatus").String()
	if status != "Yours" && !strings.HasPrefix(status, "Yours: ") {
		t.Errorf("implStatus = %q, want Yours, or Yours and why it stopped", status)
	}
	t.Logf("hierarchy: implStatus %s", status)
	for _, cfg := range []any{nil, map[string]any{"impl": "theirs"}, map[string]any{"seed": -2}} {
		if e := api().Call("newHierarchySim", cfg).Get("error"); e.IsUndefined() {
			t.Errorf("newHierarchySim(%v) made a run", cfg)
		}
	}
}
