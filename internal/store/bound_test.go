package store

import (
	"strings"
	"testing"

	"ratelab/grader/report"
)

// TestBoundKeepsReplayData: a stored result keeps each counterexample's
// calls as data (what Replay reads), and drops a call that is not what
// the grader writes, or would be cut, leaving its text.
func TestBoundKeepsReplayData(t *testing.T) {
	cx := func(args map[string]any) *report.Counterexample {
		return &report.Counterexample{Setup: "b := New(1, 1, 0)",
			SetupCall: &report.Call{Name: "New", Args: map[string]any{"capacity": "1"}},
			Steps:     []report.Step{{Call: "b.TryAcquire(5, 1)", Got: "true", Want: "false", Name: "TryAcquire", Args: args}}}
	}
	for _, tc := range []struct {
		name string
		args map[string]any
		keep bool
	}{
		{"the grader's", map[string]any{"nowNs": "5", "n": "1", "ok": true, "f": 0.5}, true},
		{"a nested value", map[string]any{"nowNs": map[string]any{"x": "1"}}, false},
		{"a long string", map[string]any{"nowNs": strings.Repeat("9", MaxStepText+1)}, false},
	} {
		ex := report.Exercise{Checks: []report.Check{{ID: "c", Counterexample: cx(tc.args)}}}
		got := Bound(ex).Checks[0].Counterexample
		if got.SetupCall == nil || got.SetupCall.Name != "New" || got.SetupCall.Args["capacity"] != "1" {
			t.Errorf("%s: Bound's setup call = %+v; want New(capacity 1)", tc.name, got.SetupCall)
		}
		s := got.Steps[0]
		if s.Call != "b.TryAcquire(5, 1)" {
			t.Errorf("%s: Bound's step text = %q", tc.name, s.Call)
		}
		if kept := s.Name == "TryAcquire" && len(s.Args) == len(tc.args); kept != tc.keep {
			t.Errorf("%s: Bound kept the call as %q %v; want kept = %v", tc.name, s.Name, s.Args, tc.keep)
		}
	}
}
