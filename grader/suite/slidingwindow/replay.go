package slidingwindow

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"ratelab/grader/check"
)

// setup is New's arguments.
type setup struct {
	Limit    uint32
	WindowNs uint64
	Buckets  int
}

func (s setup) bucketNs() uint64 { return s.WindowNs / uint64(s.Buckets) }

// op is one call. Unless Back is non-zero, its time is in the bucket Jump
// buckets after the one of the latest time so far, Off nanoseconds into it
// (at most its last nanosecond), and never before the latest time; times
// past MaxUint64 saturate. If Back is non-zero, the time is Back before the
// latest time (stopping at 0).
type op struct {
	Count bool // Count instead of TryAcquire
	Jump  uint64
	Off   uint64
	Back  uint64
}

type script = check.Script[setup, op]

// at returns the time of o when latest is the latest time so far.
func (o op) at(latest, bucketNs uint64) uint64 {
	if o.Back > 0 {
		return latest - min(o.Back, latest)
	}
	b, carry := bits.Add64(latest/bucketNs, o.Jump, 0)
	hi, lo := bits.Mul64(b, bucketNs)
	t, carry2 := bits.Add64(lo, min(o.Off, bucketNs-1), 0)
	if carry != 0 || hi != 0 || carry2 != 0 {
		return math.MaxUint64
	}
	return max(t, latest)
}

func limitString(l uint32) string {
	if l == math.MaxUint32 {
		return "math.MaxUint32"
	}
	return check.U(uint64(l))
}

// newCall is the call of New with s's arguments, as the learner reads it.
func newCall(s setup) string {
	return fmt.Sprintf("New(limit=%s, windowNs=%s, buckets=%d)", limitString(s.Limit), check.U(s.WindowNs), s.Buckets)
}

func setupLine(s setup) string { return newCall(s) + " // bucketNs = " + check.U(s.bucketNs()) }

func replay(newImpl New, s script) check.Trace {
	st := s.Setup
	t, w, ok := check.Begin(setupLine(st), func() Window { return newImpl(st.Limit, st.WindowNs, st.Buckets) })
	t.Full = s.Full
	if !ok {
		return t
	}
	m := newModel(st)
	latest := uint64(0)
	for _, o := range s.Ops {
		now := o.at(latest, m.BucketNs)
		latest = max(latest, now)
		if o.Count {
			got, p := check.Call(func() uint32 { return w.Count(now) })
			want := m.Count(now)
			if !t.Step(fmt.Sprintf("Count(nowNs=%s)", check.U(now)), strconv.FormatUint(uint64(got), 10), strconv.FormatUint(uint64(want), 10), p) {
				return t
			}
			continue
		}
		got, p := check.Call(func() bool { return w.TryAcquire(now) })
		if !t.Step(fmt.Sprintf("TryAcquire(nowNs=%s)", check.U(now)), check.B(got), check.B(m.TryAcquire(now)), p) {
			return t
		}
	}
	return t
}
