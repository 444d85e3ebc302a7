package throttle

import (
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"testing"

	ref "ratelab/solutions/throttle"
)

// run plays preset name to its end in frames of 16.7 ms.
func run(t *testing.T, name string, impl Impl, seed uint64) *Run {
	t.Helper()
	sc, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(sc, impl, seed)
	if err != nil {
		t.Fatal(err)
	}
	for u := uint64(0); !r.Done(); u += 16_700_000 {
		r.Step(u)
	}
	return r
}

func writes(r *Run) []Event {
	var out []Event
	for _, e := range r.Events {
		if e.Kind == Write {
			out = append(out, e)
		}
	}
	return out
}

// Every verdict of the reference is the rule it names: a refusal by the
// pause while Paused, by the cap while Degraded at it, by the rate limit
// at the address's limit; nothing else refuses, and nothing passes while
// Paused.
func TestEveryVerdictHasItsRule(t *testing.T) {
	for _, sc := range Presets() {
		t.Run(sc.Name, func(t *testing.T) {
			r := run(t, sc.Name, Reference, 1)
			if r.Stopped {
				t.Fatalf("stopped: %s", r.Status)
			}
			var n [NumOutcomes]int
			for _, e := range writes(r) {
				n[e.Outcome]++
				st, white := e.Before, sc.Addresses[e.Addr].Whitelisted
				var ok bool
				switch e.Outcome {
				case Accepted:
					ok = st.State != ref.Paused && (st.State != ref.Degraded || st.DegradedWrites < st.DegradedWriteLimit) && (white || e.Used < e.Limit)
				case Paused:
					ok = st.State == ref.Paused
				case DegradedCap:
					ok = st.State == ref.Degraded && st.DegradedWrites >= st.DegradedWriteLimit
				case RateLimited:
					ok = st.State != ref.Paused && !white && e.Used >= e.Limit
				}
				if !ok {
					t.Fatalf("write of %s at %d ns: %s with %+v, limit %d, used %d", sc.Addresses[e.Addr].Name, e.AtNs, e.Outcome, st, e.Limit, e.Used)
				}
			}
			if n[Accepted] == 0 || n[Other] != 0 {
				t.Errorf("outcomes %v: want accepted writes and no other error", n)
			}
			t.Logf("outcomes (accepted, paused, degraded cap, rate limit, other): %v", n)
		})
	}
}

// A Degraded or Paused period ends by itself at exactly since+TTL: the gate
// is still in it one nanosecond before.
func TestPeriodsEndAtTheirTTL(t *testing.T) {
	sc, _ := Preset("auto-recovery")
	r := run(t, sc.Name, Reference, 1)
	var ended []State
	for _, e := range r.Events {
		if e.Kind != Recovered {
			continue
		}
		if e.AtNs != e.SinceNs+sc.Config.Breaker.TTLNs || e.LastSeenNs != e.AtNs-1 || e.After.State != ref.Normal {
			t.Errorf("recovered at %d from a period since %d, last seen in it at %d: want since+%d and one ns before",
				e.AtNs, e.SinceNs, e.LastSeenNs, sc.Config.Breaker.TTLNs)
		}
		ended = append(ended, e.Before.State)
	}
	if want := []State{ref.Degraded, ref.Paused}; !reflect.DeepEqual(ended, want) {
		t.Errorf("periods that ended by themselves: %v, want %v", ended, want)
	}
}

// The whitelisted issuer passes above the global limit, and is refused at
// the degraded cap all the same.
func TestWhitelistedIsCappedWhileDegraded(t *testing.T) {
	sc, _ := Preset("whitelisted-degraded")
	r := run(t, sc.Name, Reference, 1)
	c := r.Counts[Whitelisted]
	if c[DegradedCap] == 0 || c[RateLimited] != 0 {
		t.Errorf("whitelisted issuer: %v; want refusals at the degraded cap and none by the rate limit", c)
	}
	perSecond := map[uint64]uint32{}
	for _, e := range writes(r) {
		if e.Addr == Whitelisted && e.Outcome == Accepted {
			perSecond[e.AtNs/1e9]++
		}
	}
	most := uint32(0)
	for _, n := range perSecond {
		most = max(most, n)
	}
	if most <= sc.Config.Rate.MaxCalls {
		t.Errorf("whitelisted issuer: at most %d accepted in a second, want more than the global %d", most, sc.Config.Rate.MaxCalls)
	}
}

// Congestion refuses nothing itself: while the level is High, the
// refusals under the global limit come from the rate limit at the MaxCalls
// the keeper cut.
func TestHighRefusesThroughTheRateLimit(t *testing.T) {
	sc, _ := Preset("busy-day")
	r := run(t, sc.Name, Reference, 1)
	cut := 0
	for _, e := range writes(r) {
		if e.Before.Level != ref.High || e.Outcome == Accepted {
			continue
		}
		if e.Before.State == ref.Normal && e.Outcome != RateLimited {
			t.Fatalf("at %d ns while High and Normal: %s, want the rate limit", e.AtNs, e.Outcome)
		}
		if e.Outcome == RateLimited && e.Addr != OwnLimit && e.Limit == e.Before.MaxCalls && e.Limit < sc.Config.Rate.MaxCalls {
			cut++
		}
	}
	if cut == 0 {
		t.Error("no write was refused by the rate limit at a MaxCalls congestion cut")
	}
}

func TestSameSeedSameRun(t *testing.T) {
	a, b, c := run(t, "busy-day", Reference, 7), run(t, "busy-day", Reference, 7), run(t, "busy-day", Reference, 8)
	if !reflect.DeepEqual(a.Events, b.Events) {
		t.Error("two runs with seed 7 differ")
	}
	if reflect.DeepEqual(a.Events, c.Events) {
		t.Error("seeds 7 and 8 made the same run")
	}
}

// The operator's buttons act at the time reached: a pause refuses the next
// writes, Normal lets them through again, a done run ignores them.
func TestAct(t *testing.T) {
	sc, _ := Preset("whitelisted-degraded")
	r, err := New(sc, Reference, 1)
	if err != nil {
		t.Fatal(err)
	}
	r.Step(1e9)
	from := len(r.Events)
	r.Act(ref.Paused)
	r.Step(2e9)
	mid := len(r.Events)
	r.Act(ref.Normal)
	r.Step(2.5e9)
	if e := r.Events[from]; e.Kind != Operator || e.AtNs != 1e9 || e.After.State != ref.Paused || e.After.RecoverAtNs != 1e9+sc.Config.Breaker.TTLNs {
		t.Fatalf("first event after Act(Paused) = %+v, want the operator's pause at 1 s with its recovery due", e)
	}
	for _, e := range r.Events[from+1 : mid] {
		if e.Kind == Write && e.Outcome != Paused {
			t.Fatalf("write at %d ns while paused: %s", e.AtNs, e.Outcome)
		}
	}
	accepted := 0
	for _, e := range r.Events[mid+1:] {
		if e.Kind == Write && e.Outcome == Accepted {
			accepted++
		}
	}
	if accepted == 0 {
		t.Error("no write accepted after Act(Normal)")
	}
	r.Step(sc.DurationNs)
	n := len(r.Events)
	r.Act(ref.Paused)
	if len(r.Events) != n {
		t.Error("a done run took an operator's action")
	}
}

// stubGate is a gate whose every method panics as an exercise stub does.
type stubGate struct{}

func (stubGate) SetState(State, uint64)                 { panic("not implemented") }
func (stubGate) SetIssuerLimit(uint64, RateLimit) error { panic("not implemented") }
func (stubGate) SetWhitelisted(uint64, bool)            { panic("not implemented") }
func (stubGate) Write(uint64, uint64) error             { panic("not implemented") }
func (stubGate) AdjustCongestion(uint64) Level          { panic("not implemented") }
func (stubGate) Status(uint64) Status                   { panic("not implemented") }

// oddGate refuses every write with an error of its own.
type oddGate struct{}

func (oddGate) SetState(State, uint64)                 {}
func (oddGate) SetIssuerLimit(uint64, RateLimit) error { return nil }
func (oddGate) SetWhitelisted(uint64, bool)            {}
func (oddGate) Write(uint64, uint64) error             { return errors.New("busy") }
func (oddGate) AdjustCongestion(uint64) Level          { return ref.NormalLoad }
func (oddGate) Status(uint64) Status                   { return Status{MaxCalls: 8, WindowNs: 1e9} }

func TestYoursStopsOrIsShownAsItAnswers(t *testing.T) {
	cases := []struct {
		name, status string
		impl         Impl
	}{
		{"stub New", "Yours: not implemented yet", Impl{Name: "Yours", New: func(Config, uint64) (Gate, error) { panic("throttle: New is not implemented yet") }}},
		{"stub methods", "Yours: not implemented yet", Impl{Name: "Yours", New: func(Config, uint64) (Gate, error) { return stubGate{}, nil }}},
		{"missing", "Yours: your code does not build", Impl{Name: "Yours", Missing: "your code does not build"}},
		{"New fails", "Yours: New failed: no", Impl{Name: "Yours", New: func(Config, uint64) (Gate, error) { return nil, errors.New("no") }}},
		{"other error", "Yours", Impl{Name: "Yours", New: func(Config, uint64) (Gate, error) { return oddGate{}, nil }}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, "busy-day", c.impl, 1)
			if r.ImplStatus() != c.status {
				t.Errorf("ImplStatus() = %q, want %q", r.ImplStatus(), c.status)
			}
			if _, ok := r.Last(); ok == r.Stopped {
				t.Errorf("Last() ok = %v for a run stopped = %v", ok, r.Stopped)
			}
			if !r.Stopped && (r.Counts[Heavy][Other] == 0 || r.OtherError() != "busy") {
				t.Errorf("counts %v, OtherError %q: want every write an other error, busy", r.Counts[Heavy], r.OtherError())
			}
		})
	}
}

func TestNewRefusesBadScenarios(t *testing.T) {
	sc, _ := Preset("")
	bad := []func(*Scenario){
		func(s *Scenario) { s.Addresses = nil },
		func(s *Scenario) { s.Addresses = append(s.Addresses, s.Addresses[0]) },
		func(s *Scenario) { s.KeeperEveryNs = 0 },
		func(s *Scenario) { s.DurationNs = 0 },
		func(s *Scenario) { s.Addresses = []Address{{Name: "late", Phases: []Phase{{1, 1}}}} },
	}
	for i, f := range bad {
		s := sc
		s.Addresses = append([]Address(nil), sc.Addresses...)
		f(&s)
		if _, err := New(s, Reference, 1); err == nil {
			t.Errorf("bad scenario %d: no error", i)
		}
	}
	if _, err := Preset("nope"); err == nil {
		t.Error(`Preset("nope"): no error`)
	}
}

// Encode hands the events over in batches of at most MaxEvents, with the
// header's counts and Status.
func TestEncode(t *testing.T) {
	r := run(t, "busy-day", Reference, 1)
	var sent, total int
	for i := 0; ; i++ {
		b := r.Encode(nil, &sent)
		v := func(k int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b[8*k:])) }
		n := int(v(HeaderEvents))
		if len(b) != 8*(Header+n*EventFields) || len(b) > EncodedLen {
			t.Fatalf("batch %d: %d bytes for %d events", i, len(b), n)
		}
		if i == 0 {
			st, _ := r.Last()
			if v(HeaderStatusOK) != 1 || v(HeaderStatus+StMaxCalls) != float64(st.MaxCalls) || v(HeaderDone) != 1 ||
				v(HeaderCounts+Heavy*int(NumOutcomes)+int(RateLimited)) != float64(r.Counts[Heavy][RateLimited]) {
				t.Fatal("header does not hold the run's Status and counts")
			}
			if e := r.Events[0]; v(Header+EvAt) != float64(e.AtNs) || v(Header+EvKind) != float64(e.Kind) {
				t.Fatal("first event not encoded first")
			}
		}
		total += n
		if v(HeaderPending) == 0 {
			break
		}
	}
	if total != len(r.Events) || total <= MaxEvents {
		t.Errorf("encoded %d events of %d; want all, in more than one batch", total, len(r.Events))
	}
}
