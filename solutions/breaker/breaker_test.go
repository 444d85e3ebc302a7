package breaker_test

import (
	"math"
	"strings"
	"testing"

	"ratelab/solutions/breaker"
)

// step is one call of a test's script: Allow (want ok), Done of the ticket
// of an earlier Allow step (from), or of a ticket never issued (bogus), or
// State (want state).
type step struct {
	call    string // "allow", "done", "state"
	now     uint64
	ok      bool          // allow: the answer wanted
	from    int           // done: the index of the Allow step whose ticket is reported
	bogus   uint64        // done: if from < 0, this ticket (never issued)
	success bool          // done
	state   breaker.State // state: the answer wanted
}

func allow(now uint64, ok bool) step { return step{call: "allow", now: now, ok: ok} }
func done(from int, success bool, now uint64) step {
	return step{call: "done", now: now, from: from, success: success}
}
func bogus(ticket uint64, success bool, now uint64) step {
	return step{call: "done", now: now, from: -1, bogus: ticket, success: success}
}
func state(now uint64, s breaker.State) step { return step{call: "state", now: now, state: s} }

func TestBreaker(t *testing.T) {
	cfg := breaker.Config{FailureThreshold: 2, OpenNs: 100, HalfOpenProbes: 2}
	tests := []struct {
		name  string
		cfg   breaker.Config
		start uint64
		steps []step
	}{
		{"threshold opens", cfg, 0, []step{
			allow(0, true), allow(0, true), done(0, false, 1), state(1, breaker.Closed),
			done(1, false, 2), state(2, breaker.Open), allow(3, false),
		}},
		{"a success resets the count", cfg, 0, []step{
			allow(0, true), allow(0, true), allow(0, true),
			done(0, false, 1), done(1, true, 2), done(2, false, 3), state(3, breaker.Closed),
		}},
		{"open until exactly OpenNs", cfg, 0, []step{
			allow(0, true), done(0, false, 10), allow(10, true), done(2, false, 10),
			state(109, breaker.Open), allow(109, false), state(110, breaker.HalfOpen),
		}},
		{"half-open lets HalfOpenProbes through", cfg, 0, []step{
			allow(0, true), done(0, false, 0), allow(0, true), done(2, false, 0),
			allow(100, true), allow(100, true), allow(100, false), state(100, breaker.HalfOpen),
			done(4, true, 101), state(101, breaker.HalfOpen), done(5, true, 102), state(102, breaker.Closed),
			allow(102, true),
		}},
		{"one failed probe reopens from now", cfg, 0, []step{
			allow(0, true), done(0, false, 0), allow(0, true), done(2, false, 0),
			allow(100, true), done(4, false, 150), state(249, breaker.Open), state(250, breaker.HalfOpen),
		}},
		{"stale tickets are ignored", breaker.Config{FailureThreshold: 1, OpenNs: 100, HalfOpenProbes: 1}, 0, []step{
			allow(0, true), allow(0, true), done(0, false, 1), state(1, breaker.Open),
			done(1, true, 2), state(2, breaker.Open), // the slow call cannot close it
			allow(101, true), done(1, false, 102), state(102, breaker.HalfOpen), // nor reopen it
			done(6, true, 103), state(103, breaker.Closed),
		}},
		{"a closed ticket from before the last close is ignored", breaker.Config{FailureThreshold: 1, OpenNs: 10, HalfOpenProbes: 1}, 0, []step{
			allow(0, true), allow(0, true), done(0, false, 0), allow(10, true), done(3, true, 10),
			done(1, false, 11), state(11, breaker.Closed),
		}},
		{"tickets never issued are ignored", breaker.Config{FailureThreshold: 1, OpenNs: 10, HalfOpenProbes: 1}, 0, []step{
			bogus(0, false, 0), bogus(1, false, 0), state(0, breaker.Closed),
			allow(0, true), bogus(math.MaxUint64, false, 0), state(0, breaker.Closed),
		}},
		{"the clock never steps back", cfg, 1000, []step{
			allow(1000, true), done(0, false, 1000), allow(500, true), done(2, false, 500),
			state(1099, breaker.Open), state(1100, breaker.HalfOpen), state(0, breaker.HalfOpen),
		}},
		{"an open period past MaxUint64 never ends", breaker.Config{FailureThreshold: 1, OpenNs: 10, HalfOpenProbes: 1}, math.MaxUint64 - 5, []step{
			allow(math.MaxUint64-5, true), done(0, false, math.MaxUint64-5),
			state(math.MaxUint64, breaker.Open), allow(math.MaxUint64, false), allow(3, false),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := breaker.New(tt.cfg, tt.start)
			if err != nil {
				t.Fatalf("New(%+v) = %v", tt.cfg, err)
			}
			tickets := make([]uint64, len(tt.steps))
			for i, s := range tt.steps {
				switch s.call {
				case "allow":
					var ok bool
					tickets[i], ok = b.Allow(s.now)
					if ok != s.ok {
						t.Fatalf("step %d: Allow(%d) ok = %v, want %v", i, s.now, ok, s.ok)
					}
				case "done":
					ticket := s.bogus
					if s.from >= 0 {
						ticket = tickets[s.from]
					}
					b.Done(ticket, s.success, s.now)
				case "state":
					if got := b.State(s.now); got != s.state {
						t.Fatalf("step %d: State(%d) = %d, want %d", i, s.now, got, s.state)
					}
				}
			}
		})
	}
}

func TestNewNamesTheZeroField(t *testing.T) {
	tests := []struct {
		cfg  breaker.Config
		want []string
	}{
		{breaker.Config{OpenNs: 1, HalfOpenProbes: 1}, []string{"FailureThreshold"}},
		{breaker.Config{FailureThreshold: 1, HalfOpenProbes: 1}, []string{"OpenNs"}},
		{breaker.Config{FailureThreshold: 1, OpenNs: 1}, []string{"HalfOpenProbes"}},
		{breaker.Config{}, []string{"FailureThreshold", "OpenNs", "HalfOpenProbes"}},
	}
	for _, tt := range tests {
		b, err := breaker.New(tt.cfg, 0)
		if b != nil || err == nil {
			t.Errorf("New(%+v) = %v, %v; want nil and an error", tt.cfg, b, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("New(%+v) error %q does not name %s", tt.cfg, err, w)
			}
		}
	}
	if b, err := breaker.New(breaker.Config{FailureThreshold: 1, OpenNs: 1, HalfOpenProbes: 1}, 0); b == nil || err != nil {
		t.Errorf("New(valid) = %v, %v", b, err)
	}
}

// Allow and Done do not allocate.
func TestNoAllocations(t *testing.T) {
	b, _ := breaker.New(breaker.Config{FailureThreshold: 3, OpenNs: 50, HalfOpenProbes: 2}, 0)
	now := uint64(0)
	if n := testing.AllocsPerRun(1000, func() {
		now += 7
		if tk, ok := b.Allow(now); ok {
			b.Done(tk, now%3 != 0, now)
		}
	}); n != 0 {
		t.Errorf("Allow+Done allocate %v times per call", n)
	}
}
