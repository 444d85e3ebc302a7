package gateway

import (
	"errors"
	"maps"
	"math/big"
	"slices"

	"ratelab/grader/check"
)

// mistakes are those learners make with the gateway (see check.Mistake).
//
// Where one script can show two mistakes of different pitfalls, the one
// that explains fewer scripts comes first: the grader charges the first
// of the mistakes that explain everything it found.
var mistakes = check.Mistakes(mistaken, []check.Mistake[Impl]{
	// overflow: every uint64 is legal, no product or sum wraps.
	{Name: "wrapping-refill", Pitfall: "overflow", Says: "computes elapsed×rate in 64 bits, which wraps"},
	{Name: "wrapping-capacity", Pitfall: "overflow", Says: "computes Capacity×10^9 in 64 bits, which wraps"},
	{Name: "wrapping-retry", Pitfall: "overflow", Says: "rounds the retry-after up as (need + rate − 1) / rate in 64 bits, which wraps when the rate is near MaxUint64"},
	{Name: "wrapping-deadline", Pitfall: "overflow", Says: "escalates when now ≥ floodStart + SilenceAfterNs (or DisconnectAfterNs), a sum taken in 64 bits, which wraps"},

	// backward-time: one clock, the latest time seen; every call but a
	// failed Reload moves it.
	{Name: "rewinds-clock", Pitfall: "backward-time", Says: "follows every nowNs, also back in time, so that now − last wraps to a huge refill (a full bucket) and now − floodStart to a huge age"},
	{Name: "rewinds-without-wrapping", Pitfall: "backward-time", Says: "follows every nowNs, also back in time: a step back earns nothing but moves the buckets' time back, so the time after it is earned again, and a flood is as old as the latest call says (0 before it began)"},
	{Name: "flood-age-rewinds", Pitfall: "backward-time", Says: "keeps its buckets on the gateway's clock but times floods by each call's nowNs as given, so that a refusal before the flood began wraps its age"},
	{Name: "failed-open-keeps-clock", Pitfall: "backward-time", Says: "does not move its clock on an Open that fails"},
	{Name: "closed-admit-keeps-clock", Pitfall: "backward-time", Says: "does not move its clock on an Admit to a session that is not open"},
	{Name: "heartbeat-keeps-clock", Pitfall: "backward-time", Says: "answers a heartbeat on an open session before moving its clock"},

	// retry-after: ceil((10^9 − units) / rate), from the units held now.
	{Name: "retry-floor", Pitfall: "retry-after", Says: "rounds the retry-after down instead of up"},
	{Name: "retry-plus-one", Pitfall: "retry-after", Says: "gives the retry-after as (10^9 − units) / rate + 1, one nanosecond too many when the rate divides the units missing"},
	{Name: "retry-full-interval", Pitfall: "retry-after", Says: "gives the retry-after of an empty bucket, ceil(10^9 / rate), whatever part of a token the bucket holds"},

	// reload: old rates up to now, units kept and capped, a budget that
	// was unlimited full, closed sessions too, new escalation times at
	// once; a reload that fails changes nothing.
	{Name: "failed-reload-moves-clock", Pitfall: "reload", Says: "moves its clock on a Reload that fails"},
	{Name: "failed-reload-keeps-config", Pitfall: "reload", Says: "puts the new config in force (its escalation times and classes) before finding an open session whose class it lacks, and keeps it when the reload fails"},
	{Name: "forgets-classless", Pitfall: "reload", Says: "forgets, at a reload, the closed sessions whose class is gone, so that reopened they start full"},
	{Name: "refuses-classless-closed", Pitfall: "reload", Says: "refuses a reload without the class of a closed session, not only of an open one"},
	{Name: "unlimited-starts-empty", Pitfall: "reload", Says: "starts a budget that was unlimited empty when it becomes limited, instead of full"},
	{Name: "switches-open-only", Pitfall: "reload", Says: "switches only the open sessions to their class's new budgets at a reload: a closed one keeps its old budgets until it is reopened"},
	{Name: "deadlines-at-flood-start", Pitfall: "reload", Says: "keeps, for a flood, the escalation times in force when it began, so that new escalation times do not apply to floods under way"},
	{Name: "reload-ends-floods", Pitfall: "reload", Says: "ends every flood at a reload"},
	{Name: "reload-new-rate", Pitfall: "reload", Says: "switches the budgets without first refilling them up to now at their old rates, so that the time since they were last refilled is earned at the new rates"},
	{Name: "reload-refills", Pitfall: "reload", Says: "gives every session full buckets at a reload"},

	// reconnect: the buckets belong to the session id; a reopening in
	// another class switches them as a reload would.
	{Name: "reopen-refused", Pitfall: "reconnect", Says: "refuses to reopen a session it has seen, as if it were still open"},
	{Name: "reopen-keeps-class", Pitfall: "reconnect", Says: "keeps the class and budgets a session had when it is reopened in another class"},
	{Name: "reopen-other-class-refills", Pitfall: "reconnect", Says: "gives a session reopened in another class full buckets of that class, as if it were new"},
	{Name: "reconnect-refills", Pitfall: "reconnect", Says: "gives a reopened session full buckets"},

	// cancel-budget: cancels on their own budget, always accepted when it
	// is unlimited; orders and modifies on Orders.
	{Name: "unlimited-cancels-use-orders", Pitfall: "cancel-budget", Says: "takes a cancel's token from Orders when the Cancels budget is unlimited"},
	{Name: "cancels-share-orders", Pitfall: "cancel-budget", Says: "takes a cancel's token from Orders (and names \"cancels\" when it refuses)"},
	{Name: "cancels-are-orders", Pitfall: "cancel-budget", Says: "handles a cancel as an order: a token from Orders, \"orders\" named when it refuses"},
	{Name: "modify-takes-cancels", Pitfall: "cancel-budget", Says: "takes a modify's token from Cancels, as if a modify were a cancel"},

	// heartbeat: accepted on an open session, touching nothing.
	{Name: "heartbeat-as-order", Pitfall: "heartbeat", Says: "handles a heartbeat as an order: it takes a token from Orders, and starts or ends a flood"},
	{Name: "heartbeat-ends-flood", Pitfall: "heartbeat", Says: "ends the session's flood on a heartbeat"},
	{Name: "heartbeat-answers-closed", Pitfall: "heartbeat", Says: "accepts a heartbeat on a session that is not open"},

	// escalation: by the flood's age from its first refusal; an accepted
	// message ends it, a Disconnect too.
	{Name: "flood-from-latest", Pitfall: "escalation", Says: "counts a flood's age from its latest refusal instead of its first"},
	{Name: "flood-never-ends", Pitfall: "escalation", Says: "never ends a flood on an accepted message"},
	{Name: "only-orders-end-flood", Pitfall: "escalation", Says: "ends a flood on an accepted new order or modify, not on an accepted cancel"},
	{Name: "escalates-after", Pitfall: "escalation", Says: "escalates once the flood is more than SilenceAfterNs (or DisconnectAfterNs) old, not as soon as it is that old"},
	{Name: "silence-before-disconnect", Pitfall: "escalation", Says: "looks at SilenceAfterNs before DisconnectAfterNs, so that a flood old enough for both is answered Silent"},
	{Name: "disconnect-keeps-flood", Pitfall: "escalation", Says: "does not end the flood when it disconnects the session, so that the reopened session's first refusal belongs to the old flood"},
	{Name: "disconnect-leaves-open", Pitfall: "escalation", Says: "answers Disconnect but leaves the session open, its flood going on"},
	{Name: "silent-says-nothing", Pitfall: "escalation", Says: "answers Silent without naming the budget or the retry-after"},

	// config-validation, as far as a Reload shows it.
	{Name: "accepts-equal-escalation", Pitfall: "config-validation", Says: "accepts SilenceAfterNs equal to DisconnectAfterNs"},
	{Name: "cancels-unchecked", Pitfall: "config-validation", Says: "does not check a limited Cancels budget against Orders' capacity and rate"},

	// exactness: the rest of the contract.
	{Name: "needs-more-than-a-token", Pitfall: "exactness", Says: "takes a token only when a budget holds more than one, not exactly one"},
	{Name: "open-twice-ok", Pitfall: "exactness", Says: "accepts an Open on a session already open, changing nothing"},
	{Name: "reopen-unknown-class", Pitfall: "exactness", Says: "reopens a closed session in a class the config does not have, with the budgets it had"},
})

// mistaken returns the package functions of the gateway with the named
// mistake ("" for none: then it is the contract's gateway).
func mistaken(mistake string) Impl {
	validate := func(cfg Config) error {
		for _, p := range problems(cfg) {
			if !overlooks(mistake, cfg, p) {
				return errors.New(p.String())
			}
		}
		return nil
	}
	return Impl{
		Validate: validate,
		New: func(cfg Config, nowNs uint64) (Gateway, error) {
			if err := validate(cfg); err != nil {
				return nil, err
			}
			return &gw{mistake: mistake, validate: validate, cfg: cloneConfig(cfg), now: nowNs, sessions: map[uint64]*gwSession{}}, nil
		},
	}
}

// overlooks reports whether Validate, with mistake, lets problem p of cfg
// through.
func overlooks(mistake string, cfg Config, p problem) bool {
	switch mistake {
	case "accepts-equal-escalation":
		return p.Field == "SilenceAfterNs" && cfg.SilenceAfterNs == cfg.DisconnectAfterNs
	case "cancels-unchecked":
		k := cfg.Classes[p.Class]
		return p.Field == "Cancels.Capacity" || p.Field == "Cancels.RatePerSec" && k.Cancels.RatePerSec > 0
	}
	return false
}

func cloneConfig(cfg Config) Config {
	cfg.Classes = maps.Clone(cfg.Classes)
	return cfg
}

// gw is the contract's gateway written again, lazily as a learner writes
// it (each bucket refilled when it is used or switched), with a switch for
// each mistake.
type gw struct {
	mistake  string
	validate func(Config) error
	cfg      Config
	now      uint64 // the latest time seen
	sessions map[uint64]*gwSession
}

type gwSession struct {
	class          string
	budgets        Class // the budgets its buckets follow
	open, flooding bool
	floodAt        uint64
	// silence, disconnect: the escalation times in force when the flood
	// began (deadlines-at-flood-start).
	silence, disconnect uint64
	orders, cancels     *gwBucket
}

// gwBucket is one budget: units held as of last, at most capU.
type gwBucket struct {
	unlimited   bool
	units, capU *big.Int
	rate        uint64
	last        uint64
}

func (g *gw) is(mistake string) bool { return g.mistake == mistake }

var twoTo64 = new(big.Int).Lsh(big.NewInt(1), 64)

func bigU(x uint64) *big.Int { return new(big.Int).SetUint64(x) }

// product is x×y, exact, or modulo 2^64 with the mistake wrapping.
func (g *gw) product(x, y uint64, wrapping string) *big.Int {
	p := new(big.Int).Mul(bigU(x), bigU(y))
	if g.is(wrapping) {
		p.Mod(p, twoTo64)
	}
	return p
}

// clock moves the clock to nowNs if it is later and returns the time the
// call happens at.
func (g *gw) clock(nowNs uint64) uint64 {
	if g.is("rewinds-clock") || g.is("rewinds-without-wrapping") {
		g.now = nowNs
	}
	g.now = max(g.now, nowNs)
	return g.now
}

// newBucket is b's bucket, full at now.
func (g *gw) newBucket(b Budget, now uint64) *gwBucket {
	if b.Capacity == 0 {
		return &gwBucket{unlimited: true, last: now}
	}
	c := g.product(b.Capacity, 1_000_000_000, "wrapping-capacity")
	return &gwBucket{units: new(big.Int).Set(c), capU: c, rate: b.RatePerSec, last: now}
}

// refill adds what the time from b.last to now earned, capped.
func (g *gw) refill(b *gwBucket, now uint64) {
	if b.unlimited {
		return
	}
	var elapsed uint64
	switch {
	case now >= b.last:
		elapsed = now - b.last
	case g.is("rewinds-clock"):
		elapsed = now - b.last // wraps
	}
	b.units.Add(b.units, g.product(elapsed, b.rate, "wrapping-refill"))
	if b.units.Cmp(b.capU) > 0 {
		b.units.Set(b.capU)
	}
	b.last = now
}

// take refills b up to now and takes a token if it holds one; else it
// returns the retry-after.
func (g *gw) take(b *gwBucket, now uint64) (ok bool, retryAfterNs uint64) {
	if b.unlimited {
		return true, 0
	}
	g.refill(b, now)
	if c := b.units.Cmp(unitsPerToken); c > 0 || c == 0 && !g.is("needs-more-than-a-token") {
		b.units.Sub(b.units, unitsPerToken)
		return true, 0
	}
	need := new(big.Int).Sub(unitsPerToken, b.units)
	rate := bigU(b.rate)
	d, rem := new(big.Int).QuoRem(need, rate, new(big.Int))
	switch g.mistake {
	case "retry-floor":
	case "retry-plus-one":
		d.Add(d, big.NewInt(1))
	case "retry-full-interval":
		d, rem = new(big.Int).QuoRem(unitsPerToken, rate, new(big.Int))
		if rem.Sign() != 0 {
			d.Add(d, big.NewInt(1))
		}
	case "wrapping-retry":
		sum := new(big.Int).Add(need, rate)
		sum.Sub(sum, big.NewInt(1)).Mod(sum, twoTo64)
		d.Quo(sum, rate)
	default:
		if rem.Sign() != 0 {
			d.Add(d, big.NewInt(1))
		}
	}
	return false, d.Uint64()
}

// switchBucket refills b up to now at its old rate and makes it follow
// nb: units kept, capped at the new capacity; a budget that was unlimited
// starts full.
func (g *gw) switchBucket(b *gwBucket, nb Budget, now uint64) *gwBucket {
	n := g.newBucket(nb, now)
	if b.unlimited || n.unlimited {
		if b.unlimited && !n.unlimited && g.is("unlimited-starts-empty") {
			n.units.SetInt64(0)
		}
		return n
	}
	if !g.is("reload-new-rate") {
		g.refill(b, now)
	}
	if b.units.Cmp(n.capU) < 0 {
		n.units.Set(b.units)
	}
	n.last = b.last
	return n
}

func (g *gw) switchTo(s *gwSession, class string, k Class, now uint64) {
	s.orders, s.cancels = g.switchBucket(s.orders, k.Orders, now), g.switchBucket(s.cancels, k.Cancels, now)
	s.class, s.budgets = class, k
}

func (g *gw) fresh(class string, k Class, now uint64) *gwSession {
	return &gwSession{class: class, budgets: k, open: true, orders: g.newBucket(k.Orders, now), cancels: g.newBucket(k.Cancels, now)}
}

var errGateway = errors.New("refused")

func (g *gw) Open(id uint64, class string, nowNs uint64) error {
	s := g.sessions[id]
	k, known := g.cfg.Classes[class]
	switch {
	case g.is("open-twice-ok") && known && s != nil && s.open,
		g.is("reopen-unknown-class") && !known && s != nil && !s.open:
		g.clock(nowNs)
		s.open = true
		return nil
	case (!known || s != nil && s.open) && g.is("failed-open-keeps-clock"):
		return errGateway
	}
	now := g.clock(nowNs)
	switch {
	case !known || s != nil && s.open:
		return errGateway
	case s == nil:
		g.sessions[id] = g.fresh(class, k, now)
		return nil
	case g.is("reopen-refused"):
		return errGateway
	case g.is("reconnect-refills"),
		g.is("reopen-other-class-refills") && s.class != class:
		flooding, floodAt := s.flooding, s.floodAt
		s = g.fresh(class, k, now)
		s.flooding, s.floodAt = flooding, floodAt
		g.sessions[id] = s
	case g.is("reopen-keeps-class"):
	case s.class != class || s.budgets != k:
		g.switchTo(s, class, k, now)
	}
	s.open = true
	return nil
}

func (g *gw) Admit(id uint64, kind Kind, nowNs uint64) Verdict {
	s := g.sessions[id]
	open := s != nil && s.open
	switch {
	case kind == Heartbeat && open && g.is("heartbeat-keeps-clock"):
		return Verdict{}
	case !open && g.is("closed-admit-keeps-clock"):
		return Verdict{Outcome: Disconnect}
	}
	now := g.clock(nowNs)
	switch {
	case kind == Heartbeat && g.is("heartbeat-answers-closed"):
		return Verdict{}
	case !open:
		return Verdict{Outcome: Disconnect}
	case kind == Heartbeat && !g.is("heartbeat-as-order"):
		if g.is("heartbeat-ends-flood") {
			s.flooding = false
		}
		return Verdict{}
	}
	b, name := g.budget(s, kind)
	ok, retry := g.take(b, now)
	if ok {
		if !g.is("flood-never-ends") && !(kind == Cancel && g.is("only-orders-end-flood")) {
			s.flooding = false
		}
		return Verdict{}
	}
	return g.refuse(s, name, retry, now, nowNs)
}

// budget is the bucket kind takes its token from, and its name.
func (g *gw) budget(s *gwSession, kind Kind) (*gwBucket, string) {
	switch {
	case kind == Modify && g.is("modify-takes-cancels"):
		return s.cancels, "cancels"
	case kind != Cancel:
		return s.orders, "orders"
	case g.is("cancels-are-orders"):
		return s.orders, "orders"
	case g.is("cancels-share-orders"), s.cancels.unlimited && g.is("unlimited-cancels-use-orders"):
		return s.orders, "cancels"
	}
	return s.cancels, "cancels"
}

// refuse answers a refused message at now (nowNs as the call gave it):
// the flood starts if none is going on, and its age escalates the answer.
func (g *gw) refuse(s *gwSession, name string, retry, now, nowNs uint64) Verdict {
	t := now
	if g.is("flood-age-rewinds") {
		t = nowNs
	}
	if !s.flooding || g.is("flood-from-latest") {
		s.flooding, s.floodAt = true, t
		s.silence, s.disconnect = g.cfg.SilenceAfterNs, g.cfg.DisconnectAfterNs
	}
	silence, disconnect := g.cfg.SilenceAfterNs, g.cfg.DisconnectAfterNs
	if g.is("deadlines-at-flood-start") {
		silence, disconnect = s.silence, s.disconnect
	}
	age := t - s.floodAt // wraps only where t may be before the flood began
	if t < s.floodAt && g.is("rewinds-without-wrapping") {
		age = 0
	}
	reached := func(after uint64) bool {
		switch {
		case after == 0:
			return false
		case g.is("wrapping-deadline"):
			return t >= s.floodAt+after // wraps
		case g.is("escalates-after"):
			return age > after
		}
		return age >= after
	}
	disconnects := reached(disconnect)
	if g.is("silence-before-disconnect") && reached(silence) {
		disconnects = false
	}
	switch {
	case disconnects:
		switch {
		case g.is("disconnect-leaves-open"):
		case g.is("disconnect-keeps-flood"):
			s.open = false
		default:
			s.open, s.flooding = false, false
		}
		return Verdict{Outcome: Disconnect}
	case reached(silence) && g.is("silent-says-nothing"):
		return Verdict{Outcome: Silent}
	case reached(silence):
		return Verdict{Outcome: Silent, Budget: name, RetryAfterNs: retry}
	}
	return Verdict{Outcome: Reject, Budget: name, RetryAfterNs: retry}
}

func (g *gw) Reload(cfg Config, nowNs uint64) error {
	if g.is("failed-reload-moves-clock") {
		g.clock(nowNs)
	}
	if err := g.validate(cfg); err != nil {
		return err
	}
	ids := slices.Sorted(maps.Keys(g.sessions))
	for _, id := range ids {
		s := g.sessions[id]
		if _, ok := cfg.Classes[s.class]; !ok && (s.open || g.is("refuses-classless-closed")) {
			if g.is("failed-reload-keeps-config") {
				g.cfg = cloneConfig(cfg)
			}
			return errGateway
		}
	}
	now := g.clock(nowNs)
	g.cfg = cloneConfig(cfg)
	for _, id := range ids {
		s := g.sessions[id]
		k, ok := g.cfg.Classes[s.class]
		switch {
		case !ok && g.is("forgets-classless"):
			delete(g.sessions, id)
		case !ok, !s.open && g.is("switches-open-only"):
		case g.is("reload-refills"):
			s.orders, s.cancels, s.budgets = g.newBucket(k.Orders, now), g.newBucket(k.Cancels, now), k
		default:
			g.switchTo(s, s.class, k, now)
		}
		if g.is("reload-ends-floods") {
			s.flooding = false
		}
	}
	return nil
}
