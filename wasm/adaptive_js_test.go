package main

import (
	"bytes"
	"strings"
	"testing"

	"syscall/js"

	"ratelab/lab/adaptive"
	"ratelab/lab/governor"
	"ratelab/lab/gradient2"
	"ratelab/lab/target"
)

// newJS calls ratelab[ctor](config) and fails the test on an error.
func newJS(t *testing.T, ctor string, config map[string]any) js.Value {
	t.Helper()
	s := api().Call(ctor, config)
	if e := s.Get("error"); !e.IsUndefined() {
		t.Fatalf("%s(%v) = {error: %q}", ctor, config, e.String())
	}
	t.Cleanup(func() { s.Call("free") })
	return s
}

// TestGovernorStepMatchesLab runs the healthier target through the
// JavaScript API and through package governor, and wants the same
// bytes, step after step.
func TestGovernorStepMatchesLab(t *testing.T) {
	s := newJS(t, "newGovernorSim", map[string]any{"target": "healthier", "impl": "reference", "seed": 4})
	cfg := governor.DefaultConfig(target.HealthierName)
	cfg.Seed = 4
	want, err := governor.New(cfg, adaptive.Reference)
	if err != nil {
		t.Fatal(err)
	}
	buf := uint8Array(governor.MaxStepBytes(64))
	for _, n := range []int{1, 3, 64, 100} {
		got := s.Call("step", n, buf).Int()
		b := want.EncodeStep(nil, want.Step(min(n, 64)))
		if got != min(n, 64) {
			t.Fatalf("step(%d) = %d windows, want %d", n, got, min(n, 64))
		}
		if !bytes.Equal(goBytes(buf, len(b)), b) {
			t.Fatalf("step(%d): bytes differ from governor's EncodeStep", n)
		}
	}
	info := s.Call("info")
	checks := []struct {
		name      string
		got, want any
	}{
		{"impl", info.Get("impl").String(), "Reference"},
		{"implStatus", info.Get("implStatus").String(), "Reference"},
		{"target", info.Get("target").String(), "healthier"},
		{"windows", info.Get("windows").Int(), 132},
		{"offer", info.Get("offer").Float(), want.Offer()},
		{"ceiling", info.Get("ceiling").Float(), 200.0},
		{"tries", info.Get("tries").Int(), 3},
		{"changes", info.Get("changes").Length(), 1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("info().%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// A buffer too small for the windows asked for gets as many as fit.
func TestGovernorStepFitsTheBuffer(t *testing.T) {
	s := newJS(t, "newGovernorSim", map[string]any{"target": "robust"})
	if got := s.Call("step", 10, uint8Array(governor.MaxStepBytes(3))).Int(); got != 3 {
		t.Errorf("step(10) into room for 3 = %d windows, want 3", got)
	}
}

func TestGradient2StepMatchesLab(t *testing.T) {
	s := newJS(t, "newGradient2Sim", map[string]any{"impl": "reference", "seed": 2})
	cfg := gradient2.DefaultConfig()
	cfg.Seed = 2
	want, err := gradient2.New(cfg, adaptive.Reference)
	if err != nil {
		t.Fatal(err)
	}
	buf := uint8Array(gradient2.MaxStepBytes(500))
	for until := 16.7e6; until < 15e9; until += 16.7e6 * 7 {
		n := s.Call("step", until, 500, buf).Int()
		b := want.EncodeStep(nil, want.Step(uint64(until), 500))
		if !bytes.Equal(goBytes(buf, len(b)), b) {
			t.Fatalf("step(%v): %d bins, bytes differ from gradient2's EncodeStep", until, n)
		}
	}
	info := s.Call("info")
	if info.Get("implStatus").String() != "Reference" || info.Get("throughput").Float() != 200 || info.Get("steps").Length() != 4 {
		t.Errorf("info() = implStatus %v, throughput %v, %v steps; want Reference, 200, 4",
			info.Get("implStatus"), info.Get("throughput"), info.Get("steps").Length())
	}
}

// TestYoursAdaptive: the learner's code runs, or says why not: a stub
// says it is not implemented, and nothing panics out of the shell.
func TestYoursAdaptive(t *testing.T) {
	g := newJS(t, "newGovernorSim", map[string]any{"impl": "yours"})
	g.Call("step", 5, uint8Array(governor.MaxStepBytes(5)))
	l := newJS(t, "newGradient2Sim", map[string]any{"impl": "yours"})
	l.Call("step", 2e9, 100, uint8Array(gradient2.MaxStepBytes(100)))
	for name, s := range map[string]js.Value{"governor": g, "gradient2": l} {
		status := s.Call("info").Get("implStatus").String()
		if status != "Yours" && !strings.HasPrefix(status, "Yours: ") {
			t.Errorf("%s: implStatus = %q, want Yours, or Yours and why it stopped", name, status)
		}
		t.Logf("%s: implStatus %s", name, status)
	}
}

func TestAdaptiveErrors(t *testing.T) {
	tests := []struct {
		ctor   string
		config any
		want   string
	}{
		{"newGovernorSim", nil, "config object"},
		{"newGovernorSim", map[string]any{"target": "flaky"}, "flaky"},
		{"newGovernorSim", map[string]any{"impl": "theirs"}, "impl"},
		{"newGovernorSim", map[string]any{"tries": 0}, "tries"},
		{"newGovernorSim", map[string]any{"floor": 50, "ceiling": 20}, "ceiling"},
		{"newGovernorSim", map[string]any{"seed": -1}, "seed"},
		{"newGradient2Sim", "steps", "config object"},
		{"newGradient2Sim", map[string]any{"impl": "theirs"}, "impl"},
	}
	for _, tt := range tests {
		v := api().Call(tt.ctor, tt.config)
		if e := v.Get("error"); e.IsUndefined() || !strings.Contains(e.String(), tt.want) {
			t.Errorf("%s(%v).error = %v, want a message about %q", tt.ctor, tt.config, e, tt.want)
		}
	}
}
