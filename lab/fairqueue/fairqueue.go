package fairqueue

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"

	"ratelab/lab/guard"
	ref "ratelab/solutions/fairqueue"
)

// BinNs is the length of a Bin: 100 ms of virtual time.
const BinNs = 100_000_000

// WindowBins is the number of bins in the window of Share and Peak: 1 s.
const WindowBins = 10

// MaxBins is the most bins one Step returns.
const MaxBins = 1024

// NumSessions is the number of sessions: the burster, the heavy sender
// and four light ones.
const NumSessions = 6

// The sessions, by index.
const (
	Burster = 0 // A: bursts of commands of cost 1
	Heavy   = 1 // B: commands of Config.HeavyCost
)

// SessionName returns a session's letter, "A" to "F".
func SessionName(s int) string { return string(rune('A' + s)) }

// Lane is one of the three schedulers.
type Lane int

// The lanes, in the order they are shown.
const (
	FIFO Lane = iota
	RR
	DRR
	NumLanes = 3
)

var laneIDs = [NumLanes]string{"fifo", "rr", "drr"}
var laneNames = [NumLanes]string{"One FIFO", "Round robin", "Deficit round robin"}

// String returns the lane's id: "fifo", "rr" or "drr".
func (l Lane) String() string { return laneIDs[l] }

// Name returns the lane's name in words.
func (l Lane) Name() string { return laneNames[l] }

// Scheduler is the fairqueue exercise's API: it decides which waiting
// command the engine takes next.
type Scheduler interface {
	Push(session uint32, cost uint64)
	Pop() (session uint32, cost uint64, ok bool)
	Len() int
}

// Impl is one implementation of deficit round robin. A nil New means it
// is unavailable, and Missing says why.
type Impl struct {
	Name    string // "Reference" or "Yours"
	New     func(quantum uint64) Scheduler
	Missing string // e.g. "your code does not build"
}

// Reference is the Impl built from ratelab/solutions/fairqueue.
var Reference = Impl{
	Name: "Reference",
	New:  func(quantum uint64) Scheduler { return ref.New(quantum) },
}

// Config is one run of the contention lab.
type Config struct {
	CapacityPerSec uint64  // cost units the engine serves per second
	Quantum        uint64  // DRR's quantum, in cost units
	BurstRate      float64 // the burster's rate during a burst, in multiples of its share (capacity / 6)
	BurstSize      int     // commands per burst
	FirstBurstNs   uint64  // when the first burst starts
	PeriodNs       uint64  // from one burst's start to the next
	HeavyCost      uint64  // the cost of each of B's commands
	HeavyLoad      float64 // B's cost units per second, as a fraction of the capacity
	LightRate      float64 // commands per second of each of C to F (cost 1)
	Seed           uint64
}

// DefaultConfig returns the lab's run: an engine of 1,000 cost units per
// second (a unit takes 1 ms) and a quantum of 5; the burster fires 1,500
// commands at 8 times its share (1,333 a second, for 1.1 s) every 10 s from
// t = 1 s; B sends 45% of the capacity in commands of cost 5 (90 a second);
// C to F send 50 commands of cost 1 a second each. On average the engine
// is 80% busy; each burst puts it behind for a few seconds.
func DefaultConfig() Config {
	return Config{
		CapacityPerSec: 1000,
		Quantum:        5,
		BurstRate:      8,
		BurstSize:      1500,
		FirstBurstNs:   1_000_000_000,
		PeriodNs:       10_000_000_000,
		HeavyCost:      5,
		HeavyLoad:      0.45,
		LightRate:      50,
		Seed:           1,
	}
}

// MaxCost is the largest cost any session sends.
func (c Config) MaxCost() uint64 { return max(c.HeavyCost, 1) }

// Validate reports why c cannot be run, or nil if it can.
func (c Config) Validate() error {
	switch {
	case c.CapacityPerSec < 1 || c.CapacityPerSec > 1_000_000_000 || 1_000_000_000%c.CapacityPerSec != 0:
		return errors.New("fairqueue: the capacity must divide 10^9 cost units per second")
	case c.Quantum < 1 || c.Quantum > 1<<32:
		return errors.New("fairqueue: quantum " + u(c.Quantum) + " is outside [1, 1<<32]")
	case c.HeavyCost < 1 || c.HeavyCost > 1000:
		return errors.New("fairqueue: B's cost " + u(c.HeavyCost) + " is outside [1, 1000]")
	case c.HeavyCost > 64*c.Quantum:
		return errors.New("fairqueue: B's cost " + u(c.HeavyCost) + " is more than 64 × the quantum " + u(c.Quantum))
	case !(c.BurstRate > 0 && c.BurstRate <= 1000):
		return errors.New("fairqueue: the burster's rate must be more than 0 and at most 1000 times its share")
	case c.BurstSize < 0 || c.BurstSize > 1_000_000:
		return errors.New("fairqueue: the burst size must be between 0 and 1,000,000 commands")
	case c.PeriodNs < BinNs || c.PeriodNs > 3600_000_000_000:
		return errors.New("fairqueue: the burst period must be between 100 ms and an hour")
	case !(c.HeavyLoad >= 0 && c.HeavyLoad <= 10):
		return errors.New("fairqueue: B's load must be between 0 and 10 times the capacity")
	case !(c.LightRate >= 0 && c.LightRate <= 1e6):
		return errors.New("fairqueue: the light sessions' rate must be between 0 and 10^6 a second")
	}
	return nil
}

// Bin is one slice of virtual time: BinNs from StartNs.
type Bin struct {
	StartNs uint64
	// BusyNs is the engine time each session used in the bin, by lane.
	BusyNs [NumLanes][NumSessions]uint64
}

// arrival is one command as it arrives, the same for every lane.
type arrival struct {
	atNs    uint64
	seq     uint64 // arrival order, from 1
	session int
	cost    uint64
}

// Run is one run of Config: the arrivals and the three lanes.
type Run struct {
	cfg    Config
	impl   string
	unitNs uint64 // engine time of one cost unit
	rng    *rand.Rand

	now   uint64 // start of the next bin
	next  [NumSessions]uint64
	burst struct {
		start uint64 // the current or next burst's start
		sent  int    // its commands sent
		gapNs float64
	}
	seq   uint64
	lanes [NumLanes]*lane
	bins  []Bin
	bin   int // bins run
	// window holds the busy time of the latest WindowBins bins, by bin
	// modulo WindowBins.
	window [WindowBins][NumLanes][NumSessions]uint64
}

// New returns a run of cfg at time 0, its DRR lane built by impl. A
// constructor that is nil or panics leaves that lane stopped, with the
// reason in its Status; New fails only when cfg is invalid.
func New(cfg Config, impl Impl) (*Run, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &Run{
		cfg:    cfg,
		impl:   impl.Name,
		unitNs: 1_000_000_000 / cfg.CapacityPerSec,
		rng:    rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x2f8a5c3e91d04b67)),
	}
	share := float64(cfg.CapacityPerSec) / NumSessions
	r.burst.start = cfg.FirstBurstNs
	r.burst.gapNs = 1e9 / (cfg.BurstRate * share)
	for s := range NumSessions {
		r.next[s] = math.MaxUint64
	}
	r.next[Burster] = r.burstTime()
	for s := Heavy; s < NumSessions; s++ {
		r.next[s] = r.poisson(s, 0)
	}
	r.lanes[FIFO] = newLane(&fifo{})
	r.lanes[RR] = newLane(&roundRobin{})
	d := newLane(nil)
	switch {
	case impl.New == nil:
		d.stopped, d.status = true, guard.Missing(impl.Missing)
	default:
		d.guard(func() {
			d.sched = impl.New(cfg.Quantum)
			if d.sched == nil {
				panic(errors.New("New returned nil"))
			}
		})
	}
	r.lanes[DRR] = d
	return r, nil
}

// rate returns session s's commands per second (not the burster's).
func (r *Run) rate(s int) float64 {
	if s == Heavy {
		return r.cfg.HeavyLoad * float64(r.cfg.CapacityPerSec) / float64(r.cfg.HeavyCost)
	}
	return r.cfg.LightRate
}

// poisson draws the time of session s's arrival after one at tNs.
func (r *Run) poisson(s int, tNs uint64) uint64 {
	rate := r.rate(s)
	if !(rate > 0) {
		return math.MaxUint64
	}
	next := float64(tNs) + r.rng.ExpFloat64()*1e9/rate
	if next >= 1<<63 {
		return math.MaxUint64
	}
	return max(uint64(next), tNs)
}

// burstTime returns the time of the burster's next command.
func (r *Run) burstTime() uint64 {
	if r.cfg.BurstSize == 0 {
		return math.MaxUint64
	}
	return r.burst.start + uint64(float64(r.burst.sent)*r.burst.gapNs)
}

// cost returns the cost of session s's commands.
func (r *Run) cost(s int) uint64 {
	if s == Heavy {
		return r.cfg.HeavyCost
	}
	return 1
}

// nextArrival removes and returns the next arrival if it comes before
// untilNs.
func (r *Run) nextArrival(untilNs uint64) (arrival, bool) {
	s := 0
	for i := 1; i < NumSessions; i++ {
		if r.next[i] < r.next[s] {
			s = i
		}
	}
	t := r.next[s]
	if t >= untilNs {
		return arrival{}, false
	}
	r.seq++
	a := arrival{atNs: t, seq: r.seq, session: s, cost: r.cost(s)}
	if s == Burster {
		r.burst.sent++
		if r.burst.sent == r.cfg.BurstSize {
			r.burst.start += r.cfg.PeriodNs
			r.burst.sent = 0
		}
		r.next[s] = max(r.burstTime(), t)
	} else {
		r.next[s] = r.poisson(s, t)
	}
	return a, true
}

// Step runs whole bins up to virtual time untilNs, at most maxBins of
// them (at most MaxBins), and returns them. The slice is reused by the
// next Step.
func (r *Run) Step(untilNs uint64, maxBins int) []Bin {
	r.bins = r.bins[:0]
	maxBins = min(maxBins, MaxBins)
	for len(r.bins) < maxBins && r.now+BinNs <= untilNs && r.now+BinNs > r.now {
		r.runBin()
	}
	return r.bins
}

// runBin runs the bin from r.now.
func (r *Run) runBin() {
	start, end := r.now, r.now+BinNs
	for _, l := range r.lanes {
		l.beginBin(start, end)
	}
	for {
		a, ok := r.nextArrival(end)
		if !ok {
			break
		}
		for _, l := range r.lanes {
			l.serveBefore(a.atNs, r.unitNs)
			l.push(a)
		}
	}
	b := Bin{StartNs: start}
	w := &r.window[r.bin%WindowBins]
	for i, l := range r.lanes {
		l.serveBefore(end, r.unitNs)
		l.account(end)
		b.BusyNs[i] = l.busy
		w[i] = l.busy
		for s := range NumSessions {
			var sum uint64
			for k := range WindowBins {
				sum += r.window[k][i][s]
			}
			l.share[s] = float64(sum) / (WindowBins * BinNs)
			if r.bin >= WindowBins-1 {
				l.peak[s] = max(l.peak[s], l.share[s])
			}
		}
	}
	r.bins = append(r.bins, b)
	r.bin++
	r.now = end
}

// Config returns the configuration the run was made with.
func (r *Run) Config() Config { return r.cfg }

// Impl returns the name of the Impl the DRR lane was made with.
func (r *Run) Impl() string { return r.impl }

// Now returns the virtual time the run has reached: the end of its latest
// bin.
func (r *Run) Now() uint64 { return r.now }

// Bound returns Shreedhar and Varghese's bound for DRR: 2 × quantum + the
// largest cost. Over any interval in which two sessions both have commands
// waiting, DRR serves them costs that differ by less than this.
func (r *Run) Bound() uint64 { return 2*r.cfg.Quantum + r.cfg.MaxCost() }

// Lane returns what lane l has measured so far.
func (r *Run) Lane(l Lane) LaneStats { return r.lanes[l].stats() }

// Stopped reports whether the DRR lane stopped; Status says why.
func (r *Run) Stopped() bool { return r.lanes[DRR].stopped }

// Status says why the DRR lane stopped, or is empty while it runs.
func (r *Run) Status() string { return r.lanes[DRR].status }

// ImplStatus is the Impl's name while the DRR lane runs, and the name and
// the reason once it stopped ("Yours: not implemented yet").
func (r *Run) ImplStatus() string {
	if d := r.lanes[DRR]; d.stopped {
		return r.impl + ": " + d.status
	}
	return r.impl
}

// CheckLen asks the DRR lane's scheduler for its Len and stops the lane
// if it is not the number of commands waiting.
func (r *Run) CheckLen() {
	d := r.lanes[DRR]
	if d.stopped {
		return
	}
	d.guard(func() {
		if n := d.sched.Len(); n != d.queued {
			d.stop("Len() = " + strconv.Itoa(n) + " with " + strconv.Itoa(d.queued) + " commands waiting")
		}
	})
}

// u formats a number of a message.
func u(n uint64) string { return strconv.FormatUint(n, 10) }
