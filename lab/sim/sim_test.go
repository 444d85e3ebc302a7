package sim_test

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"ratelab/lab/guard"
	"ratelab/lab/internal/labtest"
	"ratelab/lab/limiters"
	"ratelab/lab/sim"
)

const second = 1_000_000_000

func newSim(t *testing.T, cfg sim.Config, impl limiters.Impl) *sim.Sim {
	t.Helper()
	s, err := sim.New(cfg, impl)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return s
}

// record is every decision of a run, message by message.
type record struct {
	times  []uint64
	accept []uint8
}

// runUntil steps s to untilNs in batches of at most batch messages.
func runUntil(s *sim.Sim, untilNs uint64, batch int) record {
	var r record
	for s.Now() < untilNs {
		b := s.Step(batch, untilNs)
		r.times = append(r.times, b.Times...)
		r.accept = append(r.accept, b.Accept...)
	}
	return r
}

// peak returns the most messages lane accepted in any interval [a, a+length).
func (r record) peak(lane sim.Lane, length uint64) uint64 {
	p := sim.NewPeak(length)
	for i, t := range r.times {
		if r.accept[i]&(1<<lane) != 0 {
			p.Add(t)
		}
	}
	return p.Max()
}

func state(s *sim.Sim) *sim.State {
	st := new(sim.State)
	s.State(st)
	return st
}

// TestEdgeAttack is the lesson's claim: N messages just before a boundary
// and N just after. The fixed window passes about 2N within 100 ms; the
// sliding window holds N and the token bucket b + r·T.
func TestEdgeAttack(t *testing.T) {
	cfg := sim.Config{Limit: 100, WindowNs: second, Buckets: 10, Traffic: "edge"}
	s := newSim(t, cfg, limiters.Reference)
	r := runUntil(s, 5*second, 1000)

	const T = 100_000_000 // 100 ms around each boundary
	bucketBound := 100 + cfg.Rate()*T/second
	if got := r.peak(sim.Fixed, T); got < 190 {
		t.Errorf("fixed window passed at most %d in 100 ms, want at least 1.9·N = 190", got)
	}
	if got := r.peak(sim.Sliding, T); got > 100 {
		t.Errorf("sliding window passed %d in 100 ms, want at most N = 100", got)
	}
	if got := r.peak(sim.TokenBucket, T); got > bucketBound {
		t.Errorf("token bucket passed %d in 100 ms, want at most b + r·T = %d", got, bucketBound)
	}
	if got := r.peak(sim.SlidingLog, T); got > 100 {
		t.Errorf("sliding log passed %d in 100 ms, want at most N = 100", got)
	}

	st := state(s)
	tests := []struct {
		lane sim.Lane
		want uint64
	}{
		{sim.Fixed, 200},
		{sim.Sliding, 100},
		{sim.SlidingLog, 100},
		// 100 tokens, plus 9.95 earned over the 99.5 ms from the first
		// message to the last; b + r·W = 200 would allow more, but the
		// attack lasts only 100 ms.
		{sim.TokenBucket, 109},
		{sim.GCRA, 109},
	}
	for _, tt := range tests {
		if got := st.Lanes[tt.lane].MaxInWindow; got != tt.want {
			t.Errorf("%s: MaxInWindow = %d, want %d", tt.lane.Name(), got, tt.want)
		}
	}
	if st.Bound != 200 {
		t.Errorf("Bound = %d, want b + r·W = 200", st.Bound)
	}
}

// TestNaiveDemo is the lesson's other claim: at 1,000 tokens/s with a call
// every 100 µs, the naive refill passes far fewer than the exact one, and
// the credit it loses is reported exactly.
func TestNaiveDemo(t *testing.T) {
	cfg := sim.Config{Limit: 1000, WindowNs: second, Buckets: 10, Burst: 10, Traffic: "naive-demo"}
	exact := newSim(t, cfg, limiters.Reference)
	cfg.Refill = sim.Naive
	naive := newSim(t, cfg, limiters.Reference)
	runUntil(exact, second-1, sim.MaxBatch)
	runUntil(naive, second-1, sim.MaxBatch)
	e, n := state(exact), state(naive)

	if got := n.Lanes[sim.TokenBucket].Accepted; got != 10 {
		t.Errorf("naive token bucket accepted %d in 1 s, want 10", got)
	}
	if got := e.Lanes[sim.TokenBucket].Accepted; got != 1009 {
		t.Errorf("exact token bucket accepted %d in 1 s, want 1009", got)
	}
	if got := n.Lanes[sim.GCRA].Accepted; got != 1009 {
		t.Errorf("GCRA beside the naive bucket accepted %d, want 1009 (it is exact)", got)
	}
	if got := n.Lost.String(); got != "999.9" {
		t.Errorf("naive Lost = %s tokens, want 999.9", got)
	}
	if got := e.Lost.String(); got != "0" {
		t.Errorf("exact Lost = %s tokens, want 0", got)
	}
}

// truncating is a token bucket that drops the fraction of every refill, as
// a learner's might: under Exact refill, the lane's Lost is its own
// shortfall against an exact bucket that took the same messages.
type truncating struct{ tokens, capacity, rate, last uint64 }

func (b *truncating) refill(now uint64) {
	if now > b.last {
		b.tokens = min(b.capacity, b.tokens+(now-b.last)*b.rate/1e9)
		b.last = now
	}
}

func (b *truncating) TryAcquire(now, n uint64) bool {
	b.refill(now)
	if b.tokens < n {
		return false
	}
	b.tokens -= n
	return true
}

func (b *truncating) Available(now uint64) uint64 { b.refill(now); return b.tokens }

func TestExactLostIsTheLanesShortfall(t *testing.T) {
	cfg := sim.Config{Limit: 1000, WindowNs: second, Buckets: 10, Burst: 10, Traffic: "naive-demo"}
	impl := limiters.Impl{Name: "Yours", NewBucket: func(capacity, rate, now uint64) limiters.Bucket {
		return &truncating{tokens: capacity, capacity: capacity, rate: rate, last: now}
	}}
	s := newSim(t, cfg, impl)
	runUntil(s, second-1, sim.MaxBatch)
	st := state(s)
	if got := st.Lanes[sim.TokenBucket].Accepted; got != 10 {
		t.Errorf("the truncating bucket accepted %d in 1 s, want its burst, 10", got)
	}
	// An exact bucket that accepted those 10 would hold its 10 again.
	if got := st.Lost.String(); got != "10" {
		t.Errorf("Lost = %s tokens, want 10: what the truncating bucket is short of an exact one", got)
	}
}

// TestBatchesDoNotMatter runs the same configuration in batches of one
// message and in large batches, and wants the same decisions.
func TestBatchesDoNotMatter(t *testing.T) {
	for _, traffic := range []string{"steady", "bursty", "random", "edge", "naive-demo"} {
		for _, refill := range []sim.Refill{sim.Exact, sim.Naive} {
			cfg := sim.Config{Limit: 50, WindowNs: 200_000_000, Buckets: 4, Burst: 20, Refill: refill, Traffic: traffic, Seed: 11}
			a := newSim(t, cfg, limiters.Reference)
			b := newSim(t, cfg, limiters.Reference)
			ra := runUntil(a, 2*second, 1)
			var rb record
			for now := uint64(0); now < 2*second; now += 16_666_667 { // 60 frames a second
				rb2 := runUntil(b, now, 97)
				rb.times = append(rb.times, rb2.times...)
				rb.accept = append(rb.accept, rb2.accept...)
				state(b) // reading the state must change nothing either
			}
			rb2 := runUntil(b, 2*second, sim.MaxBatch)
			rb.times = append(rb.times, rb2.times...)
			rb.accept = append(rb.accept, rb2.accept...)
			if len(ra.times) == 0 {
				t.Fatalf("%s/%s: no messages", traffic, refill)
			}
			if !slices.Equal(ra.times, rb.times) || !slices.Equal(ra.accept, rb.accept) {
				t.Errorf("%s/%s: batches of 1 and frame-sized batches decided differently", traffic, refill)
			}
			sa, sb := state(a), state(b)
			if sa.Lanes != sb.Lanes || sa.Lost != sb.Lost {
				t.Errorf("%s/%s: states differ:\n%+v\n%+v", traffic, refill, sa.Lanes, sb.Lanes)
			}
		}
	}
}

func TestStep(t *testing.T) {
	cfg := sim.Config{Limit: 10, WindowNs: second, Buckets: 1, Traffic: "steady"} // every 80 ms
	s := newSim(t, cfg, limiters.Reference)
	b := s.Step(100, 160_000_000)
	if want := []uint64{0, 80_000_000, 160_000_000}; !slices.Equal(b.Times, want) {
		t.Errorf("Step(100, 160 ms).Times = %v, want %v (up to and including untilNs)", b.Times, want)
	}
	if b.NowNs != 160_000_000 {
		t.Errorf("Step(100, 160 ms).NowNs = %d, want 160 ms", b.NowNs)
	}
	b = s.Step(2, 10*second)
	if want := []uint64{240_000_000, 320_000_000}; !slices.Equal(b.Times, want) {
		t.Errorf("Step(2, 10 s).Times = %v, want %v", b.Times, want)
	}
	if b.NowNs != 320_000_000 {
		t.Errorf("Step(2, 10 s).NowNs = %d, want 320 ms: a full batch stops at its latest message", b.NowNs)
	}
	if b := s.Step(10, 100); b.Len() != 0 || b.NowNs != 320_000_000 {
		t.Errorf("Step(10, back in time) = %d messages at %d, want none at 320 ms", b.Len(), b.NowNs)
	}
	if got := s.Step(1<<30, math.MaxUint64).Len(); got != sim.MaxBatch {
		t.Errorf("Step(2^30, max).Len() = %d, want MaxBatch", got)
	}
	for i, a := range b.Accept {
		if a != 0b11111 {
			t.Errorf("message %d: accept bits %05b, want all five lanes", i, a)
		}
	}
}

// panicky panics on its after-th call with msg.
type panicky struct {
	after int
	msg   any
}

func (p *panicky) TryAcquire(uint64) bool {
	if p.after == 0 {
		panic(p.msg)
	}
	p.after--
	return true
}

func (p *panicky) TryAcquireN(now, n uint64) bool { return p.TryAcquire(now) }

type stubBucket struct{}

func (stubBucket) TryAcquire(uint64, uint64) bool { panic("tokenbucket: not implemented") }
func (stubBucket) Available(uint64) uint64        { panic("tokenbucket: not implemented") }

func TestLearnerPanicsStopOneLane(t *testing.T) {
	yours := limiters.Impl{
		Name:      "Yours",
		NewBucket: func(uint64, uint64, uint64) limiters.Bucket { return stubBucket{} },
		NewGCRA: func(uint64, uint64, uint64) limiters.GCRA {
			return &panicky{after: 3, msg: errors.New("index out of range [3]")}
		},
		NewWindow: func(uint32, uint64, int) limiters.Window { panic("slidingwindow: not implemented") },
	}
	cfg := sim.Config{Limit: 10, WindowNs: second, Buckets: 2, Traffic: "steady"}
	s := newSim(t, cfg, yours)
	r := runUntil(s, 2*second, 5)
	st := state(s)

	tests := []struct {
		lane     sim.Lane
		status   string
		accepted uint64
	}{
		{sim.Sliding, guard.NotImplemented, 0},
		{sim.TokenBucket, guard.NotImplemented, 0},
		{sim.GCRA, "panicked: index out of range [3]", 3},
	}
	for _, tt := range tests {
		ls := st.Lanes[tt.lane]
		if !ls.Stopped || ls.Status != tt.status || ls.Accepted != tt.accepted || ls.Refused != 0 {
			t.Errorf("%s: stopped %v, status %q, accepted %d, refused %d; want stopped, %q, %d, 0",
				tt.lane.Name(), ls.Stopped, ls.Status, ls.Accepted, ls.Refused, tt.status, tt.accepted)
		}
	}
	for _, lane := range []sim.Lane{sim.Fixed, sim.SlidingLog} {
		if ls := st.Lanes[lane]; ls.Stopped || ls.Accepted+ls.Refused != st.Messages {
			t.Errorf("%s: stopped %v, decided %d of %d; want it to run on", lane.Name(), ls.Stopped, ls.Accepted+ls.Refused, st.Messages)
		}
	}
	for i, a := range r.accept {
		if a&(1<<sim.Sliding|1<<sim.TokenBucket) != 0 || (i >= 3 && a&(1<<sim.GCRA) != 0) {
			t.Fatalf("message %d: accept bits %05b from a stopped lane", i, a)
		}
	}
	if len(st.Buckets) != 0 {
		t.Errorf("Buckets = %v for a stopped sliding window, want none", st.Buckets)
	}
}

func TestMissingImpl(t *testing.T) {
	yours := limiters.Impl{Name: "Yours", Missing: "your code does not build"}
	s := newSim(t, sim.Config{Limit: 10, WindowNs: second, Buckets: 2, Traffic: "random"}, yours)
	s.Step(100, second)
	st := state(s)
	for _, lane := range []sim.Lane{sim.Sliding, sim.TokenBucket, sim.GCRA} {
		if ls := st.Lanes[lane]; !ls.Stopped || ls.Status != "your code does not build" {
			t.Errorf("%s: stopped %v, status %q; want stopped, %q", lane.Name(), ls.Stopped, ls.Status, "your code does not build")
		}
	}
	// Naive refill does not need the Impl's bucket.
	s = newSim(t, sim.Config{Limit: 10, WindowNs: second, Buckets: 2, Traffic: "random", Refill: sim.Naive}, yours)
	if st := state(s); st.Lanes[sim.TokenBucket].Stopped {
		t.Errorf("naive token bucket stopped with a missing Impl: %q", st.Lanes[sim.TokenBucket].Status)
	}
}

func TestStateEncode(t *testing.T) {
	cfg := sim.Config{Limit: 4, WindowNs: second, Buckets: 4, Burst: 2, Refill: sim.Naive, Traffic: "naive-demo"}
	yours := limiters.Impl{Name: "Yours", Missing: "gone"}
	s := newSim(t, cfg, yours)
	runUntil(s, 300_050_000, 1000)
	st := state(s)
	buf := st.Encode(nil)
	f := make([]float64, len(buf)/8)
	for i := range f {
		f[i] = math.Float64frombits(binary.LittleEndian.Uint64(buf[8*i:]))
	}
	lane := func(l sim.Lane, field int) float64 { return f[sim.StateHeader+int(l)*sim.LaneFields+field] }
	checks := []struct {
		name      string
		got, want float64
	}{
		{"now", f[sim.StateNow], 300_050_000},
		{"messages", f[sim.StateMessages], 3001},
		{"lost whole", f[sim.StateLostWhole], float64(st.Lost.Tokens)},
		{"lost units", f[sim.StateLostUnits], float64(st.Lost.Units)},
		{"bound", f[sim.StateBound], 6},
		{"stopped", f[sim.StateStopped], 1<<sim.Sliding | 1<<sim.GCRA},
		{"buckets", f[sim.StateBuckets], 0},
		{"fixed accepted", lane(sim.Fixed, sim.LaneAccepted), 4},
		{"fixed refused", lane(sim.Fixed, sim.LaneRefused), 2997},
		{"fixed max", lane(sim.Fixed, sim.LaneMax), 4},
		{"fixed count", lane(sim.Fixed, sim.LaneCount), 4},
		{"fixed tokens", lane(sim.Fixed, sim.LaneTokens), -1},
		{"bucket tokens", lane(sim.TokenBucket, sim.LaneTokens), float64(st.Lanes[sim.TokenBucket].Tokens)},
		{"bucket accepted", lane(sim.TokenBucket, sim.LaneAccepted), 2}, // naive: never a whole token back
		{"gcra count", lane(sim.GCRA, sim.LaneCount), -1},
		{"length", float64(len(f)), sim.StateHeader + sim.NumLanes*sim.LaneFields},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// 3,000 calls after the first, each earning 0.0004 token at 4 tokens/s.
	if got := st.Lost.String(); got != "1.2" {
		t.Errorf("Lost = %s, want 1.2", got)
	}
}

func TestBatchEncode(t *testing.T) {
	b := sim.Batch{Times: []uint64{1, 1 << 40}, Accept: []uint8{0b101, 0b11111}}
	buf := b.Encode(nil)
	if len(buf) != 18 {
		t.Fatalf("len(Encode) = %d, want 18", len(buf))
	}
	if got := math.Float64frombits(binary.LittleEndian.Uint64(buf[8:])); got != 1<<40 {
		t.Errorf("second time = %v, want 2^40", got)
	}
	if buf[16] != 0b101 || buf[17] != 0b11111 {
		t.Errorf("accept bytes = %05b %05b, want 00101 11111", buf[16], buf[17])
	}
}

func TestConfigValidate(t *testing.T) {
	ok := sim.Config{Limit: 100, WindowNs: second, Buckets: 10, Traffic: "steady"}
	labtest.Validation(t, ok, []labtest.ConfigCase[sim.Config]{
		{Name: "valid", Modify: func(*sim.Config) {}},
		{Name: "limit 0", Modify: func(c *sim.Config) { c.Limit = 0 }, Want: "limit"},
		{Name: "limit too big", Modify: func(c *sim.Config) { c.Limit = sim.MaxLimit + 1 }, Want: "limit"},
		{Name: "window too short", Modify: func(c *sim.Config) { c.WindowNs = 999 }, Want: "window"},
		{Name: "window too long", Modify: func(c *sim.Config) { c.WindowNs = 61 * second }, Want: "window"},
		{Name: "no buckets", Modify: func(c *sim.Config) { c.Buckets = 0 }, Want: "buckets"},
		{Name: "burst too big", Modify: func(c *sim.Config) { c.Burst = sim.MaxBurst + 1 }, Want: "burst"},
		{Name: "rate below 1/s", Modify: func(c *sim.Config) { c.Limit, c.WindowNs = 1, 2*second }, Want: "per second"},
		{Name: "rate above 1/ns", Modify: func(c *sim.Config) { c.Limit, c.WindowNs = 2000, 1000 }, Want: "per nanosecond"},
		{Name: "bad refill", Modify: func(c *sim.Config) { c.Refill = 7 }, Want: "refill"},
		{Name: "bad traffic", Modify: func(c *sim.Config) { c.Traffic = "flood" }, Want: "flood"},
	}, sim.Config.Validate, func(c sim.Config) error { _, err := sim.New(c, limiters.Reference); return err })
}

func TestParseRefill(t *testing.T) {
	for _, r := range []sim.Refill{sim.Exact, sim.Naive} {
		got, err := sim.ParseRefill(r.String())
		if err != nil || got != r {
			t.Errorf("ParseRefill(%q) = %v, %v; want %v", r, got, err, r)
		}
	}
	if _, err := sim.ParseRefill("lazy"); err == nil {
		t.Errorf("ParseRefill(lazy) succeeded, want an error")
	}
}

func TestRateAndBound(t *testing.T) {
	tests := []struct {
		cfg         sim.Config
		rate, bound uint64
	}{
		{sim.Config{Limit: 100, WindowNs: second}, 100, 200},
		{sim.Config{Limit: 100, WindowNs: second, Burst: 5}, 100, 105},
		{sim.Config{Limit: 100, WindowNs: 300_000_000}, 333, 199}, // 333/s for 0.3 s is 99.9
		{sim.Config{Limit: 1, WindowNs: 60 * second}, 0, 1},
	}
	for _, tt := range tests {
		if got := tt.cfg.Rate(); got != tt.rate {
			t.Errorf("%+v: Rate() = %d, want %d", tt.cfg, got, tt.rate)
		}
		if got := tt.cfg.Bound(); got != tt.bound {
			t.Errorf("%+v: Bound() = %d, want %d", tt.cfg, got, tt.bound)
		}
	}
}

func TestLaneNames(t *testing.T) {
	want := []string{"fixed", "sliding", "tokenbucket", "slidinglog", "gcra"}
	for i, id := range want {
		if got := sim.Lane(i).String(); got != id {
			t.Errorf("Lane(%d).String() = %q, want %q", i, got, id)
		}
		if sim.Lane(i).Name() == "" {
			t.Errorf("Lane(%d).Name() is empty", i)
		}
	}
}
