package gateway_test

import (
	"math"
	"strings"
	"testing"

	"ratelab/solutions/gateway"
)

const max64 = math.MaxUint64

func budget(c, r uint64) gateway.Budget { return gateway.Budget{Capacity: c, RatePerSec: r} }

// step is one call on a gateway: Admit, or Open (class set), or Reload
// (cfg set); wantErr for Open and Reload.
type step struct {
	name    string
	session uint64
	kind    gateway.Kind
	class   string
	cfg     *gateway.Config
	now     uint64
	want    gateway.Verdict
	wantErr bool
}

func admit(s uint64, k gateway.Kind, now uint64, o gateway.Outcome, b string, retry uint64) step {
	return step{session: s, kind: k, now: now, want: gateway.Verdict{Outcome: o, Budget: b, RetryAfterNs: retry}}
}
func accept(s uint64, k gateway.Kind, now uint64) step {
	return admit(s, k, now, gateway.Accept, "", 0)
}
func open(s uint64, class string, now uint64, wantErr bool) step {
	return step{name: "Open", session: s, class: class, now: now, wantErr: wantErr}
}
func reload(cfg gateway.Config, now uint64, wantErr bool) step {
	return step{name: "Reload", cfg: &cfg, now: now, wantErr: wantErr}
}

func run(t *testing.T, g *gateway.Gateway, steps []step) {
	t.Helper()
	for i, s := range steps {
		switch {
		case s.name == "Open":
			if err := g.Open(s.session, s.class, s.now); (err != nil) != s.wantErr {
				t.Fatalf("step %d: Open(%d, %q, %d) = %v, want error %t", i, s.session, s.class, s.now, err, s.wantErr)
			}
		case s.name == "Reload":
			if err := g.Reload(*s.cfg, s.now); (err != nil) != s.wantErr {
				t.Fatalf("step %d: Reload(..., %d) = %v, want error %t", i, s.now, err, s.wantErr)
			}
		default:
			if got := g.Admit(s.session, s.kind, s.now); got != s.want {
				t.Fatalf("step %d: Admit(%d, %d, %d) = %+v, want %+v", i, s.session, s.kind, s.now, got, s.want)
			}
		}
	}
}

func cfg(orders, cancels gateway.Budget, silence, disconnect uint64) gateway.Config {
	return gateway.Config{Classes: map[string]gateway.Class{"regular": {Orders: orders, Cancels: cancels}}, SilenceAfterNs: silence, DisconnectAfterNs: disconnect}
}

func TestGateway(t *testing.T) {
	const R, S, D = gateway.Reject, gateway.Silent, gateway.Disconnect
	const N, M, C, H = gateway.NewOrder, gateway.Modify, gateway.Cancel, gateway.Heartbeat
	tests := []struct {
		name  string
		cfg   gateway.Config
		start uint64
		steps []step
	}{
		{"orders and modifies share a budget; cancels have their own", cfg(budget(2, 1000), budget(2, 1000), 0, 0), 0, []step{
			open(1, "regular", 0, false),
			accept(1, N, 0), accept(1, M, 0), admit(1, N, 0, R, "orders", 1_000_000),
			accept(1, C, 0), accept(1, C, 0), admit(1, C, 0, R, "cancels", 1_000_000),
		}},
		{"unlimited cancels always pass", cfg(budget(1, 1), budget(0, 0), 0, 0), 0, []step{
			open(1, "regular", 0, false), accept(1, N, 0), accept(1, C, 0), accept(1, C, 0), admit(1, N, 0, R, "orders", 1_000_000_000),
		}},
		{"retry-after at the nanosecond", cfg(budget(1, 3), budget(0, 0), 0, 0), 0, []step{
			open(1, "regular", 0, false), accept(1, N, 0),
			admit(1, N, 1, R, "orders", 333_333_333), // 3 units earned: ceil((10^9-3)/3)
			admit(1, N, 333_333_333, R, "orders", 1),
			accept(1, N, 333_333_334),
		}},
		{"heartbeats touch nothing, closed sessions get Disconnect", cfg(budget(1, 1), budget(0, 0), 10, 0), 0, []step{
			admit(1, H, 0, D, "", 0),
			open(1, "regular", 0, false), accept(1, H, 0), accept(1, N, 0),
			admit(1, N, 0, R, "orders", 1_000_000_000), accept(1, H, 20), admit(1, N, 20, S, "orders", 999_999_980),
		}},
		{"escalation by the flood's age, reset by an accept", cfg(budget(1, 1000), budget(0, 0), 100, 1_000), 0, []step{
			open(1, "regular", 0, false), accept(1, N, 0),
			admit(1, N, 10, R, "orders", 999_990), admit(1, N, 109, R, "orders", 999_891), admit(1, N, 110, S, "orders", 999_890),
			accept(1, C, 500), // an accepted cancel ends the flood
			admit(1, N, 600, R, "orders", 999_400), admit(1, N, 1_599, S, "orders", 998_401), admit(1, N, 1_600, D, "", 0),
			admit(1, C, 1_600, D, "", 0), open(1, "regular", 1_600, false),
			admit(1, N, 1_600, R, "orders", 998_400), // the flood ended with the connection; the bucket did not refill
			accept(1, N, 1_000_000),
		}},
		{"open errors", cfg(budget(1, 1), budget(0, 0), 0, 0), 0, []step{
			open(1, "retail", 0, true), open(1, "regular", 0, false), open(1, "regular", 0, true),
		}},
		{"reload at the old rate up to now, units capped", cfg(budget(10, 1), budget(0, 0), 0, 0), 0, []step{
			open(1, "regular", 0, false),
			accept(1, N, 0), accept(1, N, 0), accept(1, N, 0), // 7 left
			reload(cfg(budget(5, 1000), budget(0, 0), 0, 0), 1_000_000_000, false), // 8 earned at 1/s, capped at 5
			accept(1, N, 1_000_000_000), accept(1, N, 1_000_000_000), accept(1, N, 1_000_000_000), accept(1, N, 1_000_000_000), accept(1, N, 1_000_000_000),
			admit(1, N, 1_000_000_000, R, "orders", 1_000_000),
		}},
		{"invalid reloads change nothing, the clock neither", cfg(budget(1, 1000), budget(0, 0), 0, 0), 0, []step{
			open(1, "regular", 0, false), accept(1, N, 0),
			reload(gateway.Config{}, 5_000_000, true),
			reload(gateway.Config{Classes: map[string]gateway.Class{"other": {Orders: budget(1, 1)}}}, 5_000_000, true),
			admit(1, N, 500_000, R, "orders", 500_000),
		}},
		{"a budget that was unlimited starts full", cfg(budget(1, 1), budget(0, 0), 0, 0), 0, []step{
			open(1, "regular", 0, false), accept(1, C, 0),
			reload(cfg(budget(1, 1), budget(2, 1), 0, 0), 0, false),
			accept(1, C, 0), accept(1, C, 0), admit(1, C, 0, R, "cancels", 1_000_000_000),
		}},
		{"a closed session whose class is gone keeps its budgets", cfg(budget(1, 1), budget(0, 0), 0, 1), 0, []step{
			open(1, "regular", 0, false), accept(1, N, 0), admit(1, N, 0, R, "orders", 1_000_000_000), admit(1, N, 1, D, "", 0),
			reload(gateway.Config{Classes: map[string]gateway.Class{"mm": {Orders: budget(3, 1)}}, DisconnectAfterNs: 1}, 1, false),
			open(1, "mm", 500_000_001, false),                  // half a token earned at 1/s, capped at 3
			admit(1, N, 500_000_001, R, "orders", 499_999_999), // 500_000_001 units since it was emptied at 0
		}},
		{"steps back count as the latest time", cfg(budget(1, 1000), budget(0, 0), 100, 0), 1_000_000, []step{
			open(1, "regular", 0, false), accept(1, N, 0),
			admit(1, N, 500, R, "orders", 1_000_000), admit(1, N, 1_000_100, S, "orders", 999_900),
			admit(1, N, 3, S, "orders", 999_900),
		}},
		{"huge values", cfg(budget(max64, max64), budget(0, 0), max64-1, max64), max64 - 10, []step{
			open(max64, "regular", 0, false), accept(max64, N, max64),
		}},
		{"a day idle at a huge rate", cfg(budget(1, 1e18), budget(0, 0), 0, 0), 0, []step{
			open(1, "regular", 0, false), accept(1, N, 0), admit(1, N, 0, R, "orders", 1), accept(1, N, 86_400e9), accept(1, N, max64),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := gateway.New(tt.cfg, tt.start)
			if err != nil {
				t.Fatal(err)
			}
			run(t, g, tt.steps)
		})
	}
}

func TestValidateNamesClassAndField(t *testing.T) {
	tests := []struct {
		cfg   gateway.Config
		names []string
	}{
		{gateway.Config{}, []string{"Classes"}},
		{cfg(budget(0, 1), budget(0, 0), 0, 0), []string{"regular", "Orders.Capacity"}},
		{cfg(budget(1, 0), budget(0, 0), 0, 0), []string{"regular", "Orders.RatePerSec"}},
		{cfg(budget(2, 2), budget(2, 0), 0, 0), []string{"regular", "Cancels.RatePerSec"}},
		{cfg(budget(2, 2), budget(1, 2), 0, 0), []string{"regular", "Cancels.Capacity"}},
		{cfg(budget(2, 2), budget(2, 1), 0, 0), []string{"regular", "Cancels.RatePerSec"}},
		{cfg(budget(1, 1), budget(0, 0), 5, 5), []string{"SilenceAfterNs", "DisconnectAfterNs"}},
		{cfg(budget(1, 1), budget(0, 0), 5, 0), nil},
		{cfg(budget(1, 1), budget(1, 1), 0, 5), nil},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		if (err != nil) != (tt.names != nil) {
			t.Errorf("%+v.Validate() = %v, want error %t", tt.cfg, err, tt.names != nil)
			continue
		}
		for _, n := range tt.names {
			if !strings.Contains(err.Error(), n) {
				t.Errorf("%+v.Validate() = %q, want it to name %s", tt.cfg, err, n)
			}
		}
		if _, nerr := gateway.New(tt.cfg, 0); (nerr != nil) != (err != nil) {
			t.Errorf("New(%+v) = %v, want Validate's %v", tt.cfg, nerr, err)
		}
	}
}

func TestAdmitDoesNotAllocate(t *testing.T) {
	g, _ := gateway.New(cfg(budget(10, 1000), budget(20, 2000), 1000, 0), 0)
	for s := range uint64(100) {
		g.Open(s, "regular", 0)
	}
	now, i := uint64(0), uint64(0)
	if a := testing.AllocsPerRun(1000, func() {
		now += 300
		i++
		g.Admit(i%100, gateway.Kind(i%4), now)
	}); a != 0 {
		t.Errorf("Admit allocates %.1f times per call, want 0", a)
	}
}
