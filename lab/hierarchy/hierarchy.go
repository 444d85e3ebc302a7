// Package hierarchy is the week 3 "hierarchy leak" simulation: a firm, an
// account and three sessions under sustained load, run twice on the same
// traffic. One hierarchy charges as it goes (each level is charged on the
// way up, and a refusal at a later level refunds nothing); the other is the
// hierarchy exercise's all-or-nothing Tree (the reference, or the
// learner's). The leaky one loses tokens for messages never sent, and a
// session whose clients retry what was refused is throttled by its own
// bucket while it sends well below its budget.
//
// Everything runs in virtual time, deterministically, without I/O.
package hierarchy

import (
	"errors"
	"math/rand/v2"
	"strconv"

	"ratelab/lab/guard"
	ref "ratelab/solutions/hierarchy"
	"ratelab/solutions/tokenbucket"
)

// Tree is the hierarchy exercise's API.
type Tree interface {
	Add(parent int, capacity, ratePerSec uint64) (int, error)
	TryAcquire(node int, nowNs, n uint64) bool
	Available(node int, nowNs uint64) uint64
}

// Impl is one implementation of the hierarchy exercise. A nil New means it
// is unavailable, and Missing says why.
type Impl struct {
	Name    string // "Reference" or "Yours"
	New     func(nowNs uint64) Tree
	Missing string // e.g. "your code does not build"
}

// Reference is the Impl built from solutions/hierarchy.
var Reference = Impl{Name: "Reference", New: func(nowNs uint64) Tree { return ref.New(nowNs) }}

// Level is a level of the hierarchy.
type Level int

// The levels, from the bottom up.
const (
	Session Level = iota
	Account
	Firm
	NumLevels
)

var levelNames = [NumLevels]string{"session", "account", "firm"}

// String returns "session", "account" or "firm".
func (l Level) String() string {
	if l >= 0 && l < NumLevels {
		return levelNames[l]
	}
	return "level " + strconv.Itoa(int(l))
}

// Budget is one level's token bucket: capacity tokens, refilled at
// RatePerSec tokens per second.
type Budget struct{ Capacity, RatePerSec uint64 }

// SessionConfig is one session: its budget and its client, which has
// OrdersPerSec new orders a second to send, the first at PhaseNs, each
// interval drawn uniformly between half and one and a half times
// 10^9/OrdersPerSec ns.
type SessionConfig struct {
	Name         string
	Budget       Budget
	OrdersPerSec uint64
	PhaseNs      uint64
}

// NumSessions is the number of sessions under the account.
const NumSessions = 3

// Config is the scenario. A client resends a refused order RetryNs later,
// and gives it up after MaxAttempts attempts.
type Config struct {
	Firm, Account Budget
	Sessions      [NumSessions]SessionConfig
	RetryNs       uint64
	MaxAttempts   int
	DurationNs    uint64 // the run ends here
	Seed          uint64 // the draws of the clients' intervals
}

// DefaultConfig is the lesson's scenario: three sessions of 40 a second
// under an account of 60 a second, asking 35, 35 and 15 orders a second
// (each within its own budget, together more than the account's), clients
// that resend a refused order 20 ms later, up to 4 attempts.
func DefaultConfig() Config {
	s := Budget{Capacity: 10, RatePerSec: 40}
	return Config{
		Firm:    Budget{Capacity: 40, RatePerSec: 100},
		Account: Budget{Capacity: 20, RatePerSec: 60},
		Sessions: [NumSessions]SessionConfig{
			{Name: "busy A", Budget: s, OrdersPerSec: 35, PhaseNs: 0},
			{Name: "busy B", Budget: s, OrdersPerSec: 35, PhaseNs: 7_000_000},
			{Name: "quiet", Budget: s, OrdersPerSec: 15, PhaseNs: 3_000_000},
		},
		RetryNs:     20_000_000,
		MaxAttempts: 4,
		DurationNs:  30_000_000_000,
		Seed:        1,
	}
}

// Validate reports what makes c unusable.
func (c Config) Validate() error {
	var errs []error
	check := func(name string, b Budget) {
		if b.Capacity == 0 || b.RatePerSec == 0 {
			errs = append(errs, errors.New(name+": capacity and rate must be at least 1"))
		}
	}
	check("firm", c.Firm)
	check("account", c.Account)
	for i, s := range c.Sessions {
		check("session "+strconv.Itoa(i), s.Budget)
		if s.OrdersPerSec == 0 || s.OrdersPerSec > 1_000_000 {
			errs = append(errs, errors.New("session "+strconv.Itoa(i)+": orders per second must be from 1 to 1,000,000"))
		}
	}
	if c.RetryNs == 0 || c.MaxAttempts < 1 || c.DurationNs == 0 {
		errs = append(errs, errors.New("retry, attempts and duration must be at least 1"))
	}
	return errors.Join(errs...)
}

// Counts are one session's counters in one hierarchy.
type Counts struct {
	Orders   uint64            // new orders the client had to send
	Attempts uint64            // messages sent: orders and resends
	Accepted uint64            // messages accepted
	Refused  [NumLevels]uint64 // refusals, by the level that said no
	GaveUp   uint64            // orders dropped after MaxAttempts refusals
	Lost     uint64            // tokens taken, at any level, for its refused messages (charging as it goes; 0 for a Tree)
}

// Side is one hierarchy under the scenario's traffic.
type Side struct {
	guard.Side // "Charge as you go", or the Impl's name; whether and why it stopped
	Sessions   [NumSessions]Counts
	Lost       uint64 // tokens lost, all sessions
	// Available holds the whole tokens a message could take now at each
	// node (NodeFirm, NodeAccount, NodeSession+i): the least over the
	// node's path.
	Available [NumNodes]uint64

	acc     acquirer
	next    [NumSessions]uint64     // the time of each session's next new order
	rng     [NumSessions]*rand.Rand // each session's intervals: the same draws on both sides
	retries [NumSessions][]retry    // resends waiting, in time order
	cfg     *Config
}

// Nodes in Side.Available.
const (
	NodeFirm    = 0
	NodeAccount = 1
	NodeSession = 2 // NodeSession+i is session i
	NumNodes    = NodeSession + NumSessions
)

type retry struct {
	at       uint64
	attempts int
}

// acquirer is one hierarchy: try charges a message of session s at now.
type acquirer interface {
	try(s int, now uint64) (ok bool, blame Level, lost uint64)
	available(now uint64, out []uint64)
}

// leaky charges as it goes: a week 1 token bucket per level, the session's
// first, and no refund when a later level refuses.
type leaky struct {
	firm, account *tokenbucket.TokenBucket
	sessions      [NumSessions]*tokenbucket.TokenBucket
}

func newLeaky(c *Config) *leaky {
	l := &leaky{
		firm:    tokenbucket.New(c.Firm.Capacity, c.Firm.RatePerSec, 0),
		account: tokenbucket.New(c.Account.Capacity, c.Account.RatePerSec, 0),
	}
	for i, s := range c.Sessions {
		l.sessions[i] = tokenbucket.New(s.Budget.Capacity, s.Budget.RatePerSec, 0)
	}
	return l
}

func (l *leaky) try(s int, now uint64) (bool, Level, uint64) {
	path := [NumLevels]*tokenbucket.TokenBucket{l.sessions[s], l.account, l.firm}
	for lv, b := range path {
		if !b.TryAcquire(now, 1) {
			return false, Level(lv), uint64(lv) // every level below was charged
		}
	}
	return true, 0, 0
}

func (l *leaky) available(now uint64, out []uint64) {
	out[NodeFirm] = l.firm.Available(now)
	out[NodeAccount] = min(out[NodeFirm], l.account.Available(now))
	for i, b := range l.sessions {
		out[NodeSession+i] = min(out[NodeAccount], b.Available(now))
	}
}

// allOrNothing is an Impl's Tree: firm, account, three sessions. Beside
// it, shadow is a bucket per node charged at every level for each message
// the tree accepts, and for nothing else: what an all-or-nothing tree that
// gave the same answers would hold.
type allOrNothing struct {
	t      Tree
	nodes  [NumNodes]int
	shadow leaky
	avail  [NumNodes]uint64
	want   [NumNodes]uint64
}

func newAllOrNothing(c *Config, impl Impl) (*allOrNothing, error) {
	a := &allOrNothing{t: impl.New(0), shadow: *newLeaky(c)}
	var err error
	if a.nodes[NodeFirm], err = a.t.Add(ref.Root, c.Firm.Capacity, c.Firm.RatePerSec); err != nil {
		return nil, err
	}
	if a.nodes[NodeAccount], err = a.t.Add(a.nodes[NodeFirm], c.Account.Capacity, c.Account.RatePerSec); err != nil {
		return nil, err
	}
	for i, s := range c.Sessions {
		if a.nodes[NodeSession+i], err = a.t.Add(a.nodes[NodeAccount], s.Budget.Capacity, s.Budget.RatePerSec); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// try asks the tree. The tree says only yes or no: the level blamed for a
// refusal is the highest with no token, as Available shows it before the
// call. Lost is the tokens the tree lacks after the call, over its nodes,
// against the shadow buckets; a tree that keeps to all or nothing lacks
// none.
func (a *allOrNothing) try(s int, now uint64) (bool, Level, uint64) {
	session := a.nodes[NodeSession+s]
	ok := a.t.TryAcquire(session, now, 1)
	blame := Session
	if ok {
		for _, b := range [NumLevels]*tokenbucket.TokenBucket{a.shadow.sessions[s], a.shadow.account, a.shadow.firm} {
			b.TryAcquire(now, 1)
		}
	} else {
		a.shadow.available(now, a.want[:])
		switch {
		case a.want[NodeFirm] == 0:
			blame = Firm
		case a.want[NodeAccount] == 0:
			blame = Account
		}
	}
	return ok, blame, 0
}

// missing returns the tokens the tree lacks at now, summed over its
// nodes, against the shadow buckets.
func (a *allOrNothing) missing(now uint64) uint64 {
	a.available(now, a.avail[:])
	a.shadow.available(now, a.want[:])
	var m uint64
	for i := range a.avail {
		if a.avail[i] < a.want[i] {
			m += a.want[i] - a.avail[i]
		}
	}
	return m
}

func (a *allOrNothing) available(now uint64, out []uint64) {
	for i, n := range a.nodes {
		out[i] = a.t.Available(n, now)
	}
}

// Run is the scenario on both hierarchies.
type Run struct {
	cfg   Config
	now   uint64
	Leaky Side // charge as you go
	Tree  Side // the Impl's all-or-nothing tree
}

// New returns the scenario at time 0 on both hierarchies. The Impl's code
// may panic or be missing: its side then stops and says why.
func New(cfg Config, impl Impl) (*Run, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &Run{cfg: cfg}
	r.Leaky = Side{Side: guard.Side{Name: "Charge as you go"}, acc: newLeaky(&r.cfg)}
	r.Tree = Side{Side: guard.Side{Name: impl.Name}}
	for _, sd := range []*Side{&r.Leaky, &r.Tree} {
		sd.cfg = &r.cfg
		for i, s := range cfg.Sessions {
			sd.next[i] = s.PhaseNs
			sd.rng[i] = rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
		}
	}
	if impl.New == nil {
		r.Tree.Stop(guard.Missing(impl.Missing))
	} else {
		r.Tree.Guard(func() {
			a, err := newAllOrNothing(&r.cfg, impl)
			if err != nil {
				r.Tree.Stop("Add failed: " + err.Error())
				return
			}
			r.Tree.acc = a
		})
	}
	r.Leaky.refresh(0)
	r.Tree.refresh(0)
	return r, nil
}

// Config returns the scenario.
func (r *Run) Config() Config { return r.cfg }

// Now returns the virtual time the run has reached.
func (r *Run) Now() uint64 { return r.now }

// Done reports whether the run reached its duration.
func (r *Run) Done() bool { return r.now >= r.cfg.DurationNs }

// Step runs both hierarchies up to untilNs (at most the duration).
func (r *Run) Step(untilNs uint64) {
	until := min(untilNs, r.cfg.DurationNs)
	if until <= r.now {
		return
	}
	r.Leaky.step(until)
	r.Tree.step(until)
	r.now = until
}

// step sends every message due up to until, in time order (ties: session
// order, new orders before resends).
func (sd *Side) step(until uint64) {
	if sd.Stopped {
		return
	}
	sd.Guard(func() {
		for {
			s, at, isRetry := -1, uint64(0), false
			for i := range NumSessions {
				if sd.next[i] <= until && (s < 0 || sd.next[i] < at) {
					s, at, isRetry = i, sd.next[i], false
				}
				if q := sd.retries[i]; len(q) > 0 && q[0].at <= until && (s < 0 || q[0].at < at) {
					s, at, isRetry = i, q[0].at, true
				}
			}
			if s < 0 {
				break
			}
			attempts := 1
			if isRetry {
				attempts = sd.retries[s][0].attempts + 1
				sd.retries[s] = sd.retries[s][1:]
			} else {
				sd.Sessions[s].Orders++
				mean := 1_000_000_000 / sd.cfg.Sessions[s].OrdersPerSec
				sd.next[s] += mean/2 + sd.rng[s].Uint64N(mean+1)
			}
			sd.send(s, at, attempts)
		}
		sd.refresh(until)
	})
}

func (sd *Side) send(s int, now uint64, attempts int) {
	c := &sd.Sessions[s]
	c.Attempts++
	ok, blame, lost := sd.acc.try(s, now)
	if ok {
		c.Accepted++
		sd.checkMissing(now)
		return
	}
	c.Refused[blame]++
	c.Lost += lost
	sd.Lost += lost
	sd.checkMissing(now)
	if attempts >= sd.cfg.MaxAttempts {
		c.GaveUp++
		return
	}
	sd.retries[s] = append(sd.retries[s], retry{at: now + sd.cfg.RetryNs, attempts: attempts})
}

// checkMissing keeps the most tokens a Tree was seen to lack.
func (sd *Side) checkMissing(now uint64) {
	if a, ok := sd.acc.(*allOrNothing); ok {
		sd.Lost = max(sd.Lost, a.missing(now))
	}
}

func (sd *Side) refresh(now uint64) {
	if sd.Stopped || sd.acc == nil {
		return
	}
	sd.Guard(func() { sd.acc.available(now, sd.Available[:]) })
}
