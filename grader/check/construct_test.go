package check

import (
	"errors"
	"fmt"
	"testing"
)

// gate stands for an exercise's interface; *openGate implements it.
type gate interface{ Open() bool }

type openGate struct{}

func (*openGate) Open() bool { return true }

func TestBeginNew(t *testing.T) {
	s := ConfigAt[int]{Cfg: 7, Start: 1_500_000}
	config := func(c int) string { return fmt.Sprintf("Config{Limit: %d}", c) }
	const setup = "New(Config{Limit: 7}, nowNs=1_500_000)"
	for _, c := range []struct {
		name     string
		newImpl  func(int, uint64) (gate, error)
		ok       bool
		step     string // the setup step's got, "" for no step
		panicked bool
	}{
		{"made", func(int, uint64) (gate, error) { return &openGate{}, nil }, true, "", false},
		{"error", func(int, uint64) (gate, error) { return nil, errors.New("bad limit") }, false, `error "bad limit"`, false},
		{"nil", func(int, uint64) (gate, error) { return nil, nil }, false, "a nil *Gate", false},
		{"panic", func(int, uint64) (gate, error) { panic("boom") }, false, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var gotCfg int
			var gotStart uint64
			tr, impl, ok := BeginNew(s, config, "a nil *Gate", func(cfg int, start uint64) (gate, error) {
				gotCfg, gotStart = cfg, start
				return c.newImpl(cfg, start)
			})
			if gotCfg != 7 || gotStart != 1_500_000 {
				t.Errorf("New was called with (%d, %d), want (7, 1500000)", gotCfg, gotStart)
			}
			if ok != c.ok || (impl != nil) != c.ok {
				t.Errorf("BeginNew(%s) = impl %v, ok %t; want ok %t", c.name, impl, ok, c.ok)
			}
			if tr.Setup != setup {
				t.Errorf("Setup = %q, want %q", tr.Setup, setup)
			}
			if (tr.Panic != nil) != c.panicked || tr.Bad == c.ok {
				t.Errorf("trace Bad %t, Panic %v; want bad %t, a panic %t", tr.Bad, tr.Panic, !c.ok, c.panicked)
			}
			switch {
			case c.step == "" && len(tr.Steps) != 0:
				t.Errorf("steps %+v, want none", tr.Steps)
			case c.step != "" && (len(tr.Steps) != 1 || tr.Steps[0].Call != setup || tr.Steps[0].Got != c.step || tr.Steps[0].Want != "nil"):
				t.Errorf("steps %+v, want one: %s got %s want nil", tr.Steps, setup, c.step)
			}
		})
	}
}
