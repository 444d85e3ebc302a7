package main

import (
	"bytes"
	"strings"
	"testing"

	"ratelab/lab/throttle"
	refthrottle "ratelab/solutions/throttle"
)

// TestThrottleStepMatchesLab runs a preset through the JavaScript API and
// through package throttle, with the operator's button pressed at the same
// instant in both, and wants the same bytes.
func TestThrottleStepMatchesLab(t *testing.T) {
	s := newJS(t, "newThrottleSim", map[string]any{"impl": "reference", "preset": "whitelisted-degraded", "seed": 3})
	sc, err := throttle.Preset("whitelisted-degraded")
	if err != nil {
		t.Fatal(err)
	}
	want, err := throttle.New(sc, throttle.Reference, 3)
	if err != nil {
		t.Fatal(err)
	}
	var sent int
	buf := uint8Array(throttle.EncodedLen)
	for _, until := range []float64{0, 16.7e6, 1.5e9, 1.5e9, 9e9, 40e9, 40e9} {
		if until == 9e9 {
			if !s.Call("act", "paused").Bool() {
				t.Fatal(`act("paused") = false`)
			}
			want.Act(refthrottle.Paused)
		}
		n := s.Call("step", until, buf).Int()
		want.Step(uint64(until))
		b := want.Encode(nil, &sent)
		if n != len(b) || !bytes.Equal(goBytes(buf, n), b) {
			t.Fatalf("step(%v): %d bytes, differ from throttle's Encode", until, n)
		}
	}
	info := s.Call("info")
	if info.Get("implStatus").String() != "Reference" || !info.Get("done").Bool() || info.Get("preset").String() != "whitelisted-degraded" {
		t.Errorf("info() = %v, %v, %v; want Reference, done, whitelisted-degraded", info.Get("implStatus"), info.Get("done"), info.Get("preset"))
	}
	if s.Call("act", "off").Bool() {
		t.Error(`act("off") = true, want false`)
	}
	o := api().Get("throttle")
	if o.Get("bytes").Int() != throttle.EncodedLen || o.Get("presets").Length() != len(throttle.Presets()) ||
		o.Get("presets").Index(0).Get("addresses").Index(1).Get("whitelisted").Bool() != true {
		t.Error("ratelab.throttle: bytes or presets are not operator's")
	}
}

func TestThrottleYoursAndErrors(t *testing.T) {
	s := newJS(t, "newThrottleSim", map[string]any{"impl": "yours"})
	s.Call("step", 1e9, uint8Array(throttle.EncodedLen))
	status := s.Call("info").Get("implStatus").String()
	if status != "Yours" && !strings.HasPrefix(status, "Yours: ") {
		t.Errorf("implStatus = %q, want Yours, or Yours and why it stopped", status)
	}
	t.Logf("throttle: implStatus %s", status)
	for _, cfg := range []any{nil, map[string]any{"impl": "theirs"}, map[string]any{"preset": "nope"}, map[string]any{"seed": -1}, map[string]any{"seed": 1.5}} {
		if e := api().Call("newThrottleSim", cfg).Get("error"); e.IsUndefined() {
			t.Errorf("newThrottleSim(%v) made a run", cfg)
		}
	}
}
