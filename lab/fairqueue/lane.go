package fairqueue

import (
	"math"
	"strconv"

	"ratelab/lab/guard"
)

// Delays are counted in a histogram of HistPerDecade buckets per decade
// from 1 µs; bucket 0 holds delays under 1 µs (most often 0: the engine
// was idle).
const (
	HistPerDecade = 50
	histDecades   = 10
	histBuckets   = 1 + HistPerDecade*histDecades
)

// pending is one command waiting in a lane.
type pending struct {
	atNs uint64
	seq  uint64
	cost uint64
}

// fifoOf is a session's commands waiting in a lane, oldest first.
type fifoOf struct {
	items []pending
	head  int
}

func (f *fifoOf) len() int { return len(f.items) - f.head }

func (f *fifoOf) push(p pending) {
	if f.head > 0 && f.head == len(f.items) {
		f.items, f.head = f.items[:0], 0
	} else if f.head >= 1024 && f.head*2 >= len(f.items) {
		n := copy(f.items, f.items[f.head:])
		f.items, f.head = f.items[:n], 0
	}
	f.items = append(f.items, p)
}

func (f *fifoOf) front() pending { return f.items[f.head] }

func (f *fifoOf) pop() pending {
	p := f.items[f.head]
	f.head++
	return p
}

// pairGap follows the costs served to two sessions while both have
// commands waiting.
type pairGap struct {
	active bool
	d      int64 // served to the lower session minus to the higher, since the interval began
	lo, hi int64
	worst  uint64 // the largest hi - lo of any interval
}

// lane is one scheduler in front of its own engine.
type lane struct {
	sched   Scheduler
	stopped bool
	status  string

	freeNs  uint64 // when the engine is next free
	waiting [NumSessions]fifoOf
	queued  int
	inSvc   struct {
		session int
		endNs   uint64
	}

	binStart, binEnd uint64
	busy             [NumSessions]uint64 // in the current bin

	lastSeq    uint64 // the latest arrival served so far
	outOfOrder uint64
	servedCmds uint64
	served     [NumSessions]uint64 // cost
	arrived    [NumSessions]uint64 // commands
	hist       [NumSessions][histBuckets]uint32
	pairs      [NumSessions][NumSessions]pairGap // [i][j], i < j
	backlogged int                               // sessions with commands waiting
	jointNs    uint64                            // time with two or more of them
	lastEvent  uint64
	share      [NumSessions]float64 // over the latest WindowBins bins
	peak       [NumSessions]float64
}

func newLane(s Scheduler) *lane {
	l := &lane{sched: s}
	l.inSvc.session = -1
	return l
}

// guard runs f, stopping the lane if it panics.
func (l *lane) guard(f func()) {
	defer func() {
		if v := recover(); v != nil {
			l.stopped, l.status = true, guard.Status(v)
		}
	}()
	f()
}

func (l *lane) stop(why string) { l.stopped, l.status = true, why }

// beginBin starts the bin [start, end): the command in service, if any,
// uses the engine from the start.
func (l *lane) beginBin(start, end uint64) {
	l.binStart, l.binEnd = start, end
	l.busy = [NumSessions]uint64{}
	if s := l.inSvc.session; s >= 0 && l.inSvc.endNs > start {
		l.busy[s] += min(l.inSvc.endNs, end) - start
	}
}

// event moves the lane's clock of backlogged time to tNs.
func (l *lane) event(tNs uint64) {
	if l.backlogged >= 2 && tNs > l.lastEvent {
		l.jointNs += tNs - l.lastEvent
	}
	l.lastEvent = max(l.lastEvent, tNs)
}

// push gives the lane's scheduler the arrival a.
func (l *lane) push(a arrival) {
	l.arrived[a.session]++
	if l.stopped {
		return
	}
	l.guard(func() { l.sched.Push(uint32(a.session), a.cost) })
	if l.stopped {
		return
	}
	l.event(a.atNs)
	s := a.session
	if l.waiting[s].len() == 0 {
		for j := range NumSessions {
			if j != s && l.waiting[j].len() > 0 {
				i, k := min(s, j), max(s, j)
				l.pairs[i][k] = pairGap{active: true, worst: l.pairs[i][k].worst}
			}
		}
		l.backlogged++
	}
	l.waiting[s].push(pending{atNs: a.atNs, seq: a.seq, cost: a.cost})
	if l.queued == 0 && l.freeNs < a.atNs {
		l.freeNs = a.atNs // the engine was idle
	}
	l.queued++
}

// serveBefore lets the engine take commands while it is free before tNs.
func (l *lane) serveBefore(tNs, unitNs uint64) {
	for !l.stopped && l.queued > 0 && l.freeNs < tNs {
		var (
			s32  uint32
			cost uint64
			ok   bool
		)
		l.guard(func() { s32, cost, ok = l.sched.Pop() })
		if l.stopped {
			return
		}
		s := int(s32)
		switch {
		case !ok:
			l.stop("Pop() returned nothing with " + strconv.Itoa(l.queued) + " commands waiting")
			return
		case s32 >= NumSessions || l.waiting[s].len() == 0:
			l.stop("Pop() returned session " + u(uint64(s32)) + ", which has nothing waiting")
			return
		case cost != l.waiting[s].front().cost:
			l.stop("Pop() returned session " + u(uint64(s32)) + " at cost " + u(cost) + "; its next command costs " + u(l.waiting[s].front().cost))
			return
		}
		l.serve(s, l.waiting[s].pop(), unitNs)
	}
}

// serve starts command p of session s at l.freeNs.
func (l *lane) serve(s int, p pending, unitNs uint64) {
	start := l.freeNs
	l.event(start)
	l.queued--
	l.servedCmds++
	l.served[s] += p.cost
	if p.seq < l.lastSeq {
		l.outOfOrder++
	}
	l.lastSeq = max(l.lastSeq, p.seq)
	l.hist[s][histBucket(start-p.atNs)]++
	for j := range NumSessions {
		if j == s {
			continue
		}
		i, k := min(s, j), max(s, j)
		g := &l.pairs[i][k]
		if !g.active {
			continue
		}
		if s == i {
			g.d += int64(p.cost)
		} else {
			g.d -= int64(p.cost)
		}
		g.lo, g.hi = min(g.lo, g.d), max(g.hi, g.d)
		g.worst = max(g.worst, uint64(g.hi-g.lo))
	}
	if l.waiting[s].len() == 0 {
		for j := range NumSessions {
			i, k := min(s, j), max(s, j)
			l.pairs[i][k].active = false
		}
		l.backlogged--
	}
	end := start + p.cost*unitNs
	l.freeNs = end
	l.inSvc.session, l.inSvc.endNs = s, end
	l.busy[s] += min(end, l.binEnd) - start
}

// account closes the bin at endNs.
func (l *lane) account(endNs uint64) { l.event(endNs) }

// histBucket returns the histogram bucket of a delay.
func histBucket(ns uint64) int {
	if ns < 1000 {
		return 0
	}
	b := 1 + int(math.Floor(math.Log10(float64(ns)/1000)*HistPerDecade))
	return min(max(b, 1), histBuckets-1)
}

// bucketValue returns the delay a bucket stands for: 0 for bucket 0, the
// geometric middle of the others.
func bucketValue(b int) float64 {
	if b == 0 {
		return 0
	}
	return 1000 * math.Pow(10, (float64(b-1)+0.5)/HistPerDecade)
}

// quantile returns the q-quantile of session s's delays, or -1 before
// any command of s was served.
func (l *lane) quantile(s int, q float64) float64 {
	var n uint64
	for _, c := range l.hist[s] {
		n += uint64(c)
	}
	if n == 0 {
		return -1
	}
	rank := uint64(math.Ceil(q * float64(n)))
	rank = max(rank, 1)
	var seen uint64
	for b, c := range l.hist[s] {
		seen += uint64(c)
		if seen >= rank {
			return bucketValue(b)
		}
	}
	return bucketValue(histBuckets - 1)
}

// SessionStats is what a lane has measured for one session.
type SessionStats struct {
	Arrived  uint64  // commands that arrived
	Served   uint64  // cost served (commands started)
	Waiting  int     // commands waiting
	P50, P99 float64 // queueing delay quantiles, ns (within 5%); -1 before the first
	Share    float64 // of the engine's time over the latest second
	Peak     float64 // the largest Share so far
}

// LaneStats is what a lane has measured.
type LaneStats struct {
	Stopped    bool
	Status     string
	Served     uint64 // commands started
	Waiting    int    // commands waiting
	OutOfOrder uint64 // commands served after one that arrived later
	// WorstGap is the largest difference between the costs served to two
	// sessions over an interval in which both had commands waiting, and
	// WorstPair those two sessions (-1, -1 before any such interval).
	WorstGap  uint64
	WorstPair [2]int
	// Gaps is WorstGap for every pair: Gaps[i][j], i < j.
	Gaps     [NumSessions][NumSessions]uint64
	JointNs  uint64 // time in which two sessions or more had commands waiting
	Sessions [NumSessions]SessionStats
}

func (l *lane) stats() LaneStats {
	st := LaneStats{
		Stopped: l.stopped, Status: l.status, Served: l.servedCmds, Waiting: l.queued,
		OutOfOrder: l.outOfOrder, WorstPair: [2]int{-1, -1}, JointNs: l.jointNs,
	}
	for i := range NumSessions {
		for j := i + 1; j < NumSessions; j++ {
			g := l.pairs[i][j].worst
			st.Gaps[i][j] = g
			if st.WorstPair[0] < 0 || g > st.WorstGap {
				st.WorstGap, st.WorstPair = g, [2]int{i, j}
			}
		}
		st.Sessions[i] = SessionStats{
			Arrived: l.arrived[i], Served: l.served[i], Waiting: l.waiting[i].len(),
			P50: l.quantile(i, 0.5), P99: l.quantile(i, 0.99),
			Share: l.share[i], Peak: l.peak[i],
		}
	}
	if l.jointNs == 0 && st.WorstGap == 0 {
		st.WorstPair = [2]int{-1, -1}
	}
	return st
}
