package gateway

import (
	"testing"
)

func run(t *testing.T, impl Impl) *Run {
	t.Helper()
	r, err := New(DefaultScenario(), impl)
	if err != nil {
		t.Fatal(err)
	}
	for u := uint64(0); !r.Done(); u += 16_700_000 {
		r.Step(u)
	}
	return r
}

func inPhase(sc Scenario, name string, at uint64) bool {
	for i, p := range sc.Phases {
		end := sc.DurationNs
		if i+1 < len(sc.Phases) {
			end = sc.Phases[i+1].FromNs
		}
		if p.Name == name && at >= p.FromNs && at < end {
			return true
		}
	}
	return false
}

// During the order flood the gateway refuses orders while every cancel
// passes on its own budget; with one shared budget the cancels are
// refused.
func TestCancelsPassOnTheirOwnBudget(t *testing.T) {
	r := run(t, Reference)
	sc := r.Scenario()
	count := func(sd *Side) (ordersRefused, cancels, cancelsOK int) {
		for _, e := range sd.Events {
			if e.Mark != MarkNone || !inPhase(sc, "flood while cancelling", e.AtNs) {
				continue
			}
			switch {
			case e.Kind == Cancel:
				cancels++
				if e.Verdict.Outcome == Accept {
					cancelsOK++
				}
			case e.Kind == NewOrder && e.Verdict.Outcome != Accept:
				ordersRefused++
			}
		}
		return
	}
	refused, cancels, ok := count(&r.Gate)
	if refused == 0 || cancels == 0 || ok != cancels {
		t.Errorf("own cancel budget: %d orders refused, %d of %d cancels accepted; want orders refused and every cancel accepted", refused, ok, cancels)
	}
	sRefused, sCancels, sOK := count(&r.Shared)
	if sRefused == 0 || sOK*2 > sCancels {
		t.Errorf("one shared budget: %d orders refused, %d of %d cancels accepted; want most cancels refused", sRefused, sOK, sCancels)
	}
	t.Logf("flood while cancelling: own budget %d/%d cancels accepted, %d orders refused; shared %d/%d cancels accepted", ok, cancels, refused, sOK, sCancels)
}

// Heartbeats on an open session are always accepted.
func TestHeartbeatsUntouched(t *testing.T) {
	r := run(t, Reference)
	for _, sd := range r.Sides() {
		if n := sd.Counts[Heartbeat][Reject] + sd.Counts[Heartbeat][Silent]; n != 0 {
			t.Errorf("%s: %d heartbeats refused", sd.Name, n)
		}
		if sd.Counts[Heartbeat][Accept] == 0 {
			t.Errorf("%s: no heartbeat accepted", sd.Name)
		}
	}
}

// Every refusal carries its retry-after and the budget that refused; the
// flood escalates to Silent and to Disconnect at the configured ages (the
// first message at or past them), never before.
func TestEscalationAtTheConfiguredAges(t *testing.T) {
	r := run(t, Reference)
	cfg := r.Scenario().Config
	var silent, disconnect int
	for _, sd := range r.Sides() {
		for _, e := range sd.Events {
			if e.Mark != MarkNone {
				continue
			}
			v := e.Verdict
			switch v.Outcome {
			case Reject:
				if e.FloodNs >= cfg.SilenceAfterNs {
					t.Errorf("%s at %d: Reject at flood age %d, past silence %d", sd.Name, e.AtNs, e.FloodNs, cfg.SilenceAfterNs)
				}
			case Silent:
				silent++
				if e.FloodNs < cfg.SilenceAfterNs || e.FloodNs >= cfg.DisconnectAfterNs {
					t.Errorf("%s at %d: Silent at flood age %d", sd.Name, e.AtNs, e.FloodNs)
				}
			case Disconnect:
				disconnect++
				if e.FloodNs < cfg.DisconnectAfterNs {
					t.Errorf("%s at %d: Disconnect at flood age %d", sd.Name, e.AtNs, e.FloodNs)
				}
			}
			if (v.Outcome == Reject || v.Outcome == Silent) && (v.RetryAfterNs == 0 || v.Budget == "") {
				t.Errorf("%s at %d: %v without its budget or retry-after: %+v", sd.Name, e.AtNs, v.Outcome, v)
			}
		}
	}
	if r.Gate.Counts[NewOrder][Silent] == 0 || r.Gate.Counts[NewOrder][Disconnect] == 0 {
		t.Errorf("the gateway never escalated: %v", r.Gate.Counts)
	}
	t.Logf("%d silent, %d disconnects over both sides", silent, disconnect)
}

// The reload happens once on each side and is accepted.
func TestReload(t *testing.T) {
	r := run(t, Reference)
	for _, sd := range r.Sides() {
		n := 0
		for _, e := range sd.Events {
			if e.Mark == MarkReload {
				n++
				if e.Verdict.Budget != "" {
					t.Errorf("%s: reload failed: %s", sd.Name, e.Verdict.Budget)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d reloads, want 1", sd.Name, n)
		}
	}
}

func TestStubAndMissing(t *testing.T) {
	r := run(t, Impl{Name: "Yours", New: func(Config, uint64) (Gateway, error) { panic("gateway: New is not implemented yet") }})
	if got := r.Gate.ImplStatus(); got != "Yours: not implemented yet" {
		t.Errorf("a stub: %q", got)
	}
	if len(r.Shared.Events) == 0 {
		t.Error("the shared side must run whatever the gateway does")
	}
	r = run(t, Impl{Name: "Yours", Missing: "your code does not build"})
	if got := r.Gate.ImplStatus(); got != "Yours: your code does not build" {
		t.Errorf("missing: %q", got)
	}
}
