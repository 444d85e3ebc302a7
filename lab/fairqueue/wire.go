package fairqueue

import "ratelab/lab/batch"

// Layout of what EncodeStep writes, in little-endian float64 values: a
// header of StepHeader values; then, for each lane in order, LaneHead
// values and SessionFields values per session; then BinFields values per
// bin (its start, then the busy time of each session in each lane, lane
// by lane).
const (
	StepCount   = 0 // bins in this step
	StepNow     = 1 // virtual time reached, ns
	StepBound   = 2 // 2 × quantum + the largest cost
	StepStopped = 3 // 1 once the DRR lane has stopped, else 0
	StepHeader  = 4

	LaneStopped    = 0
	LaneServed     = 1 // commands served
	LaneWaiting    = 2 // commands waiting
	LaneOutOfOrder = 3
	LaneWorstGap   = 4
	LaneWorstA     = 5 // the worst pair's sessions, -1 before any
	LaneWorstB     = 6
	LaneJointNs    = 7
	LaneHead       = 8

	SesArrived    = 0
	SesServed     = 1 // cost
	SesWaiting    = 2
	SesP50        = 3 // ns, -1 before the first command
	SesP99        = 4
	SesShare      = 5 // of the engine over the latest second, 0 to 1
	SesPeak       = 6
	SessionFields = 7

	LaneFields = LaneHead + NumSessions*SessionFields

	BinStart  = 0
	BinBusy   = 1 // then NumLanes × NumSessions values, ns
	BinFields = 1 + NumLanes*NumSessions
)

// MaxStepBytes returns the most bytes EncodeStep writes for n bins.
func MaxStepBytes(n int) int { return 8 * (StepHeader + NumLanes*LaneFields + n*BinFields) }

// EncodeStep appends the run's state and the bins, as Step returned them,
// to dst in the layout above and returns the extended slice. Read it in
// JavaScript as a Float64Array.
func (r *Run) EncodeStep(dst []byte, bins []Bin) []byte {
	w := batch.Writer{Bytes: dst}
	w.Float(float64(len(bins)))
	w.Float(float64(r.now))
	w.Float(float64(r.Bound()))
	w.Bool(r.Stopped())
	for l := range Lane(NumLanes) {
		st := r.Lane(l)
		w.Bool(st.Stopped)
		w.Float(float64(st.Served))
		w.Float(float64(st.Waiting))
		w.Float(float64(st.OutOfOrder))
		w.Float(float64(st.WorstGap))
		w.Float(float64(st.WorstPair[0]))
		w.Float(float64(st.WorstPair[1]))
		w.Float(float64(st.JointNs))
		for _, s := range st.Sessions {
			w.Float(float64(s.Arrived))
			w.Float(float64(s.Served))
			w.Float(float64(s.Waiting))
			w.Float(s.P50)
			w.Float(s.P99)
			w.Float(s.Share)
			w.Float(s.Peak)
		}
	}
	for _, b := range bins {
		w.Float(float64(b.StartNs))
		for l := range NumLanes {
			for s := range NumSessions {
				w.Float(float64(b.BusyNs[l][s]))
			}
		}
	}
	return w.Bytes
}
