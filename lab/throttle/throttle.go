package throttle

import (
	"errors"
	"math/rand/v2"
	"strconv"

	"ratelab/lab/guard"
	ref "ratelab/solutions/throttle"
)

// The throttle exercise's types: the lab speaks the contract's language,
// and a learner's package is converted to it field by field.
type (
	State      = ref.State
	Level      = ref.Level
	Config     = ref.Config
	RateLimit  = ref.RateLimit
	Status     = ref.Status
	Congestion = ref.CongestionConfig
)

// Gate is the throttle exercise's API, as the run uses it.
type Gate interface {
	SetState(s State, nowNs uint64)
	SetIssuerLimit(addr uint64, rl RateLimit) error
	SetWhitelisted(addr uint64, on bool)
	Write(addr uint64, nowNs uint64) error
	AdjustCongestion(nowNs uint64) Level
	Status(nowNs uint64) Status
}

// Impl is one implementation of the throttle exercise: its constructor and
// its three refusals, which Write's errors are matched against with
// errors.Is. A nil New means it is unavailable, and Missing says why.
type Impl struct {
	Name                                        string
	New                                         func(cfg Config, nowNs uint64) (Gate, error)
	ErrPaused, ErrDegradedLimit, ErrRateLimited error
	Missing                                     string
}

// Reference is the Impl built from solutions/throttle.
var Reference = Impl{
	Name: "Reference",
	New: func(cfg Config, nowNs uint64) (Gate, error) {
		g, err := ref.New(cfg, nowNs)
		if err != nil {
			return nil, err
		}
		return g, nil
	},
	ErrPaused: ref.ErrPaused, ErrDegradedLimit: ref.ErrDegradedLimit, ErrRateLimited: ref.ErrRateLimited,
}

// Outcome is what decided a write.
type Outcome uint8

// The outcomes, in the order Write checks.
const (
	Accepted    Outcome = iota
	Paused              // ErrPaused
	DegradedCap         // ErrDegradedLimit
	RateLimited         // ErrRateLimited
	Other               // an error that is none of the three
	NumOutcomes
)

var outcomeNames = [NumOutcomes]string{"accepted", "paused", "degraded cap", "rate limit", "other error"}

func (o Outcome) String() string {
	if o < NumOutcomes {
		return outcomeNames[o]
	}
	return "outcome " + strconv.Itoa(int(o))
}

// Kind is the kind of an Event.
type Kind uint8

// The kinds of event.
const (
	Write     Kind = iota // an address's write
	Keeper                // the keeper ran AdjustCongestion
	Operator              // the operator set the state
	Recovered             // a Degraded or Paused period ended by itself
)

// Phase is a stretch of an address's traffic: from FromNs on, a write
// every EveryNs on average (0: none).
type Phase struct{ FromNs, EveryNs uint64 }

// Address is one of the callers.
type Address struct {
	Name        string
	Addr        uint64
	Whitelisted bool
	Override    RateLimit // a limit of its own if MaxCalls > 0
	Phases      []Phase   // in time order, the first from 0
}

// Action is a scripted SetState by the operator.
type Action struct {
	AtNs uint64
	Set  State
}

// MaxAddresses is the most addresses a scenario has (the encoding's
// layout holds that many).
const MaxAddresses = 4

// Scenario is one preset of the console.
type Scenario struct {
	Name, Title   string
	Config        Config
	Addresses     []Address // at most MaxAddresses
	KeeperEveryNs uint64    // the keeper's schedule: at every multiple of it after 0
	Script        []Action  // in time order
	DurationNs    uint64
}

// Event is one thing on the timeline.
type Event struct {
	AtNs    uint64
	Kind    Kind
	Addr    int     // the address's index in the scenario, for a write
	Outcome Outcome // for a write
	Err     string  // for an Other outcome, the error's text

	// Before is the gate's Status at the instant, just before the write,
	// the keeper's adjustment or the operator's action; After is its
	// Status just after (for a write, Before only).
	Before, After Status

	// For a write: the limit in force for the address (its override's
	// MaxCalls, else the global MaxCalls of Before; 0 if whitelisted), and
	// its accepted writes in that limit's window before the call, as the
	// run counts them.
	Limit, Used uint32

	// For a Recovered event: when the period began, and the last instant
	// the gate was seen in it (the run looks one nanosecond before the
	// recovery is due). Before is the last Status in the period, After the
	// first after it.
	SinceNs, LastSeenNs uint64
}

// Run is a scenario through one gate.
type Run struct {
	sc      Scenario
	name    string
	now     uint64
	g       Gate
	impl    Impl
	Stopped bool
	Status  string // why it stopped
	Events  []Event
	Counts  [MaxAddresses][NumOutcomes]uint64

	last     Status // the latest Status seen
	lastOK   bool
	rng      []*rand.Rand
	next     []uint64 // each address's next write
	keeper   uint64
	script   int
	probes   []uint64 // Status looks due, in time order
	period   periodTrack
	accepted [][]uint64 // each address's accepted write times
	actions  []State    // the operator's actions asked for, applied at now
}

// periodTrack follows the Degraded or Paused period going on, as seen
// through Status.
type periodTrack struct {
	on             bool
	state          State
	since, lastSee uint64
	lastStatus     Status
}

// New starts the scenario at time 0 with seed's jitter: the gate made
// from impl with the scenario's configuration, its overrides and
// whitelist set.
func New(sc Scenario, impl Impl, seed uint64) (*Run, error) {
	if len(sc.Addresses) == 0 || len(sc.Addresses) > MaxAddresses {
		return nil, errors.New("throttle: a scenario has 1 to " + strconv.Itoa(MaxAddresses) + " addresses, not " + strconv.Itoa(len(sc.Addresses)))
	}
	if sc.KeeperEveryNs == 0 || sc.DurationNs == 0 {
		return nil, errors.New("throttle: the scenario needs a keeper schedule and a duration")
	}
	for _, a := range sc.Addresses {
		if len(a.Phases) == 0 || a.Phases[0].FromNs != 0 {
			return nil, errors.New("throttle: address " + strconv.Quote(a.Name) + " needs phases from 0")
		}
	}
	r := &Run{sc: sc, name: impl.Name, impl: impl, keeper: sc.KeeperEveryNs}
	for i, a := range sc.Addresses {
		r.rng = append(r.rng, rand.New(rand.NewPCG(seed, uint64(i))))
		r.accepted = append(r.accepted, nil)
		r.next = append(r.next, r.firstWrite(i, a.Phases[0]))
	}
	if impl.New == nil {
		r.stop(guard.Missing(impl.Missing))
		return r, nil
	}
	r.guard(func() {
		g, err := impl.New(sc.Config, 0)
		if err != nil {
			r.stop("New failed: " + err.Error())
			return
		}
		if g == nil {
			r.stop("New returned no gate and no error")
			return
		}
		r.g = g
		for _, a := range sc.Addresses {
			if a.Override.MaxCalls > 0 {
				if err := g.SetIssuerLimit(a.Addr, a.Override); err != nil {
					r.stop("SetIssuerLimit failed: " + err.Error())
					return
				}
			}
			if a.Whitelisted {
				g.SetWhitelisted(a.Addr, true)
			}
		}
		r.look(0)
	})
	return r, nil
}

// Scenario returns the scenario.
func (r *Run) Scenario() Scenario { return r.sc }

// Name is the implementation's name.
func (r *Run) Name() string { return r.name }

// ImplStatus is the implementation's name, and why it stopped if it did.
func (r *Run) ImplStatus() string {
	if r.Stopped {
		return r.name + ": " + r.Status
	}
	return r.name
}

// Now is the virtual time reached.
func (r *Run) Now() uint64 { return r.now }

// Done reports whether the run reached its duration.
func (r *Run) Done() bool { return r.now >= r.sc.DurationNs }

// Last returns the gate's latest Status, as the run last read it (at Now
// after a Step), and reports whether there is one.
func (r *Run) Last() (Status, bool) { return r.last, r.lastOK && !r.Stopped }

// Act asks the operator to set the state at the virtual time reached
// (Now): it is applied at once, before anything later. A run that is done
// or stopped ignores it.
func (r *Run) Act(s State) {
	if r.Stopped || r.Done() || s > ref.Paused {
		return
	}
	r.operator(s, r.now)
}

func (r *Run) guard(f func()) {
	defer func() {
		if v := recover(); v != nil {
			r.stop(guard.Status(v))
		}
	}()
	f()
}

func (r *Run) stop(status string) {
	if !r.Stopped {
		r.Stopped, r.Status = true, status
	}
}

// every returns address i's interval at t.
func (r *Run) every(i int, t uint64) uint64 {
	ph := r.sc.Addresses[i].Phases
	e := ph[0].EveryNs
	for _, p := range ph {
		if p.FromNs <= t {
			e = p.EveryNs
		}
	}
	return e
}

// jittered returns every moved by up to a fifth either way, by address
// i's draws.
func (r *Run) jittered(i int, every uint64) uint64 {
	span := every / 5
	if span == 0 {
		return every
	}
	return every - span + r.rng[i].Uint64N(2*span+1)
}

func (r *Run) firstWrite(i int, p Phase) uint64 {
	if p.EveryNs == 0 {
		return r.nextPhase(i, 0)
	}
	return p.FromNs + r.jittered(i, p.EveryNs)/2
}

// nextPhase returns when address i's first write after t is due if it is
// silent at t: the start of the next phase that sends, jittered in.
func (r *Run) nextPhase(i int, t uint64) uint64 {
	for _, p := range r.sc.Addresses[i].Phases {
		if p.FromNs > t && p.EveryNs > 0 {
			return p.FromNs + r.jittered(i, p.EveryNs)/2
		}
	}
	return ^uint64(0)
}

// schedule returns address i's next write after one at t.
func (r *Run) schedule(i int, t uint64) uint64 {
	e := r.every(i, t)
	if e == 0 {
		return r.nextPhase(i, t)
	}
	next := t + r.jittered(i, e)
	for _, p := range r.sc.Addresses[i].Phases {
		if p.FromNs > t && p.FromNs < next {
			// A new phase starts afresh at its own pace.
			if p.EveryNs == 0 {
				return r.nextPhase(i, p.FromNs)
			}
			return p.FromNs + r.jittered(i, p.EveryNs)/2
		}
	}
	return next
}

// Step runs the scenario up to untilNs (at most its duration), then reads
// the gate's Status there.
func (r *Run) Step(untilNs uint64) {
	until := min(untilNs, r.sc.DurationNs)
	for !r.Stopped {
		// The next thing due: the script, a probe, the keeper, a write; at
		// one instant in that order.
		at, what := ^uint64(0), -1
		if r.script < len(r.sc.Script) {
			at, what = r.sc.Script[r.script].AtNs, 0
		}
		if len(r.probes) > 0 && r.probes[0] < at {
			at, what = r.probes[0], 1
		}
		if r.keeper < at {
			at, what = r.keeper, 2
		}
		addr := -1
		for i, t := range r.next {
			if t < at {
				at, what, addr = t, 3, i
			}
		}
		if what < 0 || at > until {
			break
		}
		at = max(at, r.now)
		switch what {
		case 0:
			r.operator(r.sc.Script[r.script].Set, at)
			r.script++
		case 1:
			r.probes = r.probes[1:]
			r.guard(func() { r.look(at) })
		case 2:
			r.keeper += r.sc.KeeperEveryNs
			r.keep(at)
		case 3:
			r.next[addr] = r.schedule(addr, at)
			r.write(addr, at)
		}
		r.now = at
	}
	r.now = max(r.now, until)
	if !r.Stopped {
		r.guard(func() { r.look(r.now) })
	}
}

// look reads Status at t and follows the period going on: a Degraded or
// Paused period the gate has left without the operator ends with a
// Recovered event at t.
func (r *Run) look(t uint64) Status {
	st := r.g.Status(t)
	r.last, r.lastOK = st, true
	p := &r.period
	switch {
	case st.State == ref.Normal && p.on:
		r.Events = append(r.Events, Event{AtNs: t, Kind: Recovered, Before: p.lastStatus, After: st, SinceNs: p.since, LastSeenNs: p.lastSee})
		p.on = false
	case st.State != ref.Normal && p.on && st.State == p.state:
		p.lastSee, p.lastStatus = t, st
	case st.State != ref.Normal:
		// A period the run did not see begin (or another state than the
		// one set): follow it from here.
		*p = periodTrack{on: true, state: st.State, since: t, lastSee: t, lastStatus: st}
	}
	return st
}

// operator sets the state s at t.
func (r *Run) operator(s State, t uint64) {
	r.guard(func() {
		before := r.look(t)
		r.g.SetState(s, t)
		after := r.g.Status(t)
		r.last = after
		r.Events = append(r.Events, Event{AtNs: t, Kind: Operator, Before: before, After: after})
		if after.State == ref.Normal {
			r.period.on = false
			return
		}
		r.period = periodTrack{on: true, state: after.State, since: t, lastSee: t, lastStatus: after}
		if ra := after.RecoverAtNs; ra > t {
			r.addProbe(ra - 1)
			r.addProbe(ra)
		}
	})
}

func (r *Run) addProbe(t uint64) {
	i := 0
	for i < len(r.probes) && r.probes[i] <= t {
		if r.probes[i] == t {
			return
		}
		i++
	}
	r.probes = append(r.probes, 0)
	copy(r.probes[i+1:], r.probes[i:])
	r.probes[i] = t
}

// keep runs the keeper at t.
func (r *Run) keep(t uint64) {
	r.guard(func() {
		before := r.look(t)
		r.g.AdjustCongestion(t)
		after := r.g.Status(t)
		r.last = after
		r.Events = append(r.Events, Event{AtNs: t, Kind: Keeper, Before: before, After: after})
	})
}

// write makes address i's write at t.
func (r *Run) write(i int, t uint64) {
	r.guard(func() {
		a := r.sc.Addresses[i]
		before := r.look(t)
		e := Event{AtNs: t, Kind: Write, Addr: i, Before: before}
		window := before.WindowNs
		switch {
		case a.Whitelisted:
			e.Limit = 0
		case a.Override.MaxCalls > 0:
			e.Limit, window = a.Override.MaxCalls, a.Override.WindowNs
		default:
			e.Limit = before.MaxCalls
		}
		e.Used = r.used(i, t, window)
		err := r.g.Write(a.Addr, t)
		switch {
		case err == nil:
			e.Outcome = Accepted
			r.accepted[i] = append(r.accepted[i], t)
		case r.impl.ErrPaused != nil && errors.Is(err, r.impl.ErrPaused):
			e.Outcome = Paused
		case r.impl.ErrDegradedLimit != nil && errors.Is(err, r.impl.ErrDegradedLimit):
			e.Outcome = DegradedCap
		case r.impl.ErrRateLimited != nil && errors.Is(err, r.impl.ErrRateLimited):
			e.Outcome = RateLimited
		default:
			e.Outcome, e.Err = Other, err.Error()
		}
		r.Counts[i][e.Outcome]++
		r.Events = append(r.Events, e)
	})
}

// used counts address i's accepted writes in (t-window, t], forgetting
// those before it (windows never grow in a run: overrides are fixed, the
// global window too).
func (r *Run) used(i int, t, window uint64) uint32 {
	acc := r.accepted[i]
	from := uint64(0)
	if t >= window {
		from = t - window + 1
	}
	k := 0
	for k < len(acc) && acc[k] < from {
		k++
	}
	r.accepted[i] = acc[k:]
	return uint32(len(r.accepted[i]))
}
