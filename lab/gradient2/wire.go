package gradient2

import "ratelab/lab/batch"

// Layout of what EncodeStep writes: a header of StepHeader float64 values,
// then BinFields values per bin.
const (
	StepCount    = 0 // bins in this step
	StepStopped  = 1 // 1 once the run has stopped, else 0
	StepNow      = 2 // virtual time reached, ns
	StepLimit    = 3 // the limit now
	StepShortRTT = 4 // the latest sample's RTT, ns
	StepLongRTT  = 5 // the long RTT, ns
	StepInflight = 6 // requests in flight
	StepHeader   = 7

	BinStart      = 0
	BinLoad       = 1
	BinLimit      = 2
	BinShortRTT   = 3
	BinLongRTT    = 4
	BinInflight   = 5
	BinArrived    = 6
	BinAdmitted   = 7
	BinRejected   = 8
	BinSamples    = 9
	BinAppLimited = 10
	BinFields     = 11
)

// MaxStepBytes returns the most bytes EncodeStep writes for n bins.
func MaxStepBytes(n int) int { return 8 * (StepHeader + n*BinFields) }

// EncodeStep appends the run's state and the bins, as Step returned them,
// to dst as little-endian float64 values in the layout above, and returns
// the extended slice. Read it in JavaScript as a Float64Array.
func (r *Run) EncodeStep(dst []byte, bins []Bin) []byte {
	w := batch.Writer{Bytes: dst}
	w.Float(float64(len(bins)))
	w.Bool(r.side.Stopped)
	w.Float(float64(r.now))
	w.Float(float64(r.current))
	w.Float(r.short)
	w.Float(r.long.value)
	w.Float(float64(len(r.flight)))
	for _, b := range bins {
		w.Float(float64(b.StartNs))
		w.Float(b.Load)
		w.Float(float64(b.Limit))
		w.Float(b.ShortRTT)
		w.Float(b.LongRTT)
		w.Float(float64(b.Inflight))
		w.Float(float64(b.Arrived))
		w.Float(float64(b.Admitted))
		w.Float(float64(b.Rejected))
		w.Float(float64(b.Samples))
		w.Float(float64(b.AppLimited))
	}
	return w.Bytes
}
