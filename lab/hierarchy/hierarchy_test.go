package hierarchy

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	ref "ratelab/solutions/hierarchy"
)

func run(t *testing.T, impl Impl) *Run {
	t.Helper()
	r, err := New(DefaultConfig(), impl)
	if err != nil {
		t.Fatal(err)
	}
	r.Step(r.Config().DurationNs)
	if !r.Done() {
		t.Fatalf("after stepping to the duration, now = %d", r.Now())
	}
	return r
}

// The leaky hierarchy loses tokens for messages never sent; all or nothing
// loses none.
func TestLeakLosesTokens(t *testing.T) {
	r := run(t, Reference)
	if r.Leaky.Lost == 0 {
		t.Error("charge as you go lost no tokens under the default load")
	}
	if r.Tree.Lost != 0 || r.Tree.Stopped {
		t.Errorf("the reference lost %d tokens (stopped %v, %q); want 0", r.Tree.Lost, r.Tree.Stopped, r.Tree.Status)
	}
	var sum uint64
	for _, c := range r.Leaky.Sessions {
		sum += c.Lost
		// A refusal at the account costs the session one token, at the firm two.
		if c.Lost != c.Refused[Account]+2*c.Refused[Firm] {
			t.Errorf("session lost %d, want refusals at the account %d + 2 × at the firm %d", c.Lost, c.Refused[Account], c.Refused[Firm])
		}
	}
	if sum != r.Leaky.Lost {
		t.Errorf("sessions lost %d in all, side says %d", sum, r.Leaky.Lost)
	}
	t.Logf("tokens lost in %d s: charge as you go %d, all or nothing %d", r.Config().DurationNs/1e9, r.Leaky.Lost, r.Tree.Lost)
}

// The unexplained throttle: charging as it goes, a session is refused by
// its own bucket while it gets far less than its budget accepted; all or
// nothing never refuses a session that sends below its budget at the
// session level.
func TestUnexplainedThrottle(t *testing.T) {
	r := run(t, Reference)
	cfg := r.Config()
	secs := float64(cfg.DurationNs) / 1e9
	throttled := false
	for i, s := range cfg.Sessions {
		l, a := r.Leaky.Sessions[i], r.Tree.Sessions[i]
		rate := float64(l.Accepted) / secs
		if l.Refused[Session] > 0 && rate < 0.8*float64(s.Budget.RatePerSec) {
			throttled = true
			t.Logf("%s: refused %d times by its own bucket with %.1f/s accepted of %d/s", s.Name, l.Refused[Session], rate, s.Budget.RatePerSec)
		}
		if a.Refused[Session] != 0 {
			t.Errorf("%s: all or nothing refused it %d times at the session level", s.Name, a.Refused[Session])
		}
		if a.Attempts != a.Accepted+a.Refused[Session]+a.Refused[Account]+a.Refused[Firm] {
			t.Errorf("%s: attempts %d do not add up: %+v", s.Name, a.Attempts, a)
		}
		if l.Orders != a.Orders {
			t.Errorf("%s: %d orders on one side, %d on the other: the traffic must be the same", s.Name, l.Orders, a.Orders)
		}
	}
	if !throttled {
		t.Error("no session was throttled below its budget by charge as you go")
	}
}

func TestDeterministicAndStepSizeFree(t *testing.T) {
	a := run(t, Reference)
	b, _ := New(DefaultConfig(), Reference)
	for u := uint64(0); !b.Done(); u += 16_700_000 {
		b.Step(u)
	}
	if a.Leaky.Sessions != b.Leaky.Sessions || a.Tree.Sessions != b.Tree.Sessions || a.Leaky.Available != b.Leaky.Available {
		t.Errorf("one step and many small ones differ:\n%+v\n%+v", a.Leaky.Sessions, b.Leaky.Sessions)
	}
}

// A tree that charges as it goes, written as a learner might: the lab
// sees its leak.

type walker struct {
	nodes   []*leakyNode
	parents []int
}

type leakyNode struct{ t *ref.Tree }

func (w *walker) Add(parent int, capacity, rate uint64) (int, error) {
	n := &leakyNode{ref.New(0)}
	n.t.Add(ref.Root, capacity, rate)
	w.nodes = append(w.nodes, n)
	w.parents = append(w.parents, parent)
	return len(w.nodes) - 1, nil
}

func (w *walker) TryAcquire(node int, now, n uint64) bool {
	for i := node; i != ref.Root; i = w.parents[i] {
		if !w.nodes[i].t.TryAcquire(0, now, n) {
			return false
		}
	}
	return true
}

func (w *walker) Available(node int, now uint64) uint64 {
	least := ^uint64(0)
	for i := node; i != ref.Root; i = w.parents[i] {
		least = min(least, w.nodes[i].t.Available(0, now))
	}
	return least
}

func TestALeakyTreeShows(t *testing.T) {
	r := run(t, Impl{Name: "Yours", New: func(uint64) Tree { return &walker{} }})
	if r.Tree.Lost == 0 {
		t.Error("a tree that charges as it goes showed no lost tokens")
	}
	t.Logf("a leaky learner tree: %d tokens lost seen through Available (the lab's own leaky side: %d)", r.Tree.Lost, r.Leaky.Lost)
}

func TestStubAndMissing(t *testing.T) {
	r := run(t, Impl{Name: "Yours", New: func(uint64) Tree { panic("hierarchy: New is not implemented yet") }})
	if got := r.Tree.ImplStatus(); got != "Yours: not implemented yet" {
		t.Errorf("a stub: %q", got)
	}
	if r.Leaky.Lost == 0 {
		t.Error("the leaky side must run whatever the tree does")
	}
	r = run(t, Impl{Name: "Yours", Missing: "your code does not build"})
	if got := r.Tree.ImplStatus(); !strings.Contains(got, "does not build") {
		t.Errorf("missing: %q", got)
	}
}

func TestValidate(t *testing.T) {
	c := DefaultConfig()
	c.Account.RatePerSec = 0
	c.Sessions[1].OrdersPerSec = 0
	if _, err := New(c, Reference); err == nil || !strings.Contains(err.Error(), "account") || !strings.Contains(err.Error(), "session 1") {
		t.Errorf("New with a zero account rate and session 1 sending nothing: %v", err)
	}
}

func TestEncode(t *testing.T) {
	r := run(t, Reference)
	b := r.Encode(nil)
	if len(b) != EncodedLen {
		t.Fatalf("encoded %d bytes, want %d", len(b), EncodedLen)
	}
	f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])) }
	leaky := Header
	if f(HeaderDone) != 1 || f(leaky+SideLost) != float64(r.Leaky.Lost) ||
		f(leaky+SideSessions+SessionFields+SessRefused+int(Session)) != float64(r.Leaky.Sessions[1].Refused[Session]) ||
		f(Header+SideFields+SideSessions+2*SessionFields+SessAccepted) != float64(r.Tree.Sessions[2].Accepted) {
		t.Error("the encoding does not hold the run's figures where the layout says")
	}
}
