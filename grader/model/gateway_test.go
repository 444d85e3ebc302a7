package model

import (
	"math/big"
	"testing"
)

type (
	kind    uint8
	outcome uint8
)

const (
	kOrder, kModify, kCancel, kHeartbeat   kind    = 0, 1, 2, 3
	oAccept, oReject, oSilent, oDisconnect outcome = 0, 1, 2, 3
)

// TestGatewayRules walks a gateway through the contract's rules: opening,
// each kind of message and its budget, the least retry, a flood's
// escalation, reopening, and reloads refused and made.
func TestGatewayRules(t *testing.T) {
	cfg := GatewayConfig{
		Classes: map[string]GatewayClass{
			"regular": {Orders: GatewayBudget{Capacity: 2, RatePerSec: 3}},
			"maker":   {Orders: GatewayBudget{Capacity: 1, RatePerSec: 3}, Cancels: GatewayBudget{Capacity: 1, RatePerSec: 3}},
		},
		SilenceAfterNs: 10, DisconnectAfterNs: 20,
	}
	m := NewGateway[kind, outcome](cfg, 100)
	verdict := func(what string, got GatewayVerdict[outcome], want GatewayVerdict[outcome]) {
		t.Helper()
		if got != want {
			t.Fatalf("%s: %+v, want %+v", what, got, want)
		}
	}
	if m.Open(1, "gold", 100) == nil || m.Open(1, "regular", 100) != nil || m.Open(1, "regular", 100) == nil {
		t.Fatal("Open: an unknown class and an open session are errors, the first open is not")
	}
	verdict("a session never opened", m.Admit(9, kOrder, 100), GatewayVerdict[outcome]{Outcome: oDisconnect})
	verdict("a heartbeat", m.Admit(1, kHeartbeat, 100), GatewayVerdict[outcome]{})
	verdict("first order", m.Admit(1, kOrder, 100), GatewayVerdict[outcome]{})
	verdict("a modify takes an order token", m.Admit(1, kModify, 100), GatewayVerdict[outcome]{})
	verdict("unlimited cancels", m.Admit(1, kCancel, 100), GatewayVerdict[outcome]{})
	// Empty: a token is 10^9 units, earned at 3 a ns: 333,333,334 ns.
	verdict("empty orders", m.Admit(1, kOrder, 100), GatewayVerdict[outcome]{Outcome: oReject, Budget: "orders", RetryAfterNs: 333_333_334})
	verdict("still flooding", m.Admit(1, kOrder, 109), GatewayVerdict[outcome]{Outcome: oReject, Budget: "orders", RetryAfterNs: 333_333_334 - 9})
	verdict("silent after 10 ns of flood", m.Admit(1, kOrder, 110), GatewayVerdict[outcome]{Outcome: oSilent, Budget: "orders", RetryAfterNs: 333_333_334 - 10})
	verdict("disconnected after 20", m.Admit(1, kOrder, 120), GatewayVerdict[outcome]{Outcome: oDisconnect})
	verdict("closed", m.Admit(1, kHeartbeat, 121), GatewayVerdict[outcome]{Outcome: oDisconnect})

	// Reopened in its class, the session keeps its (nearly empty) budget.
	if err := m.Open(1, "regular", 121); err != nil {
		t.Fatal(err)
	}
	if s := m.Sessions[1]; s.Flooding || s.Orders.Units.Cmp(big.NewInt(3*21)) != 0 {
		t.Fatalf("reopened: flooding %v, %v units; want no flood, 63 units (21 ns earned)", s.Flooding, s.Orders.Units)
	}
	if m.Reload(GatewayConfig{Classes: map[string]GatewayClass{"maker": cfg.Classes["maker"]}}, 130) == nil {
		t.Fatal("Reload dropped the class of an open session")
	}
	if m.Reload(GatewayConfig{}, 130) == nil || m.Reload(GatewayConfig{Classes: map[string]GatewayClass{"x": {Orders: GatewayBudget{Capacity: 1, RatePerSec: 0}}}}, 130) == nil {
		t.Fatal("Reload took an invalid config")
	}
	if m.Latest != 121 {
		t.Fatalf("a refused reload moved the clock to %d", m.Latest)
	}
	// Reloaded with a smaller capacity: earned at the old rate to 1000 ns
	// (63 + 3×879 units), kept under the new cap; cancels become limited,
	// and full.
	next := GatewayConfig{Classes: map[string]GatewayClass{"regular": {Orders: GatewayBudget{Capacity: 1, RatePerSec: 5}, Cancels: GatewayBudget{Capacity: 1, RatePerSec: 5}}}}
	if err := m.Reload(next, 1000); err != nil {
		t.Fatal(err)
	}
	s := m.Sessions[1]
	if s.Orders.Units.Cmp(big.NewInt(63+3*879)) != 0 || s.Orders.Rate != 5 || s.Cancels.Units.Cmp(big.NewInt(1e9)) != 0 {
		t.Fatalf("after reload: orders %v units at %d/ns, cancels %v; want %d at 5, 10^9", s.Orders.Units, s.Orders.Rate, s.Cancels.Units, 63+3*879)
	}
}
