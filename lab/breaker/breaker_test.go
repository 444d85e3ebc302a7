package breaker_test

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"ratelab/lab/breaker"
	"ratelab/lab/guard"
)

func run(t *testing.T, name string, impl breaker.Impl) *breaker.Run {
	t.Helper()
	sc, ok := breaker.Named(name)
	if !ok {
		t.Fatalf("Named(%q) = false", name)
	}
	r, err := breaker.New(sc, impl)
	if err != nil {
		t.Fatal(err)
	}
	r.Step(sc.DurationNs)
	if !r.Done() {
		t.Fatalf("%s: not done at its duration", name)
	}
	return r
}

// halfOpen is one half-open period of a side, as its events tell it.
type halfOpen struct{ at, admitted, refused uint64 }

func halfOpens(sd *breaker.Side) []halfOpen {
	var out []halfOpen
	var cur *halfOpen
	for _, e := range sd.Events {
		switch {
		case e.Kind == breaker.KindState:
			cur = nil
			if e.State == breaker.HalfOpen {
				out = append(out, halfOpen{at: e.AtNs})
				cur = &out[len(out)-1]
			}
		case e.Kind == breaker.KindCall && cur != nil && e.Admitted:
			cur.admitted++
		case e.Kind == breaker.KindCall && cur != nil:
			cur.refused++
		}
	}
	return out
}

func TestReferenceProbesExactly(t *testing.T) {
	for _, name := range breaker.Names {
		t.Run(name, func(t *testing.T) {
			r := run(t, name, breaker.Reference)
			probes := uint64(r.Scenario().Breaker.HalfOpenProbes)
			crowded := 0
			for _, p := range halfOpens(&r.Breaker) {
				if p.admitted > probes || (p.refused > 0 && p.admitted != probes) {
					t.Errorf("half-open at %d ns: %d let through, %d refused; want %d let through when any is refused",
						p.at, p.admitted, p.refused, probes)
				}
				if p.refused > 0 {
					crowded++
				}
			}
			if crowded == 0 {
				t.Errorf("no half-open period had more callers than probes: %v", halfOpens(&r.Breaker))
			}
		})
	}
}

func TestStatesFollowTheOutage(t *testing.T) {
	r := run(t, breaker.OutageName, breaker.Reference)
	sc := r.Scenario()
	var opened, closedAfter uint64
	for _, e := range r.Breaker.Events {
		if e.Kind != breaker.KindState {
			continue
		}
		if e.State == breaker.Open && opened == 0 {
			opened = e.AtNs
		}
		if e.State == breaker.Closed && e.AtNs > sc.Down[0].ToNs && closedAfter == 0 {
			closedAfter = e.AtNs
		}
	}
	if opened < sc.Down[0].FromNs || opened > sc.Down[0].FromNs+200_000_000 {
		t.Errorf("first opened at %d ns, want soon after the outage begins at %d", opened, sc.Down[0].FromNs)
	}
	if closedAfter == 0 || closedAfter > sc.Down[0].ToNs+sc.Breaker.OpenNs+200_000_000 {
		t.Errorf("closed again at %d ns, want within an open period of the recovery at %d", closedAfter, sc.Down[0].ToNs)
	}
	if r.Breaker.State() != breaker.Closed || r.Breaker.Counts.Opens < 2 {
		t.Errorf("ends %v after %d opens; want closed, after probes failed at least once", r.Breaker.State(), r.Breaker.Counts.Opens)
	}
}

func TestLateResultsChangeNothing(t *testing.T) {
	for _, name := range []string{breaker.OutageName, breaker.SlowCallsName} {
		r := run(t, name, breaker.Reference)
		c := r.Breaker.Counts
		lateSuccessWhileOpen := 0
		for _, e := range r.Breaker.Events {
			if e.Kind != breaker.KindResult || !e.Late {
				continue
			}
			if e.TicketGen >= e.PrevGen {
				t.Errorf("%s: late result at %d of generation %d, reported in %d", name, e.AtNs, e.TicketGen, e.PrevGen)
			}
			if e.Changed() {
				t.Errorf("%s: late result at %d ns changed %v gen %d to %v gen %d", name, e.AtNs, e.PrevState, e.PrevGen, e.State, e.Gen)
			}
			if e.Success && e.PrevState == breaker.Open {
				lateSuccessWhileOpen++
			}
		}
		if c.Late == 0 || c.LateChanged != 0 || lateSuccessWhileOpen == 0 {
			t.Errorf("%s: %d late results, %d changed something, %d late successes while open; want some, none, some",
				name, c.Late, c.LateChanged, lateSuccessWhileOpen)
		}
		t.Logf("%s: %d late results, %d of them successes while open", name, c.Late, lateSuccessWhileOpen)
	}
}

// naive is a breaker without generations: every report counts, or with
// whileOpen false, every report but those that arrive while it is open.
type naive struct {
	whileOpen           bool
	cfg                 breaker.Config
	state               breaker.State
	openedAt, latest    uint64
	failures, successes uint32
	probes              uint32
}

func (n *naive) advance(now uint64) {
	n.latest = max(n.latest, now)
	if n.state == breaker.Open && n.latest >= n.openedAt+n.cfg.OpenNs {
		n.state, n.probes, n.successes = breaker.HalfOpen, 0, 0
	}
}

func (n *naive) Allow(now uint64) (uint64, bool) {
	n.advance(now)
	switch n.state {
	case breaker.Open:
		return 0, false
	case breaker.HalfOpen:
		if n.probes >= n.cfg.HalfOpenProbes {
			return 0, false
		}
		n.probes++
	}
	return 1, true
}

func (n *naive) Done(_ uint64, ok bool, now uint64) {
	n.advance(now)
	if n.state == breaker.Open && !n.whileOpen {
		return
	}
	switch {
	case !ok && n.state != breaker.Open:
		n.failures++
		if n.state == breaker.HalfOpen || n.failures >= n.cfg.FailureThreshold {
			n.state, n.openedAt, n.failures = breaker.Open, n.latest, 0
		}
	case ok && n.state == breaker.Closed:
		n.failures = 0
	case ok:
		n.successes++
		if n.state == breaker.Open || n.successes >= n.cfg.HalfOpenProbes {
			n.state, n.failures = breaker.Closed, 0
		}
	}
}

func (n *naive) State(now uint64) breaker.State { n.advance(now); return n.state }

func TestLateResultsExposeABreakerWithoutGenerations(t *testing.T) {
	for _, whileOpen := range []bool{true, false} {
		impl := breaker.Impl{Name: "Naive", New: func(cfg breaker.Config, now uint64) (breaker.Breaker, error) {
			return &naive{whileOpen: whileOpen, cfg: cfg, latest: now}, nil
		}}
		r := run(t, breaker.SlowCallsName, impl)
		if r.Breaker.Counts.LateChanged == 0 {
			t.Errorf("a breaker without generations (reports counted while open: %v): %d late results, none changed anything; want some changed",
				whileOpen, r.Breaker.Counts.Late)
		}
		ref := run(t, breaker.SlowCallsName, breaker.Reference)
		if !whileOpen && r.Breaker.Counts.DownAttempts <= ref.Breaker.Counts.DownAttempts {
			t.Errorf("a breaker closed by late successes: %d attempts at the down backend, the reference %d; want more",
				r.Breaker.Counts.DownAttempts, ref.Breaker.Counts.DownAttempts)
		}
	}
}

func TestTheBreakerSparesTheBackend(t *testing.T) {
	for _, name := range breaker.Names {
		r := run(t, name, breaker.Reference)
		on, off := r.Breaker.Counts, r.Bare.Counts
		if on.Requests != off.Requests || on.Requests == 0 {
			t.Errorf("%s: %d requests with the breaker, %d without; want the same traffic", name, on.Requests, off.Requests)
		}
		if off.DownAttempts <= on.DownAttempts {
			t.Errorf("%s: attempts while down %d without the breaker, %d with; want more without", name, off.DownAttempts, on.DownAttempts)
		}
		if off.Refused != 0 || off.Late != 0 || len(halfOpens(&r.Bare)) != 0 {
			t.Errorf("%s: the side without a breaker refused %d, had %d late results", name, off.Refused, off.Late)
		}
		t.Logf("%s: attempts at the down backend %d with the breaker, %d without; requests failed %d and %d",
			name, on.DownAttempts, off.DownAttempts, on.RequestsFailed, off.RequestsFailed)
	}
}

func TestDeterministicAndStepIndependent(t *testing.T) {
	sc, _ := breaker.Named(breaker.OutageName)
	events := func(seed uint64, steps []uint64) [2][]breaker.Event {
		sc.Seed = seed
		r, err := breaker.New(sc, breaker.Reference)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range steps {
			r.Step(u)
		}
		return [2][]breaker.Event{r.Breaker.Events, r.Bare.Events}
	}
	var fine []uint64
	for u := uint64(0); u <= sc.DurationNs+16_700_000; u += 16_700_000 {
		fine = append(fine, u)
	}
	whole := []uint64{sc.DurationNs}
	a, b, c := events(42, whole), events(42, fine), events(42, whole)
	for i := range 2 {
		if !slices.Equal(a[i], c[i]) {
			t.Errorf("side %d: two runs of the same seed differ", i)
		}
		if !slices.Equal(a[i], b[i]) {
			t.Errorf("side %d: the events depend on how the run is stepped", i)
		}
	}
	if d := events(43, whole); slices.Equal(a[0], d[0]) {
		t.Error("seeds 42 and 43 give the same events")
	}
}

func TestEncodeLayout(t *testing.T) {
	r := run(t, breaker.OutageName, breaker.Reference)
	var sent [2]int
	b := r.Encode(nil, &sent)
	f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])) }
	if f(breaker.HeaderDone) != 1 || f(breaker.HeaderNow) != float64(r.Scenario().DurationNs) {
		t.Errorf("header: done %v, now %v", f(breaker.HeaderDone), f(breaker.HeaderNow))
	}
	n0 := int(f(breaker.HeaderEvents))
	if n0 != min(len(r.Breaker.Events), breaker.MaxEvents) || len(b) > breaker.EncodedLen {
		t.Errorf("%d events of the breaker's %d in the batch, %d bytes", n0, len(r.Breaker.Events), len(b))
	}
	so := breaker.Header
	if f(so+breaker.SideLate) != float64(r.Breaker.Counts.Late) || f(so+breaker.SideOpens) != float64(r.Breaker.Counts.Opens) ||
		f(so+breaker.SideDownNs) != 3.5e9 {
		t.Errorf("side fields: late %v opens %v down %v", f(so+breaker.SideLate), f(so+breaker.SideOpens), f(so+breaker.SideDownNs))
	}
	for i := range n0 {
		e, o := r.Breaker.Events[i], breaker.Header+2*breaker.SideFields+i*breaker.EventFields
		if f(o+breaker.EvAt) != float64(e.AtNs) || f(o+breaker.EvKind) != float64(e.Kind) || f(o+breaker.EvFlags) != float64(e.Flags()) ||
			f(o+breaker.EvGen) != float64(e.Gen) || f(o+breaker.EvPrevState) != float64(e.PrevState) {
			t.Fatalf("event %d encoded differently from %+v", i, e)
		}
	}
	for f(breaker.HeaderPending) > 0 {
		b = r.Encode(b[:0], &sent)
	}
	if sent[0] != len(r.Breaker.Events) || sent[1] != len(r.Bare.Events) {
		t.Errorf("sent %v of %d and %d events", sent, len(r.Breaker.Events), len(r.Bare.Events))
	}
}

func TestAStubStopsOnlyTheBreakerSide(t *testing.T) {
	stub := breaker.Impl{Name: "Yours", New: func(breaker.Config, uint64) (breaker.Breaker, error) {
		panic("breaker: New is not implemented yet")
	}}
	r := run(t, breaker.OutageName, stub)
	if got := r.Breaker.ImplStatus(); got != "Yours: "+guard.NotImplemented {
		t.Errorf("ImplStatus() = %q, want Yours: %s", got, guard.NotImplemented)
	}
	if r.Bare.Stopped || r.Bare.Counts.Requests == 0 {
		t.Error("the side without a breaker must run on")
	}
	missing, _ := breaker.New(r.Scenario(), breaker.Impl{Name: "Yours", Missing: "your code does not build"})
	if got := missing.Breaker.ImplStatus(); got != "Yours: your code does not build" {
		t.Errorf("ImplStatus() = %q for missing code", got)
	}
	bad := breaker.Impl{Name: "Yours", New: func(cfg breaker.Config, now uint64) (breaker.Breaker, error) {
		return badState{}, nil
	}}
	if got := run(t, breaker.OutageName, bad).Breaker.ImplStatus(); !strings.Contains(got, "State returned 7") {
		t.Errorf("ImplStatus() = %q for a State out of range", got)
	}
}

type badState struct{}

func (badState) Allow(uint64) (uint64, bool) { return 1, true }
func (badState) Done(uint64, bool, uint64)   {}
func (badState) State(uint64) breaker.State  { return 7 }

func TestValidate(t *testing.T) {
	good, _ := breaker.Named(breaker.OutageName)
	for name, edit := range map[string]func(*breaker.Scenario){
		"Clients":  func(s *breaker.Scenario) { s.Clients = 0 },
		"Tries":    func(s *breaker.Scenario) { s.Tries = 0 },
		"latency":  func(s *breaker.Scenario) { s.TimeoutNs = 0 },
		"thousand": func(s *breaker.Scenario) { s.HangPerMille = 1001 },
		"outage":   func(s *breaker.Scenario) { s.Down = []breaker.Span{{5, 5}} },
	} {
		sc := good
		edit(&sc)
		if _, err := breaker.New(sc, breaker.Reference); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("New with a bad %s: error %v, want one naming it", name, err)
		}
	}
	if _, ok := breaker.Named("nope"); ok {
		t.Error(`Named("nope") = true`)
	}
}
