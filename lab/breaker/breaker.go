package breaker

import (
	"container/heap"
	"errors"
	"strconv"

	"ratelab/lab/contract"
	"ratelab/lab/guard"
	ref "ratelab/solutions/breaker"
)

// State is a breaker's state, numbered as the breaker exercise's.
type State uint8

// The states.
const (
	Closed State = iota
	Open
	HalfOpen
	NumStates
)

var stateNames = [NumStates]string{"closed", "open", "half-open"}

func (s State) String() string {
	if s < NumStates {
		return stateNames[s]
	}
	return "state " + strconv.Itoa(int(s))
}

// Config is the breaker exercise's Config, declared once, in its model
// (grader/model).
type Config = contract.BreakerConfig

// Breaker is the breaker exercise's API.
type Breaker interface {
	Allow(nowNs uint64) (ticket uint64, ok bool)
	Done(ticket uint64, success bool, nowNs uint64)
	State(nowNs uint64) State
}

// Impl is one implementation of the breaker exercise. A nil New means it
// is unavailable, and Missing says why.
type Impl struct {
	Name    string
	New     func(cfg Config, nowNs uint64) (Breaker, error)
	Missing string
}

// Reference is the Impl built from solutions/breaker.
var Reference = Impl{Name: "Reference", New: func(cfg Config, nowNs uint64) (Breaker, error) {
	b, err := ref.New(ref.Config(cfg), nowNs)
	if err != nil {
		return nil, err
	}
	return refBreaker{b}, nil
}}

type refBreaker struct{ b *ref.Breaker }

func (r refBreaker) Allow(now uint64) (uint64, bool)    { return r.b.Allow(now) }
func (r refBreaker) Done(t uint64, ok bool, now uint64) { r.b.Done(t, ok, now) }
func (r refBreaker) State(now uint64) State             { return State(r.b.State(now)) }

// Span is a stretch of virtual time, [FromNs, ToNs).
type Span struct{ FromNs, ToNs uint64 }

// Scenario is a run: the breaker's configuration, the clients, the backend
// and when it is down.
type Scenario struct {
	Name, Title string
	Breaker     Config

	Clients int    // callers, each with its own steady pace
	EveryNs uint64 // each client sends a new request this often
	Tries   int    // attempts per request, the first included
	RetryNs uint64 // the wait before a failed attempt is tried again

	LatencyNs    uint64 // a healthy backend answers a call in this long
	SlowPerMille uint32 // healthy: the share of calls that are slow, per thousand
	SlowNs       uint64 // a slow call succeeds after this long
	FailNs       uint64 // a down backend fails a call in this long
	HangPerMille uint32 // down: the share of calls that hang, per thousand
	TimeoutNs    uint64 // a hung call fails after this long

	Down       []Span // when the backend is down, in time order
	Slow       []Span // when every call the backend answers is slow (SlowNs)
	DurationNs uint64
	Seed       uint64
}

// Validate reports what makes sc unusable, or nil.
func (sc Scenario) Validate() error {
	switch {
	case sc.Clients < 1 || sc.Clients > 64:
		return errors.New("breaker: Clients must be from 1 to 64")
	case sc.EveryNs == 0 || sc.DurationNs == 0:
		return errors.New("breaker: EveryNs and DurationNs must be above 0")
	case sc.Tries < 1 || sc.Tries > 10:
		return errors.New("breaker: Tries must be from 1 to 10")
	case sc.LatencyNs == 0 || sc.SlowNs == 0 || sc.FailNs == 0 || sc.TimeoutNs == 0:
		return errors.New("breaker: every latency must be above 0")
	case sc.SlowPerMille > 1000 || sc.HangPerMille > 1000:
		return errors.New("breaker: a share per thousand must be at most 1000")
	}
	for i, d := range sc.Down {
		if d.ToNs <= d.FromNs || (i > 0 && d.FromNs < sc.Down[i-1].ToNs) {
			return errors.New("breaker: outage " + strconv.Itoa(i) + " is empty or out of order")
		}
	}
	for i, d := range sc.Slow {
		if d.ToNs <= d.FromNs {
			return errors.New("breaker: slow span " + strconv.Itoa(i) + " is empty")
		}
	}
	return nil
}

func within(spans []Span, t uint64) bool {
	for _, d := range spans {
		if t >= d.FromNs && t < d.ToNs {
			return true
		}
	}
	return false
}

// DownAt reports whether the backend is down at t.
func (sc Scenario) DownAt(t uint64) bool { return within(sc.Down, t) }

// DownNs returns how long the backend has been down in [0, t).
func (sc Scenario) DownNs(t uint64) uint64 {
	var n uint64
	for _, d := range sc.Down {
		if t > d.FromNs {
			n += min(t, d.ToNs) - d.FromNs
		}
	}
	return n
}

// Names are the scenarios' names, in the lab's order; Named returns each.
var Names = []string{OutageName, SlowCallsName, BlipName}

// The scenarios' names.
const (
	OutageName    = "outage"
	SlowCallsName = "slow-calls"
	BlipName      = "blip"
)

// base is what the scenarios share: 8 clients sending 100 requests a
// second in all, 3 tries 50 ms apart, and a breaker that opens after 5
// failures in a row, stays open 1 s and lets 3 probes through.
func base() Scenario {
	return Scenario{
		Breaker: Config{FailureThreshold: 5, OpenNs: 1_000_000_000, HalfOpenProbes: 3},
		Clients: 8, EveryNs: 80_000_000, Tries: 3, RetryNs: 50_000_000,
		LatencyNs: 30_000_000, SlowPerMille: 50, SlowNs: 700_000_000,
		FailNs: 20_000_000, HangPerMille: 150, TimeoutNs: 1_000_000_000,
		DurationNs: 10_000_000_000, Seed: 1,
	}
}

// Named returns the scenario called name and reports whether there is one:
//
//   - outage: the backend is down from 2 s to 5.5 s; the breaker's probes
//     fail until it is back;
//   - slow-calls: from 1.5 s every call takes 1.5 s, and from 2 s to 4.5 s
//     the backend is down and every call hangs until a 300 ms timeout: the
//     slow successes arrive while the breaker is open or half-open, the
//     hung calls after it opened, and a breaker without generations closes
//     on them in the middle of the crash;
//   - blip: the backend is down for 300 ms only, and the breaker stays
//     open its full second all the same.
func Named(name string) (Scenario, bool) {
	sc := base()
	sc.Name = name
	switch name {
	case OutageName:
		sc.Title = "An outage of 3.5 s"
		sc.Down = []Span{{2_000_000_000, 5_500_000_000}}
	case SlowCallsName:
		sc.Title = "Slow calls, then a crash"
		sc.Slow, sc.SlowNs = []Span{{1_500_000_000, 2_000_000_000}}, 1_500_000_000
		sc.HangPerMille, sc.TimeoutNs = 1000, 300_000_000
		sc.Down = []Span{{2_000_000_000, 4_500_000_000}}
	case BlipName:
		sc.Title = "A blip of 300 ms"
		sc.Down = []Span{{2_000_000_000, 2_300_000_000}}
	default:
		return Scenario{}, false
	}
	return sc, true
}

// Kind is the kind of an Event.
type Kind uint8

// The kinds of event.
const (
	// KindCall is an attempt: let through to the backend (Admitted) or
	// refused by the breaker.
	KindCall Kind = iota
	// KindResult is an attempt's result arriving and, with the breaker,
	// reported with Done.
	KindResult
	// KindState is a change of the breaker's state, as State observed it.
	KindState
)

// Event is one thing that happened on a side.
type Event struct {
	AtNs   uint64
	Kind   Kind
	Client int
	Try    int    // 1 for a request's first attempt
	Gen    uint32 // the generation after the event
	State  State  // the breaker's state after the event
	// Call: Admitted, and Probe if it was let through in HalfOpen.
	Admitted, Probe bool
	// Result: Success, Timeout (a hung call), StartNs (when the attempt was
	// let through), TicketGen (the generation that let it through), Late
	// (TicketGen is not the generation before the report) and, before
	// Done, PrevState and PrevGen.
	Success, Timeout, Late bool
	StartNs                uint64
	TicketGen, PrevGen     uint32
	PrevState              State
	// A state change also has PrevState and PrevGen: the state it left and
	// that state's generation.
}

// Changed reports whether a result changed the breaker's state or
// generation: never, for a correct breaker and a late result.
func (e Event) Changed() bool {
	return e.Kind == KindResult && (e.State != e.PrevState || e.Gen != e.PrevGen)
}

// Counts are a side's totals so far.
type Counts struct {
	Requests       uint64 // requests sent
	RequestsOK     uint64 // succeeded on one of their tries
	RequestsFailed uint64 // every try failed
	Attempts       uint64 // attempts that reached the backend
	DownAttempts   uint64 // of those, while it was down
	Retries        uint64 // attempts after a request's first
	Refused        uint64 // attempts the breaker refused
	Probes         uint64 // attempts let through in HalfOpen
	Late           uint64 // results of an earlier generation
	LateChanged    uint64 // late results after which the state or generation differed
	Opens          uint64 // changes to Open
	InFlight       uint64 // attempts at the backend now
	MaxInFlight    uint64
}

// Side is one run of the scenario: through a breaker, or without one.
type Side struct {
	guard.Side      // the Impl's name, or "No breaker"; whether and why it stopped
	Guarded    bool // the attempts go through a breaker
	Events     []Event
	Counts     Counts

	b     Breaker
	state State
	gen   uint32
	q     queue
	seq   uint64
}

// State returns the breaker's state as last observed (Closed without one).
func (sd *Side) State() State { return sd.state }

// Gen returns the breaker's generation: the state changes observed so far.
func (sd *Side) Gen() uint32 { return sd.gen }

// Run is the scenario on both sides.
type Run struct {
	sc      Scenario
	now     uint64
	Breaker Side // through the Impl
	Bare    Side // no breaker
}

// Sides returns the sides in the encoding's order.
func (r *Run) Sides() [2]*Side { return [2]*Side{&r.Breaker, &r.Bare} }

// New starts the scenario at time 0 on both sides.
func New(sc Scenario, impl Impl) (*Run, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	r := &Run{sc: sc}
	r.Breaker = Side{Side: guard.Side{Name: impl.Name}, Guarded: true}
	r.Bare = Side{Side: guard.Side{Name: "No breaker"}}
	if impl.New == nil {
		r.Breaker.Stop(guard.Missing(impl.Missing))
	} else {
		r.Breaker.Guard(func() {
			b, err := impl.New(sc.Breaker, 0)
			switch {
			case err != nil:
				r.Breaker.Stop("New failed: " + err.Error())
			case b == nil:
				r.Breaker.Stop("New returned no breaker and no error")
			default:
				r.Breaker.b = b
			}
		})
	}
	for _, sd := range r.Sides() {
		for c := range sc.Clients {
			sd.push(item{at: sc.arrival(c, 0), what: arrive, client: c})
		}
	}
	return r, nil
}

// Scenario returns the scenario.
func (r *Run) Scenario() Scenario { return r.sc }

// Now is the virtual time reached.
func (r *Run) Now() uint64 { return r.now }

// Done reports whether the run reached its duration.
func (r *Run) Done() bool { return r.now >= r.sc.DurationNs }

// Step runs both sides up to untilNs (at most the duration).
func (r *Run) Step(untilNs uint64) {
	until := min(untilNs, r.sc.DurationNs)
	for _, sd := range r.Sides() {
		for !sd.Stopped && sd.q.Len() > 0 && sd.q[0].at <= until {
			it := heap.Pop(&sd.q).(item)
			sd.handle(it, r.sc)
		}
	}
	r.now = max(r.now, until)
}

// What an item of the queue does.
const (
	arrive = iota // a client's next request
	try           // an attempt of a request (its first or a retry)
	answer        // an attempt's result arrives
)

// item is something due on a side's queue.
type item struct {
	at      uint64
	seq     uint64 // order among items due at the same time
	what    int
	client  int
	k       int // the client's request number
	try     int
	ticket  uint64
	gen     uint32
	start   uint64
	success bool
	timeout bool
}

type queue []item

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

func (sd *Side) push(it item) {
	sd.seq++
	it.seq = sd.seq
	heap.Push(&sd.q, it)
}

// mix is SplitMix64's finaliser: the lab's hash of a call.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// draw returns a number in [0, 1000) for the seed, a client, a request
// and a try, and a salt that tells the draws of one call apart.
func (sc Scenario) draw(salt uint64, c, k, t int) uint64 {
	return mix(sc.Seed^mix(salt<<56|uint64(c)<<40|uint64(k)<<8|uint64(t))) % 1000
}

// arrival returns when client c sends its request k: the clients are
// spread evenly over EveryNs, each request up to a quarter of that spread
// late.
func (sc Scenario) arrival(c, k int) uint64 {
	spread := sc.EveryNs / uint64(sc.Clients)
	return uint64(k)*sc.EveryNs + uint64(c)*spread + sc.draw(1, c, k, 0)*(spread/4)/1000
}

// backend returns how an attempt started at t ends: its success, whether
// it hung, and when it answers.
func (sc Scenario) backend(t uint64, c, k, try int) (success, timeout bool, at uint64) {
	d := sc.draw(2, c, k, try)
	if sc.DownAt(t) {
		if d < uint64(sc.HangPerMille) {
			return false, true, t + sc.TimeoutNs
		}
		return false, false, t + sc.FailNs
	}
	if d < uint64(sc.SlowPerMille) || within(sc.Slow, t) {
		return true, false, t + sc.SlowNs
	}
	return true, false, t + sc.LatencyNs
}

// observe asks the breaker its state at t and records a change.
func (sd *Side) observe(t uint64) {
	s := sd.b.State(t)
	if s >= NumStates {
		sd.Stop("State returned " + strconv.Itoa(int(s)) + ", which is no state")
		return
	}
	if s != sd.state {
		prev := sd.state
		sd.state = s
		sd.gen++
		if s == Open {
			sd.Counts.Opens++
		}
		sd.Events = append(sd.Events, Event{AtNs: t, Kind: KindState, Gen: sd.gen, State: s, PrevState: prev, PrevGen: sd.gen - 1})
	}
}

func (sd *Side) handle(it item, sc Scenario) {
	switch it.what {
	case arrive:
		sd.Counts.Requests++
		sd.push(item{at: sc.arrival(it.client, it.k+1), what: arrive, client: it.client, k: it.k + 1})
		it.what, it.try = try, 1
		sd.attempt(it, sc)
	case try:
		sd.attempt(it, sc)
	case answer:
		sd.result(it, sc)
	}
}

// attempt makes one attempt of a request: through the breaker, if there is
// one, to the backend.
func (sd *Side) attempt(it item, sc Scenario) {
	if it.try > 1 {
		sd.Counts.Retries++
	}
	e := Event{AtNs: it.at, Kind: KindCall, Client: it.client, Try: it.try}
	var ticket uint64
	if sd.Guarded {
		ok := false
		sd.Guard(func() {
			sd.observe(it.at)
			if sd.Stopped {
				return
			}
			e.Probe = sd.state == HalfOpen
			e.Gen, e.State = sd.gen, sd.state
			ticket, ok = sd.b.Allow(it.at)
		})
		if sd.Stopped {
			return
		}
		e.Admitted, e.Probe = ok, ok && e.Probe
		sd.Events = append(sd.Events, e)
		// Allow changes no state of its own; if it did, the change shows
		// after the call.
		sd.Guard(func() { sd.observe(it.at) })
		if sd.Stopped {
			return
		}
		if !ok {
			sd.Counts.Refused++
			sd.failed(it, sc)
			return
		}
		if e.Probe {
			sd.Counts.Probes++
		}
	} else {
		e.Admitted = true
		sd.Events = append(sd.Events, e)
	}
	sd.Counts.Attempts++
	if sc.DownAt(it.at) {
		sd.Counts.DownAttempts++
	}
	sd.Counts.InFlight++
	sd.Counts.MaxInFlight = max(sd.Counts.MaxInFlight, sd.Counts.InFlight)
	success, timeout, at := sc.backend(it.at, it.client, it.k, it.try)
	sd.push(item{at: at, what: answer, client: it.client, k: it.k, try: it.try,
		ticket: ticket, gen: e.Gen, start: it.at, success: success, timeout: timeout})
}

// result takes an attempt's answer: reports it to the breaker, and
// finishes the request or tries it again.
func (sd *Side) result(it item, sc Scenario) {
	sd.Counts.InFlight--
	e := Event{AtNs: it.at, Kind: KindResult, Client: it.client, Try: it.try,
		Success: it.success, Timeout: it.timeout, StartNs: it.start, TicketGen: it.gen}
	if sd.Guarded {
		sd.Guard(func() {
			sd.observe(it.at)
			if sd.Stopped {
				return
			}
			e.PrevState, e.PrevGen = sd.state, sd.gen
			e.Late = it.gen != sd.gen
			sd.b.Done(it.ticket, it.success, it.at)
		})
		if sd.Stopped {
			return
		}
		// The result, then the change of state it made, if any.
		i := len(sd.Events)
		sd.Events = append(sd.Events, e)
		sd.Guard(func() { sd.observe(it.at) })
		if sd.Stopped {
			return
		}
		sd.Events[i].Gen, sd.Events[i].State = sd.gen, sd.state
		if e.Late {
			sd.Counts.Late++
			if sd.Events[i].Changed() {
				sd.Counts.LateChanged++
			}
		}
	} else {
		sd.Events = append(sd.Events, e)
	}
	if it.success {
		sd.Counts.RequestsOK++
		return
	}
	sd.failed(it, sc)
}

// failed tries a failed attempt's request again after RetryNs, or gives it
// up after its last try.
func (sd *Side) failed(it item, sc Scenario) {
	if it.try >= sc.Tries {
		sd.Counts.RequestsFailed++
		return
	}
	sd.push(item{at: it.at + sc.RetryNs, what: try, client: it.client, k: it.k, try: it.try + 1})
}
