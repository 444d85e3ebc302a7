package replay

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"ratelab/grader/report"
	fixfairqueue "ratelab/grader/testdata/fixtures/fairqueue/keeps-credit"
	fixhierarchy "ratelab/grader/testdata/fixtures/hierarchy/charges-as-it-goes"
	"ratelab/lab/fairqueue"
	"ratelab/lab/gateway"
	"ratelab/lab/hierarchy"
	reffairqueue "ratelab/solutions/fairqueue"
	refhierarchy "ratelab/solutions/hierarchy"
)

func TestHierarchyReplaysTheGrade(t *testing.T) {
	replayCaptured(t, "hierarchy", "charges-as-it-goes", Impls{Hierarchy: hierarchy.Impl{Name: "Yours", New: func(now uint64) hierarchy.Tree { return fixhierarchy.New(now) }}})
}

func TestFairqueueReplaysTheGrade(t *testing.T) {
	replayCaptured(t, "fairqueue", "keeps-credit", Impls{Fairqueue: fairqueue.Impl{Name: "Yours", New: func(q uint64) fairqueue.Scheduler { return fixfairqueue.New(q) }}})
}

// The hierarchy model answers like the reference, call for call: trees
// up to MaxDepth and beyond, unknown parents and nodes, time stepping
// back, huge capacities and rates.
func TestHierarchyModelAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for run := 0; run < 1000; run++ {
		start := r.Uint64N(1_000_000)
		ref := refhierarchy.New(start)
		m := NewHierarchyModel(start)
		times := randomTimes(r, start, 40)
		for i, now := range times {
			nodes := m.Len()
			switch r.IntN(4) {
			case 0:
				parent := r.IntN(nodes+2) - 1
				capacity := []uint64{0, 1, 5, 100, math.MaxUint64}[r.IntN(5)]
				rate := rates(r)
				gotID, gotErr := m.Add(parent, capacity, rate)
				wantID, wantErr := ref.Add(parent, capacity, rate)
				if gotID != wantID || (gotErr == nil) != (wantErr == nil) {
					t.Fatalf("run %d step %d: model Add(%d, %d, %d) = %d, %v; reference %d, %v", run, i, parent, capacity, rate, gotID, gotErr, wantID, wantErr)
				}
			case 1:
				node := r.IntN(nodes+2) - 1
				if got, want := m.Available(node, now), ref.Available(node, now); got != want {
					t.Fatalf("run %d step %d: model Available(%d, %d) = %d, reference %d", run, i, node, now, got, want)
				}
			default:
				node := r.IntN(nodes+2) - 1
				n := r.Uint64N(6)
				if got, want := m.TryAcquire(node, now, n), ref.TryAcquire(node, now, n); got != want {
					t.Fatalf("run %d step %d: model TryAcquire(%d, %d, %d) = %v, reference %v", run, i, node, now, n, got, want)
				}
			}
		}
	}
}

func TestFairqueueModelAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for run := 0; run < 2000; run++ {
		quantum := []uint64{1, 2, 3, 100, 1 << 32}[r.IntN(5)]
		ref := reffairqueue.New(quantum)
		m := NewFairqueueModel(quantum)
		for i := 0; i < 60; i++ {
			switch r.IntN(5) {
			case 0, 1:
				s, c := uint32(r.IntN(5)), 1+r.Uint64N(3*quantum)
				m.Push(s, c)
				ref.Push(s, c)
			case 2:
				if got, want := m.Len(), ref.Len(); got != want {
					t.Fatalf("run %d step %d: model Len() = %d, reference %d", run, i, got, want)
				}
			default:
				gs, gc, gok := m.Pop()
				ws, wc, wok := ref.Pop()
				if gs != ws || gc != wc || gok != wok {
					t.Fatalf("run %d step %d: quantum %d: model Pop() = (%d, %d, %v), reference (%d, %d, %v)", run, i, quantum, gs, gc, gok, ws, wc, wok)
				}
			}
		}
	}
}

// The state beside a hierarchy step: each node's tokens against its
// capacity, after the all-or-nothing take of the grade's counterexample.
func TestHierarchyState(t *testing.T) {
	setup := call("New", "nowNs", "0")
	cx := report.Counterexample{SetupCall: &setup, Steps: []report.Step{
		step("Add(parent=Root, capacity=2, ratePerSec=0)", call("Add", "parent", "Root", "capacity", "2", "ratePerSec", "0")),
		step("Add(parent=0, capacity=5, ratePerSec=1)", call("Add", "parent", "0", "capacity", "5", "ratePerSec", "1")),
		step("TryAcquire(node=1, nowNs=0, n=3)", call("TryAcquire", "node", "1", "nowNs", "0", "n", "3")),
		step("TryAcquire(node=1, nowNs=500000000, n=2)", call("TryAcquire", "node", "1", "nowNs", "500000000", "n", "2")),
	}}
	res := Run("hierarchy", cx, Reference)
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	var wants []string
	for _, s := range res.Steps {
		wants = append(wants, s.Want)
	}
	if got := strconv.Quote(strings.Join(wants, " ")); got != `"0 1 false true"` {
		t.Errorf("wants = %s", got)
	}
	st := res.Steps[3].State
	if len(st) != 3 || st[0].Text != "0 of 2 tokens, +0/s" || st[1].Label != "node 1 (under 0)" || st[1].Text != "3 of 5 tokens, +1/s" || st[1].Value != 0.6 || st[2].Text != "t = 500,000,000 ns" {
		t.Errorf("state after step 4 = %+v", st)
	}
}

func TestGatewayReplaysTheGrade(t *testing.T) {
	replayCaptured(t, "gateway", "heartbeat-takes-token", Impls{Gateway: fixtureGateway()})
}

// randomGatewayConfig draws a valid config of one or two classes, cancels
// unlimited or limited, escalation times set or not, capacities and rates
// small or huge.
func randomGatewayConfig(r *rand.Rand) gateway.Config {
	cfg := gateway.Config{Classes: map[string]gateway.Class{}}
	for _, name := range []string{"regular", "market-maker"}[:1+r.IntN(2)] {
		o := gateway.Budget{Capacity: []uint64{1, 2, 5, math.MaxUint64}[r.IntN(4)], RatePerSec: rates(r)}
		k := gateway.Class{Orders: o}
		if r.IntN(2) == 0 {
			k.Cancels = gateway.Budget{Capacity: o.Capacity + r.Uint64N(3)*min(1, math.MaxUint64-o.Capacity), RatePerSec: o.RatePerSec + min(r.Uint64N(1000), math.MaxUint64-o.RatePerSec)}
		}
		cfg.Classes[name] = k
	}
	if r.IntN(2) == 0 {
		cfg.SilenceAfterNs = 1 + r.Uint64N(5_000_000)
	}
	if r.IntN(2) == 0 {
		cfg.DisconnectAfterNs = cfg.SilenceAfterNs + 1 + r.Uint64N(10_000_000)
	}
	return cfg
}

func TestGatewayModelAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	classes := []string{"regular", "market-maker", "nobody"}
	seen := map[string]bool{}
	for run := 0; run < 1000; run++ {
		cfg := randomGatewayConfig(r)
		start := r.Uint64N(1_000_000)
		ref, err := gateway.Reference.New(cfg, start)
		if err != nil {
			t.Fatalf("reference New(%+v): %v", cfg, err)
		}
		m := NewGatewayModel(cfg, start)
		for i, now := range randomTimes(r, start, 50) {
			session := uint64(r.IntN(3))
			var got, want string
			switch r.IntN(10) {
			case 0, 1:
				class := classes[r.IntN(3)]
				got, want = errText(m.Open(session, class, now)), errText(ref.Open(session, class, now))
			case 2:
				next := randomGatewayConfig(r)
				if r.IntN(4) == 0 {
					next.SilenceAfterNs, next.DisconnectAfterNs = 10, 5 // invalid
				}
				got, want = errText(m.Reload(next, now)), errText(ref.Reload(next, now))
			default:
				kind := gateway.Kind(r.IntN(4))
				got, want = verdictText(m.Admit(session, kind, now)), verdictText(ref.Admit(session, kind, now))
			}
			if got != want {
				t.Fatalf("run %d step %d: model %s, reference %s (cfg %+v)", run, i, got, want, cfg)
			}
			seen[strings.Fields(want)[0]] = true
		}
	}
	for _, a := range []string{"nil", "an", "Accept", "Reject", "Silent", "Disconnect"} {
		if !seen[a] {
			t.Errorf("no call answered %s…: the scripts miss a case", a)
		}
	}
}
