// Package gateway is the week 3 "policy" simulation: one client's flood on
// a timeline, through two gateways on the same traffic. One is the gateway
// exercise (the reference, or the learner's): new orders and modifies share
// the orders budget, cancels have their own, heartbeats touch nothing, a
// refusal says which budget refused and when it holds a token again, and a
// flood escalates from Reject to Silent to Disconnect at the configured
// ages. The other counts cancels against the orders' budget: one shared
// budget, the rest alike, where the flooding client cannot cancel. Midway
// operations reload the configuration with lower limits; nobody is
// refilled.
//
// Everything runs in virtual time, deterministically, without I/O.
package gateway

import (
	"errors"
	"strconv"

	"ratelab/lab/contract"
	"ratelab/lab/guard"
	ref "ratelab/solutions/gateway"
)

// Kind is the kind of a message, numbered as the gateway exercise's.
type Kind uint8

// The kinds of message.
const (
	NewOrder Kind = iota
	Modify
	Cancel
	Heartbeat
	NumKinds
)

var kindNames = [NumKinds]string{"new order", "modify", "cancel", "heartbeat"}

func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return "kind " + strconv.Itoa(int(k))
}

// Outcome is what a gateway did with a message, numbered as the
// exercise's.
type Outcome uint8

// The outcomes.
const (
	Accept Outcome = iota
	Reject
	Silent
	Disconnect
	NumOutcomes
)

var outcomeNames = [NumOutcomes]string{"accept", "reject", "silent", "disconnect"}

func (o Outcome) String() string {
	if o < NumOutcomes {
		return outcomeNames[o]
	}
	return "outcome " + strconv.Itoa(int(o))
}

// Budget (a token bucket: Capacity tokens refilled at RatePerSec,
// Capacity 0 unlimited), Class (a session class's budgets) and Config are
// the gateway exercise's, declared once, in its model (grader/model).
type (
	Budget = contract.GatewayBudget
	Class  = contract.GatewayClass
	Config = contract.GatewayConfig
)

// Verdict is a gateway's answer to one message.
type Verdict struct {
	Outcome      Outcome
	Budget       string // "orders" or "cancels" for Reject and Silent
	RetryAfterNs uint64
}

// Gateway is the gateway exercise's API.
type Gateway interface {
	Open(session uint64, class string, nowNs uint64) error
	Admit(session uint64, kind Kind, nowNs uint64) Verdict
	Reload(cfg Config, nowNs uint64) error
}

// Impl is one implementation of the gateway exercise. A nil New means it
// is unavailable, and Missing says why.
type Impl struct {
	Name    string
	New     func(cfg Config, nowNs uint64) (Gateway, error)
	Missing string
}

// Reference is the Impl built from solutions/gateway.
var Reference = Impl{Name: "Reference", New: func(cfg Config, nowNs uint64) (Gateway, error) {
	g, err := ref.New(refConfig(cfg), nowNs)
	if err != nil {
		return nil, err
	}
	return refGateway{g}, nil
}}

func refConfig(c Config) ref.Config {
	out := ref.Config{Classes: map[string]ref.Class{}, SilenceAfterNs: c.SilenceAfterNs, DisconnectAfterNs: c.DisconnectAfterNs}
	for name, k := range c.Classes {
		out.Classes[name] = ref.Class{
			Orders:  ref.Budget{Capacity: k.Orders.Capacity, RatePerSec: k.Orders.RatePerSec},
			Cancels: ref.Budget{Capacity: k.Cancels.Capacity, RatePerSec: k.Cancels.RatePerSec},
		}
	}
	return out
}

type refGateway struct{ g *ref.Gateway }

func (r refGateway) Open(session uint64, class string, now uint64) error {
	return r.g.Open(session, class, now)
}

func (r refGateway) Admit(session uint64, kind Kind, now uint64) Verdict {
	v := r.g.Admit(session, ref.Kind(kind), now)
	return Verdict{Outcome: Outcome(v.Outcome), Budget: v.Budget, RetryAfterNs: v.RetryAfterNs}
}

func (r refGateway) Reload(cfg Config, now uint64) error { return r.g.Reload(refConfig(cfg), now) }

// Phase is a stretch of the client's behaviour: from FromNs on, a new
// order every OrderEveryNs and a cancel every CancelEveryNs (0: none).
type Phase struct {
	Name          string
	FromNs        uint64
	OrderEveryNs  uint64
	CancelEveryNs uint64
}

// Scenario is the run: the client's phases, heartbeats, how soon it logs
// on again after a disconnect, and the reload.
type Scenario struct {
	Config           Config
	Class            string
	Phases           []Phase // in time order, the first from 0
	HeartbeatEveryNs uint64
	ReconnectNs      uint64 // the client logs on again this long after a Disconnect
	ReloadAtNs       uint64
	Reload           Config
	DurationNs       uint64
}

// Session is the client's session id.
const Session = 7

// DefaultScenario is the lesson's: a regular class of 10 orders (2 a
// second) and 20 cancels (8 a second); silence after 250 ms of flood,
// disconnect after 450 ms. The client trades calmly, then a loop goes
// wrong and sends 50 orders a second while the client tries to cancel
// five times a second; then it floods without cancelling; at 8 s it is
// calm again and at 9 s operations halve the limits.
func DefaultScenario() Scenario {
	regular := Class{Orders: Budget{Capacity: 10, RatePerSec: 2}, Cancels: Budget{Capacity: 20, RatePerSec: 8}}
	lower := Class{Orders: Budget{Capacity: 4, RatePerSec: 1}, Cancels: Budget{Capacity: 8, RatePerSec: 4}}
	return Scenario{
		Config: Config{Classes: map[string]Class{"regular": regular}, SilenceAfterNs: 250_000_000, DisconnectAfterNs: 450_000_000},
		Class:  "regular",
		Phases: []Phase{
			{Name: "calm", FromNs: 0, OrderEveryNs: 700_000_000, CancelEveryNs: 1_300_000_000},
			{Name: "flood while cancelling", FromNs: 2_000_000_000, OrderEveryNs: 20_000_000, CancelEveryNs: 200_000_000},
			{Name: "flood", FromNs: 5_000_000_000, OrderEveryNs: 20_000_000},
			{Name: "calm", FromNs: 8_000_000_000, OrderEveryNs: 400_000_000, CancelEveryNs: 1_000_000_000},
		},
		HeartbeatEveryNs: 500_000_000,
		ReconnectNs:      1_000_000_000,
		ReloadAtNs:       9_000_000_000,
		Reload:           Config{Classes: map[string]Class{"regular": lower}, SilenceAfterNs: 250_000_000, DisconnectAfterNs: 450_000_000},
		DurationNs:       12_000_000_000,
	}
}

// Event is one thing on the timeline.
type Event struct {
	AtNs    uint64
	Kind    Kind // for a message
	Verdict Verdict
	Mark    Mark // MarkNone for a message
	FloodNs uint64
	// FloodNs is, for a refused message, the age of the flood it belongs
	// to (as the lab tracks it from the verdicts); else 0.
}

// Mark is an event that is not a message.
type Mark uint8

// The marks.
const (
	MarkNone      Mark = iota
	MarkOpen           // the client logged on (again)
	MarkReload         // operations reloaded the configuration (Verdict.Budget holds an error, if any)
	MarkFlood          // a flood began: the first refusal since the last accepted message
	MarkFloodOver      // an accepted order, modify or cancel ended the flood
)

// Side is one gateway on the scenario's traffic.
type Side struct {
	guard.Side         // the Impl's name, or "One shared budget"; whether and why it stopped
	Events     []Event // in time order

	// Counts[kind][outcome] counts messages.
	Counts [NumKinds][NumOutcomes]uint64

	g        Gateway
	open     bool
	reopenAt uint64
	flooding bool
	floodAt  uint64
}

// Run is the scenario through both gateways.
type Run struct {
	sc     Scenario
	now    uint64
	next   [3]uint64 // next order, cancel, heartbeat
	reload bool
	Gate   Side // the Impl: cancels on their own budget
	Shared Side // one shared budget
}

// Sides in the encoding's order.
func (r *Run) Sides() [2]*Side { return [2]*Side{&r.Gate, &r.Shared} }

// New starts the scenario at time 0: both gateways made and the client
// logged on.
func New(sc Scenario, impl Impl) (*Run, error) {
	if len(sc.Phases) == 0 || sc.Phases[0].FromNs != 0 || sc.HeartbeatEveryNs == 0 || sc.DurationNs == 0 {
		return nil, errors.New("gateway: the scenario needs phases from 0, heartbeats and a duration")
	}
	for _, p := range sc.Phases {
		if p.OrderEveryNs == 0 {
			return nil, errors.New("gateway: phase " + strconv.Quote(p.Name) + " sends no orders")
		}
	}
	r := &Run{sc: sc}
	r.Gate.Name = impl.Name
	r.Shared.Name = "One shared budget"
	shared, err := newShared(sc.Config, 0)
	if err != nil {
		return nil, err
	}
	r.Shared.g = shared
	if impl.New == nil {
		r.Gate.Stop(guard.Missing(impl.Missing))
	} else {
		r.Gate.Guard(func() {
			g, err := impl.New(sc.Config, 0)
			if err != nil {
				r.Gate.Stop("New failed: " + err.Error())
				return
			}
			r.Gate.g = g
		})
	}
	for _, sd := range r.Sides() {
		sd.logOn(sc.Class, 0)
	}
	r.next = [3]uint64{sc.Phases[0].OrderEveryNs / 2, sc.Phases[0].CancelEveryNs, 0}
	if sc.Phases[0].CancelEveryNs == 0 {
		r.next[1] = ^uint64(0)
	}
	return r, nil
}

// Scenario returns the scenario.
func (r *Run) Scenario() Scenario { return r.sc }

// Now is the virtual time reached.
func (r *Run) Now() uint64 { return r.now }

// Done reports whether the run reached its duration.
func (r *Run) Done() bool { return r.now >= r.sc.DurationNs }

func (r *Run) phase(t uint64) Phase {
	p := r.sc.Phases[0]
	for _, q := range r.sc.Phases {
		if q.FromNs <= t {
			p = q
		}
	}
	return p
}

// Step runs the scenario up to untilNs (at most its duration).
func (r *Run) Step(untilNs uint64) {
	until := min(untilNs, r.sc.DurationNs)
	for {
		// The next thing due: a reload, a message, a phase change.
		at, what := ^uint64(0), -1
		for i, t := range r.next {
			if t < at {
				at, what = t, i
			}
		}
		if !r.reload && r.sc.ReloadAtNs > 0 && r.sc.ReloadAtNs <= at {
			at, what = r.sc.ReloadAtNs, 3
		}
		if at > until {
			break
		}
		switch what {
		case 3:
			r.reload = true
			for _, sd := range r.Sides() {
				sd.doReload(r.sc.Reload, at)
			}
			continue
		case 2:
			r.next[2] += r.sc.HeartbeatEveryNs
			r.send(Heartbeat, at)
			continue
		}
		p := r.phase(at)
		if what == 0 {
			r.send(NewOrder, at)
			r.next[0] = r.schedule(at, p.OrderEveryNs, func(q Phase) uint64 { return q.OrderEveryNs })
		} else {
			r.send(Cancel, at)
			r.next[1] = r.schedule(at, p.CancelEveryNs, func(q Phase) uint64 { return q.CancelEveryNs })
		}
	}
	r.now = max(r.now, until)
}

// schedule returns the next time after at for a stream whose interval in
// the phase of at is every: at+every, unless a later phase begins first,
// which then starts the stream afresh at its own interval.
func (r *Run) schedule(at, every uint64, of func(Phase) uint64) uint64 {
	next := ^uint64(0)
	if every > 0 {
		next = at + every
	}
	for _, q := range r.sc.Phases {
		if q.FromNs > at && q.FromNs < next {
			if e := of(q); e > 0 {
				return q.FromNs + min(e, 10_000_000)
			}
			// A phase without this stream stops it until a later one.
			return r.schedule(q.FromNs, 0, of)
		}
	}
	return next
}

func (r *Run) send(k Kind, at uint64) {
	for _, sd := range r.Sides() {
		sd.send(k, at, r.sc)
	}
}

func (sd *Side) logOn(class string, at uint64) {
	if sd.Stopped {
		return
	}
	sd.Guard(func() {
		if err := sd.g.Open(Session, class, at); err != nil {
			sd.Stop("Open failed: " + err.Error())
			return
		}
		sd.open = true
		sd.Events = append(sd.Events, Event{AtNs: at, Mark: MarkOpen})
	})
}

func (sd *Side) doReload(cfg Config, at uint64) {
	if sd.Stopped {
		return
	}
	sd.Guard(func() {
		e := Event{AtNs: at, Mark: MarkReload}
		if err := sd.g.Reload(cfg, at); err != nil {
			e.Verdict.Budget = err.Error()
		}
		sd.Events = append(sd.Events, e)
	})
}

func (sd *Side) send(k Kind, at uint64, sc Scenario) {
	if sd.Stopped {
		return
	}
	if !sd.open && at >= sd.reopenAt {
		sd.logOn(sc.Class, at)
	}
	if !sd.open {
		return // the client waits to log on again
	}
	sd.Guard(func() {
		v := sd.g.Admit(Session, k, at)
		if v.Outcome >= NumOutcomes {
			sd.Stop("Admit returned outcome " + strconv.Itoa(int(v.Outcome)))
			return
		}
		sd.Counts[k][v.Outcome]++
		e := Event{AtNs: at, Kind: k, Verdict: v}
		switch {
		case v.Outcome == Accept && k != Heartbeat:
			if sd.flooding {
				sd.flooding = false
				sd.Events = append(sd.Events, Event{AtNs: at, Mark: MarkFloodOver})
			}
		case v.Outcome != Accept:
			if !sd.flooding {
				sd.flooding, sd.floodAt = true, at
				sd.Events = append(sd.Events, Event{AtNs: at, Mark: MarkFlood})
			}
			e.FloodNs = at - sd.floodAt
			if v.Outcome == Disconnect {
				sd.open, sd.flooding = false, false
				sd.reopenAt = at + sc.ReconnectNs
			}
		}
		sd.Events = append(sd.Events, e)
	})
}
