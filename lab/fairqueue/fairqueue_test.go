package fairqueue

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// run runs cfg with impl for untilNs and returns the run.
func run(t *testing.T, cfg Config, impl Impl, untilNs uint64) *Run {
	t.Helper()
	r, err := New(cfg, impl)
	if err != nil {
		t.Fatal(err)
	}
	for r.Now() < untilNs {
		r.Step(untilNs, MaxBins)
	}
	return r
}

// TestDRRBound checks Shreedhar and Varghese's bound as the contract
// states it: over any interval in which two sessions both have commands
// waiting, DRR serves them costs that differ by less than 2 × quantum +
// the largest cost. It is checked for every pair, in the lab's scenario
// and in one where every session stays backlogged, at several quanta and
// costs; in each, sessions were backlogged together for a good while, so
// the bound was put to the test. In the lab's scenario the FIFO lets the
// burster take most of the engine; round robin, which counts commands, breaks the bound as
// soon as costs differ.
func TestDRRBound(t *testing.T) {
	type scenario struct {
		name string
		cfg  func(*Config)
	}
	scenarios := []scenario{
		{"lab", func(*Config) {}},
		{"all backlogged", func(c *Config) { c.LightRate, c.HeavyLoad, c.BurstRate, c.BurstSize = 400, 1.5, 16, 4000 }},
	}
	for _, sc := range scenarios {
		for _, qc := range [][2]uint64{{5, 5}, {1, 5}, {1, 20}, {3, 7}, {20, 5}, {64, 1}, {2, 128}} {
			for seed := uint64(1); seed <= 3; seed++ {
				cfg := DefaultConfig()
				sc.cfg(&cfg)
				cfg.Quantum, cfg.HeavyCost, cfg.Seed = qc[0], qc[1], seed
				name := fmt.Sprintf("%s/quantum=%d/cost=%d/seed=%d", sc.name, qc[0], qc[1], seed)
				t.Run(name, func(t *testing.T) {
					r := run(t, cfg, Reference, 40e9)
					bound := r.Bound()
					if bound != 2*cfg.Quantum+max(cfg.HeavyCost, 1) {
						t.Fatalf("Bound() = %d, want 2×%d + %d", bound, cfg.Quantum, cfg.HeavyCost)
					}
					d := r.Lane(DRR)
					if d.Stopped {
						t.Fatalf("the reference stopped: %s", d.Status)
					}
					joint := 0
					for i := range NumSessions {
						for j := i + 1; j < NumSessions; j++ {
							if g := d.Gaps[i][j]; g >= bound {
								t.Errorf("DRR: %s and %s, both backlogged, were served costs %d apart; the bound is %d", SessionName(i), SessionName(j), g, bound)
							}
							if d.Gaps[i][j] > 0 {
								joint++
							}
						}
					}
					if d.JointNs < 2e9 || joint == 0 {
						t.Errorf("DRR: sessions were backlogged together for %d ns, %d pairs: the bound was not tested", d.JointNs, joint)
					}
					f := r.Lane(FIFO)
					if p := f.Sessions[Burster].Peak; sc.name == "lab" && p <= 0.5 {
						t.Errorf("FIFO: the burster's peak share is %.0f%%, want most of the engine", 100*p)
					}
					if f.WorstGap < bound {
						t.Errorf("FIFO: worst gap %d, want it past the bound %d", f.WorstGap, bound)
					}
					if rr := r.Lane(RR); cfg.HeavyCost > 2*cfg.Quantum && rr.WorstGap < bound {
						t.Errorf("RR with costs 1 and %d: worst gap %d, want it past the bound %d", cfg.HeavyCost, rr.WorstGap, bound)
					}
				})
			}
		}
	}
}

// Within a busy period each scheduler serves the same work, but not in
// the same order: the FIFO keeps arrival order and makes everyone wait
// behind the burst; round robin and DRR sequence commands out of arrival
// order and keep the light sessions' delays short.
func TestLabScenario(t *testing.T) {
	r := run(t, DefaultConfig(), Reference, 60e9)
	f, rr, d := r.Lane(FIFO), r.Lane(RR), r.Lane(DRR)
	if f.OutOfOrder != 0 {
		t.Errorf("FIFO: %d commands out of arrival order, want 0", f.OutOfOrder)
	}
	if rr.OutOfOrder == 0 || d.OutOfOrder == 0 {
		t.Errorf("out of arrival order: RR %d, DRR %d; want some under contention", rr.OutOfOrder, d.OutOfOrder)
	}
	for s := 2; s < NumSessions; s++ {
		fp, dp := f.Sessions[s].P99, d.Sessions[s].P99
		if !(dp > 0 && dp*10 < fp) {
			t.Errorf("session %s: p99 delay %.1f ms under DRR, %.1f ms under the FIFO; want DRR's a tenth or less", SessionName(s), dp/1e6, fp/1e6)
		}
	}
	// RR counts commands: B's cost-5 commands go through as fast as the
	// burster's cost-1 ones, so B waits less under RR than under DRR.
	if !(rr.Sessions[Heavy].P99 < d.Sessions[Heavy].P99) {
		t.Errorf("B's p99: %.1f ms under RR, %.1f ms under DRR; want RR's lower", rr.Sessions[Heavy].P99/1e6, d.Sessions[Heavy].P99/1e6)
	}
	for l := range Lane(NumLanes) {
		st := r.Lane(l)
		for s, ss := range st.Sessions {
			c := r.cost(s)
			if ss.Served+uint64(ss.Waiting)*c != ss.Arrived*c {
				t.Errorf("%s, session %s: %d cost served, %d waiting, %d arrived", l, SessionName(s), ss.Served, ss.Waiting, ss.Arrived)
			}
		}
		if l != FIFO && st.Sessions[Burster].Peak >= 0.5 {
			t.Errorf("%s: the burster's peak share is %.0f%%, want less than half", l, 100*st.Sessions[Burster].Peak)
		}
	}
}

// The same run gives the same bytes however it is cut into steps.
func TestStepsCutAnyWay(t *testing.T) {
	encode := func(steps []uint64, maxBins int) []byte {
		r, err := New(DefaultConfig(), Reference)
		if err != nil {
			t.Fatal(err)
		}
		var bins []Bin
		for _, until := range steps {
			for r.Now()+BinNs <= until {
				bins = append(bins, r.Step(until, maxBins)...)
			}
		}
		return r.EncodeStep(nil, bins)
	}
	all := func(step uint64) []uint64 {
		var s []uint64
		for t := step; t <= 30e9; t += step {
			s = append(s, t)
		}
		return append(s, 30e9)
	}
	want := encode([]uint64{30e9}, MaxBins)
	for _, c := range []struct {
		step    uint64
		maxBins int
	}{{16_700_000, MaxBins}, {1e9, 3}, {250_000_000, 1}} {
		if got := encode(all(c.step), c.maxBins); !bytes.Equal(got, want) {
			t.Errorf("steps of %d ns, %d bins at most: the state differs from one step", c.step, c.maxBins)
		}
	}
}

func TestEncodeStep(t *testing.T) {
	r, _ := New(DefaultConfig(), Reference)
	bins := r.Step(3e9, 10)
	b := r.EncodeStep(nil, bins)
	if len(b) != MaxStepBytes(10) || len(bins) != 10 {
		t.Fatalf("%d bins in %d bytes, want 10 in %d", len(bins), len(b), MaxStepBytes(10))
	}
}

// panicky is a Scheduler whose methods panic with msg.
type panicky struct{ msg string }

func (p panicky) Push(uint32, uint64)         { panic(p.msg) }
func (p panicky) Pop() (uint32, uint64, bool) { panic(p.msg) }
func (p panicky) Len() int                    { panic(p.msg) }
func (p panicky) String() string              { return "panicky" }
func newPanicky(msg string) func(uint64) Scheduler {
	return func(uint64) Scheduler { return panicky{msg} }
}

// liar serves the FIFO's commands but says they are another session's.
type liar struct{ fifo }

func (l *liar) Pop() (uint32, uint64, bool) {
	s, c, ok := l.fifo.Pop()
	return (s + 1) % NumSessions, c, ok
}

// TestYours: learner code that panics, is missing, or answers what was
// never pushed stops the DRR lane with the reason; FIFO and RR go on.
func TestYours(t *testing.T) {
	tests := []struct {
		name string
		impl Impl
		want string
	}{
		{"stub", Impl{Name: "Yours", New: func(uint64) Scheduler { panic("fairqueue: New is not implemented yet") }}, "Yours: not implemented yet"},
		{"push stub", Impl{Name: "Yours", New: newPanicky("fairqueue: Push is not implemented yet")}, "Yours: not implemented yet"},
		{"panics", Impl{Name: "Yours", New: newPanicky("index out of range")}, "Yours: panicked: index out of range"},
		{"nil", Impl{Name: "Yours", New: func(uint64) Scheduler { return nil }}, "Yours: panicked: New returned nil"},
		{"missing", Impl{Name: "Yours", Missing: "your code does not build"}, "Yours: your code does not build"},
		{"liar", Impl{Name: "Yours", New: func(uint64) Scheduler { return &liar{} }}, "Yours: Pop() returned session"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, DefaultConfig(), tt.impl, 5e9)
			if !r.Stopped() || !strings.HasPrefix(r.ImplStatus(), tt.want) {
				t.Errorf("ImplStatus() = %q (stopped %v), want it to start %q", r.ImplStatus(), r.Stopped(), tt.want)
			}
			if f := r.Lane(FIFO); f.Stopped || f.Served == 0 {
				t.Errorf("FIFO: stopped %v, %d served; want it running", f.Stopped, f.Served)
			}
		})
	}
	r := run(t, DefaultConfig(), Impl{Name: "Yours", New: Reference.New}, 5e9)
	r.CheckLen()
	if r.Stopped() || r.ImplStatus() != "Yours" {
		t.Errorf("the reference as Yours: %q", r.ImplStatus())
	}
}

// badLen is a correct queue whose Len is off by one.
type badLen struct{ fifo }

func (b *badLen) Len() int { return b.fifo.Len() + 1 }

func TestCheckLen(t *testing.T) {
	r := run(t, DefaultConfig(), Impl{Name: "Yours", New: func(uint64) Scheduler { return &badLen{} }}, 1e9)
	r.CheckLen()
	if !strings.Contains(r.ImplStatus(), "Len() = ") {
		t.Errorf("ImplStatus() = %q, want the wrong Len named", r.ImplStatus())
	}
}

func TestRoundRobin(t *testing.T) {
	var q roundRobin
	for _, c := range []struct {
		s    uint32
		cost uint64
	}{{1, 5}, {1, 5}, {1, 5}, {2, 1}, {3, 1}, {2, 1}} {
		q.Push(c.s, c.cost)
	}
	var got []string
	for {
		s, c, ok := q.Pop()
		if !ok {
			break
		}
		got = append(got, fmt.Sprintf("%d:%d", s, c))
	}
	if want := "1:5 2:1 3:1 1:5 2:1 1:5"; strings.Join(got, " ") != want {
		t.Errorf("round robin served %s, want %s", strings.Join(got, " "), want)
	}
	if q.Len() != 0 {
		t.Errorf("Len() = %d after emptying", q.Len())
	}
}

func TestValidate(t *testing.T) {
	bad := []func(*Config){
		func(c *Config) { c.Quantum = 0 },
		func(c *Config) { c.Quantum = 1<<32 + 1 },
		func(c *Config) { c.HeavyCost = 0 },
		func(c *Config) { c.Quantum, c.HeavyCost = 1, 65 },
		func(c *Config) { c.BurstRate = 0 },
		func(c *Config) { c.CapacityPerSec = 3 },
		func(c *Config) { c.PeriodNs = 0 },
		func(c *Config) { c.LightRate = -1 },
	}
	for i, f := range bad {
		c := DefaultConfig()
		f(&c)
		if _, err := New(c, Reference); err == nil {
			t.Errorf("config %d: %+v: no error", i, c)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Error(err)
	}
}
